"""``compliance.next_allowed`` over a million leads' numbers, beside a pandas baseline.

Issue 38's target: 1,000,000 numbers answered in under 1 s warm (the second ask of the
same column, as a notebook asks again), against what a competent pandas user would
write for the same answer: ask per distinct number (``drop_duplicates``, then a function
mapped over them) with ``phonenumbers`` for the zones and region, an area-code table for
the state, and the same law table (``dialkit.compliance.jurisdictions``: each row's
``allows``), stepping through the moments a window opens for the next allowed one.

The numbers are a US account's leads: geographic numbers of every area code the state
table knows (so every state row and zone is met), 3% toll-free, 3% Canadian and 2% UK,
1% numbers in E.164 that no zone is known for (an area code of 0, the unassigned
country code 999: blank and unparseable cells are refused since issue 48), and repeats
(a lead file holds some numbers twice). The moment is a Sunday evening on the east
coast, when most states allow calls and some forbid them.
Both answers are compared on every number the baseline asked: they must agree.

Run: ``.venv/bin/python benchmarks/bench_when.py [--numbers 1000000] [--baseline 100000]
[--runs 5]``. Results go to ``benchmarks/RESULTS.md`` by hand, with the command.
"""

from __future__ import annotations

import argparse
import statistics
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import numpy as np
import pandas as pd
import phonenumbers
from phonenumbers import timezone as phone_zones

from _timing import timed, timed_answer
from dialkit._places._areas import area_states
from dialkit.compliance import jurisdictions, next_allowed

AT = pd.Timestamp("2026-11-22T23:30:00Z")  # Sunday 18:30 in New York, 15:30 in Los Angeles


def numbers(count: int, seed: int = 38) -> pd.Series:
    """A US account's leads' numbers: see the module's docstring."""
    rng = np.random.default_rng(seed)
    areas = np.array([a for a in range(200, 1000) if area_states(np.array([a]))[0]])
    kind = rng.random(count)
    local = rng.integers(2_000_000, 9_999_999, count)
    area = rng.choice(areas, count)
    text = np.char.add(np.char.add("+1", area.astype(str)), local.astype(str)).astype(object)
    text[kind < 0.03] = "+1800" + pd.Series(local[kind < 0.03]).astype(str).to_numpy(object)
    canada = (kind >= 0.03) & (kind < 0.06)
    text[canada] = "+1204" + pd.Series(local[canada]).astype(str).to_numpy(object)
    uk = (kind >= 0.06) & (kind < 0.08)
    text[uk] = "+4420" + pd.Series(local[uk] + 70_000_000).astype(str).to_numpy(object)
    nowhere = (kind >= 0.08) & (kind < 0.085)  # E.164 that no zone is known for
    text[nowhere] = "+10" + pd.Series(local[nowhere]).astype(str).to_numpy(object)
    text[(kind >= 0.085) & (kind < 0.09)] = "+999123"
    repeats = rng.random(count) < 0.05
    text[repeats] = text[rng.integers(0, count, int(repeats.sum()))]
    return pd.Series(text, dtype="str")


def baseline(phones: pd.Series, at: pd.Timestamp) -> pd.DataFrame:
    """Per distinct number: its zones, its rows of law, allowed now, else the first moment
    a window opens that every zone's rows allow (14 days ahead at most)."""
    rows = {row.id: row for row in jurisdictions.all() if row.confirmed}
    us_states = [row for row in rows.values() if row.id.startswith("US-")]
    starts = sorted({t for row in rows.values() for w in (row.weekday, row.saturday,
                     row.sunday, row.holiday) if w for t in (w[0],)})
    moment = at.to_pydatetime()

    def laws(number: phonenumbers.PhoneNumber) -> list[jurisdictions.Jurisdiction]:
        region = phonenumbers.region_code_for_number(number)
        if region == "US":
            state = area_states(np.array([int(str(number.national_number)[:3])]))[0]
            own = rows.get(f"US-{state}")
            return [rows["US"], own] if own else [rows["US"]] if state else [rows["US"],
                                                                             *us_states]
        return [rows[region]] if region in rows else []

    def answer(text: str | None) -> tuple[bool, pd.Timestamp]:
        try:
            number = phonenumbers.parse(text if isinstance(text, str) else "")
        except phonenumbers.NumberParseException:
            return False, pd.NaT
        zones = [ZoneInfo(z) for z in phone_zones.time_zones_for_number(number)
                 if z != "Etc/Unknown"]
        if not zones:
            return False, pd.NaT
        law = laws(number)

        def ok(when: datetime) -> bool:
            return all(row.allows(when.astimezone(zone).replace(tzinfo=None))
                       for zone in zones for row in law)

        if ok(moment):
            return True, at
        candidates = sorted(when for zone in zones for day in range(15) for start in starts
                            if (when := datetime.combine((moment.astimezone(zone)
                                                          + timedelta(days=day)).date(),
                                                         start, tzinfo=zone)) > moment)
        found = next((when for when in candidates if ok(when)), None)
        return False, pd.NaT if found is None else pd.Timestamp(found).tz_convert("UTC")

    distinct = phones.drop_duplicates()
    answers = pd.DataFrame([answer(text) for text in distinct],
                           columns=["allowed", "next_allowed_at"], index=distinct.array)
    return answers.reindex(phones.array).reset_index(drop=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--numbers", type=int, default=1_000_000)
    parser.add_argument("--baseline", type=int, default=100_000,
                        help="numbers the baseline asks (it is the slow side)")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    phones = numbers(args.numbers)
    first = timed(lambda: next_allowed(phones, AT))
    warm = [timed(lambda: next_allowed(phones, AT)) for _ in range(args.runs)]
    sample = phones.iloc[:args.baseline]
    ours = next_allowed(sample, AT)
    base_runs = [timed_answer(lambda: baseline(sample, AT)) for _ in range(max(1, args.runs // 2))]
    base_times, theirs = [seconds for seconds, _ in base_runs], base_runs[-1][1]
    same = ((ours["allowed"] == theirs["allowed"].astype(bool))
            & ((ours["next_allowed_at"] == theirs["next_allowed_at"])
               | (ours["next_allowed_at"].isna() & theirs["next_allowed_at"].isna())))
    per_number = statistics.median(base_times) / len(sample)
    print(f"next_allowed, {len(phones):,} numbers ({phones.nunique():,} distinct): first "
          f"{first:.3f} s, warm median {statistics.median(warm):.3f} s "
          f"(min {min(warm):.3f}, max {max(warm):.3f})")
    print(f"baseline per distinct number, {len(sample):,} numbers: median "
          f"{statistics.median(base_times):.3f} s, so about {per_number * len(phones):.1f} s "
          f"for {len(phones):,}; ratio at the same size "
          f"{per_number * len(phones) / statistics.median(warm):.0f}x")
    print(f"answers agree on {same.mean():.2%} of the baseline's numbers")
    if not same.all():
        raise SystemExit(f"the answers differ on {(~same).sum()} numbers, e.g. "
                         f"{sample[~same].head(3).tolist()}")


if __name__ == "__main__":
    main()
