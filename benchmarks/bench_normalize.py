"""Phone normalisation: ``dialkit.leads.normalize`` against the naive per-row ``phonenumbers`` path.

Issue 21's target: on 1,000,000 cells of the realistic mix (:mod:`leads_mix`: US
formats, 20 % international, extensions, Excel floats, exit codes, two numbers,
junk; each row with its country cell), at least 1,000,000 rows/s and at least 50x
the naive path, timed on the same cells in the same process, alternating.

The naive path, per cell: ``phonenumbers.parse(cell, row's country or "US")`` +
``is_valid_number`` + ``format_number(E164)``, in a list comprehension. Fair
because it is the library's documented recipe with each row's own region, what a
competent user writes for "E.164 or nothing", with no pandas overhead around it.

Agreement is counted on every row of every timing. Where the two differ by design,
``normalize`` repairs what ``phonenumbers.parse`` reads otherwise, and says so in
its flags: ``excel_float`` (``4155550123.0``: the naive parse keeps the ``0`` as a
digit), ``international_prefix`` (``00 44 …`` in a US row: ``011`` is the US exit
code), ``two_numbers`` (the naive parse refuses the cell as too long or reads both),
``added_plus`` (E.164 digits without ``+``), ``not_a_phone`` (a date the naive
parse may take for a number). Each differing row is counted under the first of
its flags on that list; a difference with none of them is counted as
``unexplained`` (a fault) and its first cells are printed.

``--profile`` runs ``normalize`` once more with its fast and slow parts timed
apart (through its private modules; skipped with a note if they changed): the
share of rows that reach ``phonenumbers``, by kind of cell, and the CPU seconds
spent there.

Usage::

    python benchmarks/bench_normalize.py --rows 1000000 --runs 3 [--profile]
"""

from __future__ import annotations

import argparse
import gc
import resource
import statistics
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import phonenumbers
import pyarrow as pa

from dialkit._arrays._bools import arrow_bools
from dialkit.leads import normalize
from leads_mix import mix

BY_DESIGN = ("excel_float", "international_prefix", "two_numbers", "added_plus", "not_a_phone",
             "extension", "over_15_digits")
"""Flags under which ``normalize`` may differ from the naive path, in the order counted."""
_E164 = phonenumbers.PhoneNumberFormat.E164


def naive(cell: Any, region: str) -> str | None:
    """E.164 of ``cell`` read in ``region``, or ``None``: parse, is_valid, format."""
    if not isinstance(cell, str):
        return None
    try:
        number = phonenumbers.parse(cell, region)
    except phonenumbers.NumberParseException:
        return None
    return phonenumbers.format_number(number, _E164) if phonenumbers.is_valid_number(number) \
        else None


def naive_column(frame: pd.DataFrame) -> pd.Series:
    """The naive path over every row, each with its own region (blank: ``US``)."""
    return pd.Series([naive(cell, region or "US") for cell, region in
                      zip(frame["phone"].tolist(), frame["country"].tolist(), strict=True)],
                     index=frame.index, dtype=object)


def ours(frame: pd.DataFrame) -> pd.DataFrame:
    return normalize(frame["phone"], country=frame["country"])


def timed(function: Callable[[pd.DataFrame], Any], frame: pd.DataFrame) -> tuple[float, float, Any]:
    """Wall and CPU seconds (all threads) of ``function(frame)``, and its result."""
    gc.collect()
    began, cpu = time.perf_counter(), time.process_time()
    result = function(frame)
    return time.perf_counter() - began, time.process_time() - cpu, result


def differences(found: pd.DataFrame, expected: pd.Series) -> tuple[int, pd.Series]:
    """Rows whose E.164 agrees, and each differing row's category (:data:`BY_DESIGN`)."""
    got = found["phone_e164"].astype(object).where(found["phone_e164"].notna(), None)
    same = (got.isna() & expected.isna()) | (got == expected)
    flags = found["flags"].fillna("")[~same]
    category = pd.Series("unexplained", index=flags.index, dtype=object)
    for flag in reversed(BY_DESIGN):
        category[flags.str.contains(flag, regex=False)] = flag
    return int(same.sum()), category


