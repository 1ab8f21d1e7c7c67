"""Phone normalisation: ``dialkit.leads.normalize`` against the naive ``Series.map``.

The issue's target is a vectorised fast path at 500,000 rows per second and at
least 50 times the naive map over ``phonenumbers.parse`` + ``is_valid_number``
+ ``format_number``, agreeing on every row. This measures where the current
path (clean and parse each distinct value once, through ``phonenumbers``)
stands, in the same run as the naive map, on a generated column of mixed
formats and regions (a quarter outside NANP, a share of repeats as in real
lead files), and checks that both give the same E.164 on every row whose
cell needs no cleaning.

Usage::

    python benchmarks/bench_normalize.py --rows 100000 --runs 3
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
import pandas as pd
import phonenumbers

from dialkit.leads import normalize

_STYLES = (phonenumbers.PhoneNumberFormat.NATIONAL, phonenumbers.PhoneNumberFormat.INTERNATIONAL,
           phonenumbers.PhoneNumberFormat.E164)
_OTHERS = ("GB", "DE", "FR", "IN", "AU", "BR", "MX", "JP")


def column(rows: int, seed: int = 7) -> pd.Series:
    """``rows`` phone cells: US numbers in three styles, a quarter from eight other
    regions written internationally, one in ten a repeat of an earlier cell."""
    rng = np.random.default_rng(seed)
    cells = []
    for n in range(rows):
        if n and rng.random() < 0.1:
            cells.append(cells[int(rng.integers(0, n))])
            continue
        if rng.random() < 0.25:
            region = _OTHERS[int(rng.integers(0, len(_OTHERS)))]
            example = phonenumbers.example_number_for_type(region,
                                                           phonenumbers.PhoneNumberType.MOBILE)
            assert example is not None
            example.national_number += int(rng.integers(0, 50))
            cells.append(phonenumbers.format_number(
                example, phonenumbers.PhoneNumberFormat.INTERNATIONAL))
            continue
        national = int(rng.integers(2012000000, 9899999999))
        number = phonenumbers.PhoneNumber(country_code=1, national_number=national)
        cells.append(phonenumbers.format_number(number, _STYLES[int(rng.integers(0, 3))]))
    return pd.Series(cells, dtype=object)


def naive(cell: str) -> str | None:
    try:
        number = phonenumbers.parse(cell, "US")
    except phonenumbers.NumberParseException:
        return None
    if not phonenumbers.is_valid_number(number):
        return None
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)


def timed(function: object, cells: pd.Series) -> tuple[float, pd.Series]:
    began = time.perf_counter()
    result = function(cells)  # type: ignore[operator]
    return time.perf_counter() - began, result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    cells = column(options.rows)
    ours, theirs = [], []
    for _ in range(options.runs):
        seconds, expected = timed(lambda c: c.map(naive), cells)
        theirs.append(seconds)
        seconds, frame = timed(lambda c: normalize(c)["phone_e164"], cells)
        ours.append(seconds)
    got = frame.astype(object)
    agree = float(((got.isna() & expected.isna()) | (got == expected)).mean())
    naive_s, ours_s = statistics.median(theirs), statistics.median(ours)
    print(f"{options.rows:,} rows, median of {options.runs}: naive map {naive_s:.2f} s "
          f"({options.rows / naive_s:,.0f} rows/s); normalize {ours_s:.2f} s "
          f"({options.rows / ours_s:,.0f} rows/s); ratio {naive_s / ours_s:.2f}x; "
          f"same E.164 on {agree:.2%} of rows")


if __name__ == "__main__":
    main()
