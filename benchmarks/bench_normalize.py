"""Phone normalisation: ``dialkit.leads.normalize`` against the naive ``Series.map``.

The issue's target: a generated column of 1,000,000 cells of mixed formats and
regions (at least a fifth outside NANP) normalised at 500,000 rows per second
or more, at least 50 times the naive map over ``phonenumbers.parse(cell, "US")``
+ ``is_valid_number`` + ``format_number(E164)``, and the same E.164 (or none)
on every row. Both run on the same column in the same process, alternating,
and each run checks every row.

The column: NANP numbers (``(415) 555-0123``, ``415-555-0123``, ``415.555.0123``,
``+1 415-555-0123``, ``+14155550123``, ``1 415 555 0123``, bare digits), some
of them invalid (an exchange or area code no plan has); numbers of fifteen
other regions written with ``+`` or with the US exit code ``011``, their last
digits varied; and a share of repeats, as lead files have. No ``00`` prefix nor
a ``+`` left off: ``normalize`` reads those as international in a US file by
design (flags ``international_prefix``, ``added_plus``), where the naive parse
does not, so they could not agree.

Usage::

    python benchmarks/bench_normalize.py --rows 1000000 --runs 3
"""

from __future__ import annotations

import argparse
import gc
import resource
import statistics
import time
from collections.abc import Callable

import numpy as np
import pandas as pd
import phonenumbers

from dialkit.leads import normalize

OTHERS = ("GB", "DE", "FR", "IN", "AU", "BR", "MX", "JP", "IT", "ES", "NL", "PH", "ZA", "SG",
          "NG")
"""Regions outside NANP, written internationally."""
OUTSIDE_NANP = 0.25
REPEATS = 0.15
_TYPES = (phonenumbers.PhoneNumberType.MOBILE, phonenumbers.PhoneNumberType.FIXED_LINE)
_NANP_STYLES = ("({a}) {b}-{c}", "{a}-{b}-{c}", "{a}.{b}.{c}", "+1 {a}-{b}-{c}", "+1{a}{b}{c}",
                "1 {a} {b} {c}", "{a}{b}{c}", "011 1 {a} {b} {c}")


def column(rows: int, seed: int = 7) -> pd.Series:
    """``rows`` phone cells: three quarters NANP, a quarter from fifteen other regions, a
    share of them repeats of earlier cells."""
    rng = np.random.default_rng(seed)
    kinds = rng.random(rows)
    cells = np.empty(rows, dtype=object)
    others = np.flatnonzero(kinds < OUTSIDE_NANP)
    nanp = np.flatnonzero(kinds >= OUTSIDE_NANP)
    cells[others] = _international(rng, len(others))
    cells[nanp] = _nanp(rng, len(nanp))
    repeat = np.flatnonzero(rng.random(rows) < REPEATS)
    repeat = repeat[repeat > 0]
    cells[repeat] = cells[(rng.random(len(repeat)) * repeat).astype(np.int64)]
    return pd.Series(cells, dtype=object)