def report_differences(frame: pd.DataFrame, found: pd.DataFrame, expected: pd.Series) -> None:
    same, category = differences(found, expected)
    print(f"same E.164 (or none) on {same:,} of {len(frame):,} rows ({same / len(frame):.2%}); "
          f"{len(category):,} differ:")
    ours_valid = found["phone_e164"].notna()[category.index]
    theirs_valid = expected.notna()[category.index]
    for name, rows in category.groupby(category):
        kinds = Counter(frame["kind"][rows.index])
        print(f"  {name}: {len(rows):,} rows ({len(rows) / len(frame):.2%}); normalize valid on "
              f"{int(ours_valid[rows.index].sum()):,}, naive on "
              f"{int(theirs_valid[rows.index].sum()):,}; kinds {dict(kinds.most_common())}")
        if name == "unexplained":
            for row in rows.index[:10]:
                print(f"    {frame['phone'][row]!r} ({frame['country'][row] or 'US'}): "
                      f"normalize {found['phone_e164'][row]}, naive {expected[row]}")
    print(f"valid: normalize {found['phone_e164'].notna().mean():.2%}, naive "
          f"{expected.notna().mean():.2%}")


def profile(frame: pd.DataFrame) -> None:
    """Which rows reach ``phonenumbers`` (the slow path) and the CPU seconds spent there,
    per kind of cell, through ``normalize``'s private modules."""
    try:
        from dialkit.leads._normalize import _columns as _normalize
        from dialkit.leads._normalize import _fast, _rewrite  # noqa: PLC0415

        texts = _normalize._texts(frame["phone"])
        where, names, _ = _normalize._row_regions(frame["country"], "US", frame.index)
        cpu = time.process_time()
        done = _fast.verdicts(texts, where, names).done
        fast_cpu = time.process_time() - cpu
        kinds = frame["kind"].to_numpy()
        plain = _fast._scan(texts)[1]
        cpu = time.process_time()
        rewritten = _rewrite.rewrite(texts, np.flatnonzero(~plain & arrow_bools(
            texts.is_valid()))).rows
        print(f"profile: fast path {fast_cpu:.2f} CPU s for all {len(frame):,} rows (threads "
              f"added up), the column-wise rewrite in it {time.process_time() - cpu:.2f} CPU s: "
              f"{len(rewritten):,} rows rewritten, "
              f"{dict(Counter(kinds[rewritten]).most_common())}")
        slow = ~done
        print(f"{int(slow.sum()):,} rows ({slow.mean():.2%}) reach phonenumbers:")
        total = 0.0
        for kind in frame["kind"].value_counts().index:
            rows = np.flatnonzero(slow & (kinds == kind))
            cells = texts.take(rows).to_pylist()
            regions = [names[w] for w in where[rows].tolist()]
            cpu = time.process_time()
            _normalize._slow(cells, regions)
            spent = time.process_time() - cpu
            total += spent
            print(f"  {kind}: {len(rows):,} of {int((kinds == kind).sum()):,} rows slow "
                  f"({len(set(zip(cells, regions, strict=True))):,} distinct), {spent:.2f} CPU s"
                  + (f", {len(set(cells)) / spent:,.0f} distinct cells per CPU s" if spent else ""))
        print(f"  slow path in all: {total:.2f} CPU s (each kind parsed apart: distinct cells "
              "shared between kinds counted twice)")
    except (AttributeError, ImportError, TypeError) as changed:
        print(f"profile skipped: normalize's private modules changed ({changed!r})")


