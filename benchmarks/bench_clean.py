"""The whole offline ``dialkit leads clean`` of a 1,000,000-row CSV: time and peak memory.

The lead-files issue's target: reading, normalising, validating and writing a
generated 1,000,000-row file of mixed formats and regions (at least 20%
outside NANP) in under 8 s, with peak memory under 3x the loaded frame. Each
run is a fresh process running the command as a user would
(``dialkit leads clean FILE --out OUT.csv``); beside it, in the same run and
alternating, the floor a user would otherwise start from: pandas reading the
file as text and writing it back (``pd.read_csv(dtype=str)`` + ``to_csv``),
which validates nothing. Peak memory is the rise of the process's ``VmHWM``
above its value after the imports, against the loaded frame's own size
(``read(FILE).frame.memory_usage(deep=True)``).

Run: ``.venv/bin/python benchmarks/bench_clean.py [--rows 1000000] [--runs 3]``.
Results go to ``benchmarks/RESULTS.md`` by hand, with the command.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import numpy as np
import pandas as pd
import phonenumbers

OTHERS = ("GB", "DE", "FR", "IN", "AU", "BR", "MX", "JP", "ES", "IT")
AREAS = np.array([212, 312, 415, 512, 617, 702, 813, 919, 206, 303])

RUN = textwrap.dedent("""
    import json, resource, sys, time
    def high_water():
        for line in open("/proc/self/status"):
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    SIDE, SOURCE, OUT = sys.argv[1:4]
    if SIDE == "dialkit":
        from dialkit.cli import app
        import dialkit.leads, pyarrow.csv, phonenumbers
    else:
        import pandas as pd
    base = high_water()
    began = time.perf_counter()
    if SIDE == "dialkit":
        try:
            app(["leads", "clean", SOURCE, "--out", OUT])
        except SystemExit as done:
            assert not done.code, done.code
    else:
        pd.read_csv(SOURCE, dtype=str, keep_default_na=False).to_csv(OUT, index=False)
    seconds = time.perf_counter() - began
    print(json.dumps({"seconds": seconds, "rise": high_water() - base}), file=sys.stderr)
""")


def generate(rows: int, path: Path, seed: int = 11) -> None:
    """A lead file: a quarter of the numbers from ten non-NANP regions written
    internationally, the rest US numbers in five national and international styles;
    one in ten a repeat; names, emails, ids and a source column."""
    rng = np.random.default_rng(seed)
    digits = pd.Series(rng.choice(AREAS, rows).astype(str)) + pd.Series(
        rng.integers(200, 1000, rows).astype(str)) + pd.Series(
        rng.integers(0, 10_000, rows).astype(str)).str.zfill(4)
    styles = rng.integers(0, 5, rows)
    us = np.select([styles == 0, styles == 1, styles == 2, styles == 3],
                   ["(" + digits.str[:3] + ") " + digits.str[3:6] + "-" + digits.str[6:],
                    digits.str[:3] + "-" + digits.str[3:6] + "-" + digits.str[6:],
                    "+1" + digits, digits.str[:3] + "." + digits.str[3:6] + "." + digits.str[6:]],
                   "1 " + digits)
    examples = []
    for region in OTHERS:
        for kind in (phonenumbers.PhoneNumberType.MOBILE, phonenumbers.PhoneNumberType.FIXED_LINE):
            number = phonenumbers.example_number_for_type(region, kind)
            assert number is not None
            examples.append((f"+{number.country_code} ", str(number.national_number)))
    pick = rng.integers(0, len(examples), rows)
    prefix = np.array([e[0] for e in examples])[pick]
    national = np.array([e[1][:-4] for e in examples])[pick]
    tails = pd.Series(rng.integers(0, 10_000, rows).astype(str)).str.zfill(4)
    international = pd.Series(prefix) + pd.Series(national) + tails
    phone = pd.Series(np.where(rng.random(rows) < 0.25, international, us))
    repeats = rng.random(rows) < 0.1
    phone[repeats] = phone.sample(int(repeats.sum()), random_state=seed, replace=True).to_numpy()
    first = rng.choice(["Ada", "Grace", "Alan", "Zoë", "José", "Chloé"], rows)
    last = rng.choice(["Lovelace", "Hopper", "Turing", "Müller", "García"], rows)
    ids = "L" + pd.Series(np.arange(rows).astype(str))
    email = (pd.Series(first).str.lower() + "." + pd.Series(last).str.lower() + ids
             + "@example.com")
    pd.DataFrame({"Lead ID": ids, "First Name": first, "Last Name": last, "Email": email,
                  "Phone": phone, "Source": rng.choice(["web", "partner", "event"], rows)}
                 ).to_csv(path, index=False)


def run(side: str, source: Path, out: Path) -> dict[str, float]:
    done = subprocess.run([sys.executable, "-c", RUN, side, str(source), str(out)],
                          capture_output=True, text=True, check=True)
    measured: dict[str, float] = json.loads(done.stderr.strip().splitlines()[-1])
    return measured


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    source = folder / "leads.csv"
    generate(options.rows, source)
    from dialkit.leads import read  # noqa: PLC0415 (after the file is written)

    loaded = int(read(source).frame.memory_usage(deep=True).sum())
    runs: dict[str, list[dict[str, float]]] = {"dialkit": [], "pandas": []}
    for _ in range(options.runs):
        for side in runs:
            runs[side].append(run(side, source, folder / f"{side}.csv"))
            print(side, runs[side][-1], flush=True)
    cleaned = pd.read_csv(folder / "dialkit.csv", dtype=str, usecols=["status"])
    print(f"\n{options.rows:,} rows, {source.stat().st_size / 2**20:.1f} MiB on disk, loaded "
          f"frame {loaded / 2**20:.1f} MiB; {(cleaned['status'] == 'accepted').mean():.1%} "
          "accepted; targets < 8 s and a peak rise < 3x the loaded frame")
    print("| side | median time | median peak rise | rise / loaded frame | runs (s) |")
    print("|---|---|---|---|---|")
    for side, measured in runs.items():
        seconds = statistics.median(m["seconds"] for m in measured)
        rise = statistics.median(m["rise"] for m in measured)
        shown = ", ".join(f"{m['seconds']:.2f}" for m in measured)
        print(f"| {side} | {seconds:.2f} s | {rise / 2**20:.0f} MiB | {rise / loaded:.2f}x | "
              f"{shown} |")


if __name__ == "__main__":
    main()