def _nanp(rng: np.random.Generator, count: int) -> list[str]:
    """NANP numbers: real area codes and exchanges, one in twenty an unassigned one."""
    areas = _nanp_prefixes()
    picked = areas[rng.integers(0, len(areas), count)]
    wrong = rng.random(count) < 0.05
    picked[wrong] = rng.integers(200_000, 999_999, int(wrong.sum()))
    lines = rng.integers(0, 10_000, count)
    styles = rng.integers(0, len(_NANP_STYLES), count)
    return [_NANP_STYLES[s].format(a=p // 1000, b=p % 1000, c=f"{line:04d}")
            for p, line, s in zip(picked.tolist(), lines.tolist(), styles.tolist(), strict=True)]


def _nanp_prefixes() -> np.ndarray:
    """Area code and exchange pairs valid in ``phonenumbers`` (with line 0123)."""
    rng = np.random.default_rng(1)
    found = []
    for prefix in rng.integers(200_000, 999_999, 40_000).tolist():
        number = phonenumbers.PhoneNumber(country_code=1, national_number=prefix * 10_000 + 123)
        if phonenumbers.is_valid_number(number):
            found.append(prefix)
    return np.array(found, dtype=np.int64)


def _international(rng: np.random.Generator, count: int) -> list[str]:
    """Example numbers of ``OTHERS`` with their last four digits varied, written with ``+``
    (international or E.164 format) or the US exit code ``011``."""
    examples = [e for r in OTHERS for t in _TYPES
                if (e := phonenumbers.example_number_for_type(r, t)) is not None]
    cells = []
    for which, line, style in zip(rng.integers(0, len(examples), count).tolist(),
                                  rng.integers(0, 10_000, count).tolist(),
                                  rng.integers(0, 3, count).tolist(), strict=True):
        example = examples[which]
        number = phonenumbers.PhoneNumber(
            country_code=example.country_code,
            national_number=example.national_number // 10_000 * 10_000 + line)
        text = phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.INTERNATIONAL)
        cells.append(text.replace(" ", "") if style == 1 else
                     "011 " + text[1:] if style == 2 else text)
    return cells


def naive(cell: str) -> str | None:
    try:
        number = phonenumbers.parse(cell, "US")
    except phonenumbers.NumberParseException:
        return None
    if not phonenumbers.is_valid_number(number):
        return None
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)


def timed(function: Callable[[pd.Series], pd.Series], cells: pd.Series) -> tuple[float, pd.Series]:
    """Wall seconds of ``function(cells)``; its CPU seconds (all threads) go to ``CPU``."""
    began, cpu = time.perf_counter(), time.process_time()
    result = function(cells)
    CPU.append(time.process_time() - cpu)
    return time.perf_counter() - began, result


CPU: list[float] = []


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=5,
                        help="times normalize is timed per run (the naive map: once)")
    options = parser.parse_args()
    cells = column(options.rows)
    outside = cells.str.match(r"^(?:\+|011 )[2-9]").mean()
    print(f"{options.rows:,} rows, {cells.nunique():,} distinct, {outside:.1%} outside NANP")
    ours, theirs, agreed, ours_cpu, naive_cpu = [], [], [], [], []
    for run in range(options.runs):
        gc.collect()
        naive_s, expected = timed(lambda c: c.map(naive), cells)
        naive_cpu.append(CPU.pop())
        times = []
        for _ in range(options.repeats):
            gc.collect()
            seconds, frame = timed(lambda c: normalize(c)["phone_e164"], cells)
            got = frame.astype(object).where(frame.notna(), None)
            agreed.append(int(((got.isna() & expected.isna()) | (got == expected)).sum()))
            times.append(seconds)
            ours_cpu.append(CPU.pop())
        theirs.append(naive_s)
        ours += times
        print(f"run {run + 1}: naive map {naive_s:.2f} s, normalize "
              f"{', '.join(f'{t:.3f}' for t in times)} s (median {statistics.median(times):.3f}), "
              f"ratio {naive_s / statistics.median(times):.1f}x, same E.164 on "
              f"{min(agreed[-options.repeats:]):,} of {len(cells):,} rows "
              f"({expected.notna().mean():.1%} valid)")
    naive_s, ours_s = statistics.median(theirs), statistics.median(ours)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"medians: naive map {naive_s:.2f} s ({options.rows / naive_s:,.0f} rows/s, "
          f"{options.runs} runs); normalize {ours_s:.3f} s ({options.rows / ours_s:,.0f} rows/s, "
          f"{len(ours)} timings); ratio {naive_s / ours_s:.1f}x; agreement "
          f"{min(agreed) / len(cells):.4%} (every timing); peak RSS {peak:,.0f} MiB")
    cpu_naive, cpu_ours = statistics.median(naive_cpu), statistics.median(ours_cpu)
    print(f"CPU seconds (all threads), medians: naive map {cpu_naive:.2f}, normalize "
          f"{cpu_ours:.3f}; ratio {cpu_naive / cpu_ours:.1f}x")


if __name__ == "__main__":
    main()
