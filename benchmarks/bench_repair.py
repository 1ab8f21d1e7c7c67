"""``compliance.repair``'s plan of 10,000 findings, beside a per-finding loop.

Issue 50's target: ``repair`` plans 10,000 of ``upcoming``'s findings in under 1 s (the
plan only: carrying it out is one HTTP request an action). The findings are pending
callbacks at moments the law forbids (due within a week, at 21:00-07:59 or on a
Sunday on the recipient's clock, so most are forbidden), to the numbers of
``bench_when`` (every state's area codes, toll-free, Canadian, UK and unplaceable
ones), 2% of them to a number on the DNC list (found ``dnc_call``). The DNC results are
given (``frames={"dnc": ...}``), as a caller that loaded them passes them; no client.

The baseline is the loop a pandas user would write with dialkit's public API: per
finding, cancel where the number is listed, else ``next_allowed(phone, at)`` for the
new moment. Both plans are compared on every finding the baseline planned: they must
agree. ``--strategy best`` plans with ``prefer=`` a rate table (every hour of the week,
the evenings answered more) and has no baseline.

Run: ``.venv/bin/python benchmarks/bench_repair.py [--findings 10000] [--baseline 300]
[--runs 5] [--strategy next_allowed]``. Results go to ``benchmarks/RESULTS.md`` by hand,
with the command.
"""

from __future__ import annotations

import argparse
import statistics

import numpy as np
import pandas as pd

from _timing import timed, timed_answer
from bench_when import numbers
from dialkit.compliance import next_allowed, repair

AS_OF = pd.Timestamp("2026-11-16T12:00:00Z")  # a Monday


def findings(count: int, seed: int = 50) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``upcoming``'s answer of ``count`` late callbacks, and the DNC results of their
    numbers (module docstring)."""
    rng = np.random.default_rng(seed)
    phones = numbers(count, seed).astype(object)
    at = AS_OF + pd.to_timedelta(rng.integers(0, 7 * 24 * 60, count), unit="min")
    listed = rng.random(count) < 0.02
    found = pd.DataFrame({
        "rule": np.where(listed, "dnc_call", "calling_hours"), "kind": "callback",
        "call_id": [f"cb_{n:08d}" for n in range(count)],
        "lead_id": [f"lead_{n:08d}" for n in range(count)], "phone": phones, "at": at,
        "evidence": "due late", "due_in": at - AS_OF})
    dnc = pd.DataFrame({"phone": phones, "listed": listed}).drop_duplicates("phone")
    return found, dnc


def baseline(found: pd.DataFrame, dnc: pd.DataFrame) -> pd.DataFrame:
    """Per finding: cancel a listed number's callback, else move it to ``next_allowed``."""
    listed = set(dnc.loc[dnc["listed"], "phone"])
    rows = []
    for row in found.itertuples():
        if row.phone in listed or row.rule == "dnc_call":
            rows.append(("cancel", pd.NaT))
            continue
        new_at = next_allowed(row.phone, row.at)["next_allowed_at"].iloc[0]
        rows.append(("leave", pd.NaT) if pd.isna(new_at) else ("reschedule", new_at))
    return pd.DataFrame(rows, columns=["action", "new_at"], index=found["call_id"])


def rates() -> pd.DataFrame:
    """Every hour of the week, 100 calls; the evenings (17:00-19:59) answered more."""
    rows = [(day, hour, 100, 45 if 17 <= hour < 20 else 20)
            for day in ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun") for hour in range(24)]
    return pd.DataFrame(rows, columns=["weekday", "local_hour", "calls", "answered"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--findings", type=int, default=10_000)
    parser.add_argument("--baseline", type=int, default=300,
                        help="findings the baseline plans (it is the slow side)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--strategy", choices=["next_allowed", "best"], default="next_allowed")
    args = parser.parse_args()
    found, dnc = findings(args.findings)
    options = {"frames": {"dnc": dnc}, "strategy": args.strategy,
               "prefer": rates() if args.strategy == "best" else None}
    first = timed(lambda: repair(found, None, **options))  # type: ignore[arg-type]
    warm = [timed(lambda: repair(found, None, **options))  # type: ignore[arg-type]
            for _ in range(args.runs)]
    plan = repair(found, None, **options)  # type: ignore[arg-type]
    print(f"repair ({args.strategy}), {len(found):,} findings "
          f"({found['phone'].nunique():,} numbers): first {first:.3f} s, warm median "
          f"{statistics.median(warm):.3f} s (min {min(warm):.3f}, max {max(warm):.3f}); "
          f"{plan['action'].value_counts().to_dict()}")
    if args.strategy == "best":
        moved = plan[plan["action"] == "reschedule"]
        print(f"expected answer rate of the moved callbacks: median "
              f"{moved['expected_rate'].median():.3f}")
        return
    sample = found.iloc[:args.baseline]
    base, theirs = timed_answer(lambda: baseline(sample, dnc))
    ours = plan.set_index("callback_id").loc[theirs.index]
    same = (ours["action"].astype(str) == theirs["action"]) & (
        (ours["new_at"] == theirs["new_at"]) | (ours["new_at"].isna()
                                                & theirs["new_at"].isna()))
    per_finding = base / len(sample)
    print(f"baseline, a next_allowed per finding, {len(sample):,} findings: {base:.3f} s, "
          f"so about {per_finding * len(found):.1f} s for {len(found):,}; ratio at the "
          f"same size {per_finding * len(found) / statistics.median(warm):.0f}x")
    print(f"plans agree on {same.mean():.2%} of the baseline's findings")
    if not same.all():
        raise SystemExit(f"the plans differ on {(~same).sum()} findings, e.g. "
                         f"{list(sample['call_id'][~same.to_numpy()].head(3))}")


if __name__ == "__main__":
    main()
