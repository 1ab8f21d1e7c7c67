"""``analytics.state_of`` over a million numbers, beside a pandas baseline.

Issue 48 (item 10): a number's US state or Canadian province, the whole column at a time.
The baseline is what a competent pandas user would write for the same answer: ask per
distinct number (``drop_duplicates``, then a function mapped over them) of ``phonenumbers``
(``parse``, ``region_code_for_number``, ``number_type``) and look the area code up in the
same tables. Both answers are compared on every number the baseline asked: they must agree.

The numbers are bench_when's: a US account's leads, every area code of the state table,
3% toll-free, 3% Canadian, 2% UK, 1% blank or unparseable, and repeats.

Run: ``.venv/bin/python benchmarks/bench_state_of.py [--numbers 1000000] [--baseline
100000] [--runs 5]``. Results go to ``benchmarks/RESULTS.md`` by hand, with the command.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
import pandas as pd
import phonenumbers

from bench_when import numbers
from dialkit._places._areas import area_provinces, area_states
from dialkit.analytics import state_of

GEOGRAPHIC = {phonenumbers.PhoneNumberType.FIXED_LINE, phonenumbers.PhoneNumberType.MOBILE,
              phonenumbers.PhoneNumberType.FIXED_LINE_OR_MOBILE}
TERRITORIES = {"PR", "VI", "GU", "MP", "AS"}


def baseline(phones: pd.Series) -> pd.Series:
    """Each number's state, province or territory, asked once per distinct number."""
    def one(text: str | None) -> str | None:
        try:
            number = phonenumbers.parse(text if isinstance(text, str) else "")
        except phonenumbers.NumberParseException:
            return None
        region = phonenumbers.region_code_for_number(number)
        if number.country_code != 1 or phonenumbers.number_type(number) not in GEOGRAPHIC:
            return None
        if region in TERRITORIES:
            return region
        table = {"US": area_states, "CA": area_provinces}.get(region)
        area = np.array([int(str(number.national_number)[:3])])
        return None if table is None else table(area)[0]

    distinct = phones.drop_duplicates()
    answers = dict(zip(distinct, map(one, distinct), strict=True))
    return phones.map(answers)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--numbers", type=int, default=1_000_000)
    parser.add_argument("--baseline", type=int, default=100_000,
                        help="numbers the baseline answers (it takes minutes for a million)")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    phones = numbers(args.numbers).astype("string[pyarrow]")
    cold, warm = [], []
    for _ in range(args.runs):
        column = pd.Series(phones.to_numpy(object), dtype="string[pyarrow]")  # new data:
        # nothing kept of an earlier ask (a deep copy shares Arrow's immutable buffers)
        began = time.perf_counter()
        found = state_of(column)
        cold.append(time.perf_counter() - began)
        began = time.perf_counter()
        state_of(column)
        warm.append(time.perf_counter() - began)
    print(f"state_of, {len(phones):,} numbers ({phones.nunique():,} distinct): first ask "
          f"median {statistics.median(cold):.3f} s, again {statistics.median(warm):.3f} s")
    sample = phones.head(args.baseline).astype(object)
    began = time.perf_counter()
    expected = baseline(sample)
    seconds = time.perf_counter() - began
    print(f"baseline per distinct number, {len(sample):,} numbers: {seconds:.3f} s "
          f"({seconds / len(sample) * len(phones):.1f} s per {len(phones):,} at that rate)")
    got = found.head(args.baseline).astype(object).where(found.head(args.baseline).notna(), None)
    same = (got.to_numpy() == expected.astype(object).where(expected.notna(), None).to_numpy())
    print(f"answers agree on {same.mean():.2%} of the baseline's numbers")
    if not same.all():
        raise SystemExit("the answers differ")


if __name__ == "__main__":
    main()