def tricks(frame: pd.DataFrame, rounds: int) -> None:
    """Each speed trick of the phone code against its plain setting (issue 49, item 4), in
    this process, the settings in turn round after round: CPU (all threads) and wall
    seconds of ``normalize`` on the mix, and of the zones of its distinct valid numbers
    (``_phones._zones``, not kept between calls), medians and each setting's ratio to
    the code as shipped. Through private modules: skipped with a note if they changed."""
    from dialkit._phones import _zones  # noqa: PLC0415
    from dialkit._utils import _tuning  # noqa: PLC0415

    never = 1 << 40
    settings: dict[str, list[tuple[Any, str, Any]]] = {
        "as shipped": [],
        "LEADING_BYTES 0 (by region alone)": [(_tuning, "LEADING_BYTES", 0)],
        "PHONE_PART_ROWS off (a part a thread)": [(_tuning, "PHONE_PART_ROWS", never)],
        "PHONE_THREAD_ROWS off (no threads)": [(_tuning, "PHONE_THREAD_ROWS", never)],
        "PHONE_SMALL_MATCH 0 (RE2 always)": [(_tuning, "PHONE_SMALL_MATCH", 0)],
        "ZONE_PART_TEXTS off (zones: one part)": [(_tuning, "ZONE_PART_TEXTS", never)],
    }
    numbers = ours(frame)["phone_e164"].dropna().unique()
    texts = pa.array(numbers.to_numpy(dtype=object), pa.string())
    _zones._zone_sets(texts)  # a warm-up: the metadata's patterns and tables, built once
    taken: dict[str, dict[str, list[float]]] = {name: {} for name in settings}
    for _ in range(rounds):
        for name, patches in settings.items():
            kept = [(module, attr, getattr(module, attr)) for module, attr, _ in patches]
            for module, attr, value in patches:
                setattr(module, attr, value)
            try:
                for what, work in (("normalize", lambda: ours(frame)),
                                   ("zones", lambda: _zones._zone_sets(texts))):
                    gc.collect()
                    wall, cpu = time.perf_counter(), time.process_time()
                    work()
                    seconds = taken[name].setdefault(f"{what} cpu", [])
                    seconds.append(time.process_time() - cpu)
                    taken[name].setdefault(f"{what} wall", []).append(time.perf_counter() - wall)
            finally:
                for module, attr, value in kept:
                    setattr(module, attr, value)
    print(f"tricks: {len(frame):,} rows, {len(texts):,} distinct valid numbers for the zones, "
          f"medians of {rounds} rounds (settings in turn), seconds and ratio to as shipped:")
    shipped = {key: statistics.median(values) for key, values in taken["as shipped"].items()}
    for name, figures in taken.items():
        row = ", ".join(f"{key} {statistics.median(values):.3f} "
                        f"({statistics.median(values) / shipped[key]:.2f}x)"
                        for key, values in figures.items())
        print(f"  {name}: {row}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=5,
                        help="times normalize is timed per run (the naive path: once)")
    parser.add_argument("--profile", action="store_true",
                        help="time normalize's fast and slow parts apart, by kind of cell")
    parser.add_argument("--tricks", type=int, default=0, metavar="ROUNDS",
                        help="first time each speed trick against its plain setting, ROUNDS "
                             "rounds")
    options = parser.parse_args()
    frame = mix(options.rows)
    print(f"{options.rows:,} rows of the mix, {frame['phone'].nunique():,} distinct cells; "
          f"kinds {frame['kind'].value_counts(normalize=True).round(4).to_dict()}")
    if options.tricks:
        tricks(frame, options.tricks)
    naive_wall, naive_cpu, our_wall, our_cpu, agreed = [], [], [], [], []
    expected = found = None
    for run in range(options.runs):
        seconds, cpu, expected = timed(naive_column, frame)
        naive_wall.append(seconds)
        naive_cpu.append(cpu)
        times = []
        for _ in range(options.repeats):
            seconds, cpu, found = timed(ours, frame)
            times.append(seconds)
            our_cpu.append(cpu)
            agreed.append(differences(found, expected)[0])
        our_wall += times
        print(f"run {run + 1}: naive {naive_wall[-1]:.2f} s, normalize "
              f"{', '.join(f'{t:.3f}' for t in times)} s (median {statistics.median(times):.3f}), "
              f"ratio {naive_wall[-1] / statistics.median(times):.1f}x, same E.164 on "
              f"{min(agreed[-options.repeats:]):,} rows", flush=True)
    assert expected is not None and found is not None
    naive_s, ours_s = statistics.median(naive_wall), statistics.median(our_wall)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"medians: naive {naive_s:.2f} s ({options.rows / naive_s:,.0f} rows/s, "
          f"{options.runs} runs); normalize {ours_s:.3f} s ({options.rows / ours_s:,.0f} rows/s, "
          f"{len(our_wall)} timings); ratio {naive_s / ours_s:.1f}x (targets >= 1,000,000 rows/s, "
          f">= 50x); peak RSS {peak:,.0f} MiB")
    cpu_naive, cpu_ours = statistics.median(naive_cpu), statistics.median(our_cpu)
    print(f"CPU seconds (all threads), medians: naive {cpu_naive:.2f}, normalize {cpu_ours:.3f}; "
          f"ratio {cpu_naive / cpu_ours:.1f}x")
    report_differences(frame, found, expected)
    if options.profile:
        profile(frame)


if __name__ == "__main__":
    main()
