"""The whole offline ``dialkit leads clean`` of a 1,000,000-row CSV of the mix: time, memory.

Issue 64's measure: the clean against the floor a clean cannot beat, pyarrow reading
the same file and writing it back as CSV (``pyarrow.csv.read_csv`` + ``write_csv``,
which checks nothing), side by side: each run a fresh process of each, in turn, timed
from outside; the medians' ratios, CPU and wall, against issue 64's targets (at most
3x the floor's CPU and 3x its wall). Beside them, the floor issue 64's own words
describe, "reading the file, normalising each distinct number once, and writing the
result": pyarrow reads the file, each distinct pair of ``Phone`` and ``Country`` is
normalised once by ``dialkit.leads.normalize``, and the file is written with the
normalised columns beside its own; against it, what the clean's other checks, its
verdicts, hints and bookkeeping cost. Since issue 97 the floor makes the hints' readings
too, as a user would by ``normalize`` alone: each distinct text refused
``invalid_phone`` (where the file has a Country column, in a row whose cell is blank),
not written with ``+`` and as long as a full US number, normalised under each of the
file's ten commonest other regions but those of +1 (which read as the US does), the
first valid reading written beside as the row's hint. The clean's hints try the same
texts under the same regions (``no_country``: 74,838 texts under DE, MX, GB, IN, FR and
BR), and leave a text out of the next regions once two read it as two numbers (357,689
readings, where the floor makes 449,028). The lead CSV is of the realistic mix
(:mod:`leads_mix`: ids, names, emails, ``Phone``, ``Country``, ``Source``), or the file
``--file`` names (a 20,000,000-row file made by ``leads_mix.stream_leads``, say: it is
not read whole to weigh its frame then). Issue 21's targets are still shown: the whole
process under 4 s, imports included; peak memory under 2x the loaded frame; ``import
dialkit.leads`` under 0.5 s in a fresh process.

Each dialkit run is a fresh process doing what the ``dialkit`` console script does
(``from dialkit.cli import main``, then ``main()`` with ``sys.argv`` of ``dialkit leads
clean FILE --country-column Country --out OUT.csv``); the whole process is timed from
outside (start to exit), and inside it the imports (``dialkit.cli`` and the ``leads``
group's module, imported as the command imports it when it runs) apart from the work;
its CPU seconds (user and system, all threads, from ``wait4``) beside the wall time, as
the machine is shared.
Memory: the process's peak RSS (``VmHWM``, from ``wait4``) and its rise above the
value after the imports, each against the loaded frame
(``read(FILE).frame.memory_usage(deep=True)``). ``import dialkit.leads`` is timed in
fresh processes (median), and one ``python -X importtime`` run lists the packages that
take the most of it. ``--phases`` then cleans once more in the benchmark's process, on one
thread, with its parts (the line scan, normalising, the checks, the duplicates, the
hints, the writing) timed apart.

Issue 70's mixes (``--mix``, :data:`leads_mix.MIXES`): ``no_country``, a US file without
a Country column (60 % US numbers, the rest MX, BR, DE, GB, FR, IN written nationally
and internationally, 5 % junk, 3 % blank: the national foreign ones are refused and
hinted), cleaned without ``--country-column``, its floor normalising each distinct
``Phone`` once; ``iso_country``, the realistic mix with every Country cell an ISO code,
where ``--phases`` also times reading the Country cells (normalize's reading of each
row's country and the counts of the hints' regions and of the cells not understood)
against the rest of the clean. A ``--file`` is cleaned with ``--country-column
Country`` where its header has that column.

Issue 80's mixes: ``two_phones``, a file of ``Phone 1`` and ``Phone 2`` (the second empty
in 40 % of the rows), its floor normalising each distinct pair of each phone column once;
``country_names``, the Country cells written as names (``United States``, ``Deutschland``,
``UK``, ``भारत``, alpha-3 codes), its floor passing them to ``normalize`` as they are.

Run: ``.venv/bin/python benchmarks/bench_clean.py [--rows 1000000] [--runs 3]
[--mix leads|no_country|iso_country|two_phones|country_names] [--file LEADS.csv]``. Results go to
``benchmarks/RESULTS.md`` by hand, with the command.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from typing import Any

import pandas as pd

from leads_mix import MIXES, write_leads

RUN = textwrap.dedent("""
    import json, sys, time
    began = time.perf_counter()
    def high_water():
        for line in open("/proc/self/status"):
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    SIDE, SOURCE, OUT, COUNTRY, PHONES = sys.argv[1:6]
    if SIDE == "dialkit":
        from dialkit.cli import _imported, main
        _imported("dialkit.cli._leads")  # what the command imports when it runs, as it does
    else:
        import pyarrow.csv as pacsv
    if SIDE == "normalize":
        import os; os.environ["OPENBLAS_NUM_THREADS"] = "1"  # as the dialkit command has it
        import numpy as np, pandas as pd, phonenumbers, pyarrow as pa, pyarrow.compute as pc
        from dialkit.leads import normalize, region_of
        def hints(table, found, phones):
            # the refused rows' readings: each distinct text of the first phone column
            # refused invalid_phone (no other column valid; its Country blank), not written
            # with + (read alike everywhere) and as long as a full US number, normalised
            # under each of the file's ten commonest other regions but +1's (read as the
            # US reads); a text valid under one is hinted that number
            refused = (found[phones[0]]["reason"] == "invalid_phone").fillna(False).to_numpy(bool)
            for phone in phones[1:]:
                refused &= found[phone]["phone_e164"].isna().to_numpy()
            if COUNTRY:
                refused &= ~pc.utf8_length(pc.utf8_trim_whitespace(pc.fill_null(
                    table[COUNTRY], ""))).to_numpy().astype(bool)
            cells = table[phones[0]].combine_chunks()
            texts = pc.unique(cells.filter(pa.array(refused)))
            digits = pc.utf8_length(pc.replace_substring_regex(texts, r"\\D", ""))
            texts = texts.filter(pc.and_(pc.invert(pc.match_substring_regex(texts, r"^\\s*\\+")),
                                         pc.greater_equal(digits, 10)))
            if not len(texts):
                return pa.nulls(len(cells), pa.string())
            counts = pc.coalesce(*[pa.array(found[phone]["country"], pa.string()) for phone in
                                   phones]).to_pandas().value_counts()  # the chosen numbers'
            if COUNTRY:
                named = table[COUNTRY].to_pandas().value_counts()
                counts = counts.add(named.groupby([region_of(c) or "" for c in named.index])
                                    .sum(), fill_value=0)
            regions = [r for r in counts.sort_index().sort_values(ascending=False, kind="stable")
                       .index if r not in ("US", "")][:10]
            readings = [pa.array(normalize(pd.Series(pd.arrays.ArrowStringArray(texts)),
                                           region=r)["phone_e164"], pa.string())
                        for r in regions if phonenumbers.country_code_for_region(r) != 1]
            hint = pc.coalesce(*readings).take(pc.index_in(cells, value_set=texts))
            return pc.if_else(pa.array(refused), hint, None)
    imported = time.perf_counter()
    base = high_water()
    if SIDE == "dialkit":
        sys.argv = ["dialkit", "leads", "clean", SOURCE,
                    *(["--country-column", COUNTRY] if COUNTRY else []), "--out", OUT]
        try:
            main()  # as the console script runs it
        except SystemExit as done:
            assert not done.code, done.code
    elif SIDE == "pyarrow":
        pacsv.write_csv(pacsv.read_csv(SOURCE), OUT)
    else:  # each distinct (phone, Country), or phone, of each phone column normalised
        phones = PHONES.split(",")  # once, its columns beside; then the hints' readings
        table = pacsv.read_csv(SOURCE, convert_options=pacsv.ConvertOptions(column_types={
            **{phone: pa.string() for phone in phones},
            **({COUNTRY: pa.string()} if COUNTRY else {})}))
        found = {}
        for phone in phones:
            pairs = (pc.binary_join_element_wise(table[phone], pc.fill_null(table[COUNTRY], ""),
                                                 "\\x1f") if COUNTRY else table[phone])
            codes = pc.dictionary_encode(pairs).combine_chunks().indices.to_numpy()
            _, first = np.unique(codes, return_index=True)
            once = pa.array(first)
            numbers = normalize(pd.Series(pd.arrays.ArrowStringArray(table[phone].take(once))),
                                country=pd.Series(pd.arrays.ArrowStringArray(
                                    table[COUNTRY].take(once))) if COUNTRY else None).iloc[codes]
            found[phone] = numbers
            for name in numbers.columns:
                table = table.append_column(f"{phone} {name}", pa.array(numbers[name],
                                                                        pa.string()))
        table = table.append_column("hint", hints(table, found, phones))
        pacsv.write_csv(table, OUT)
    print(json.dumps({"imports": imported - began, "work": time.perf_counter() - imported,
                      "rise": high_water() - base}), file=sys.stderr)
""")
IMPORT = ("import time; began = time.perf_counter(); import dialkit.leads; "
          "print(time.perf_counter() - began)")
COMMAND_IMPORTS = "from dialkit.cli import app; import dialkit.cli._leads"
"""What ``dialkit leads clean`` imports before it reads the file (its group's module
and what that imports are loaded when the group runs)."""
TARGETS = {"whole": 4.0, "peak": 2.0, "import": 0.5, "floor": 3.0}
"""Issue 21's (whole process, peak against the frame, import) and issue 64's (the
clean's CPU and wall against the floor's)."""


def run(side: str, source: Path, out: Path, country: str | None,
        phones: tuple[str, ...] = ("Phone",)) -> dict[str, float]:
    """One fresh process: its whole time and peak RSS from outside, the rest from inside
    (``country``: the file's column of each row's country, if it has one; ``phones``: its
    phone columns, each normalised by the floor)."""
    began = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-c", RUN, side, str(source), str(out),
                              country or "", ",".join(phones)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    assert child.stderr is not None
    err = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    whole = time.perf_counter() - began
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode:
        raise SystemExit(f"{side} failed ({child.returncode}):\n{err}")
    measured: dict[str, float] = json.loads(err.strip().splitlines()[-1])
    return {**measured, "whole": whole, "cpu": usage.ru_utime + usage.ru_stime,
            "peak": usage.ru_maxrss * 1024}


def import_seconds(times: int) -> list[float]:
    """``import dialkit.leads`` in ``times`` fresh processes."""
    return [float(subprocess.run([sys.executable, "-c", IMPORT], capture_output=True, text=True,
                                 check=True).stdout) for _ in range(times)]


def import_profile(code: str, top: int = 8) -> list[tuple[float, str]]:
    """Where ``code`` spends its imports: each package entered from another package
    (``pandas`` from ``dialkit.leads._clean._campaign``, ``httpx`` from
    ``dialkit.client._http._transport``), by cumulative seconds, with its importer."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", code],
                          capture_output=True, text=True, check=True)
    lines = []  # (depth, name, cumulative seconds); a module's children come before it
    for line in done.stderr.splitlines():
        parts = line.removeprefix("import time:").split("|")
        if len(parts) == 3 and parts[1].strip().isdigit():
            name = parts[2].rstrip()
            lines.append(((len(name) - len(name.lstrip())) // 2, name.strip(),
                          int(parts[1]) / 1e6))
    found = []
    for at, (depth, name, seconds) in enumerate(lines):
        parent = next((n for d, n, _ in lines[at + 1:] if d < depth), "")
        if name.split(".")[0] != parent.split(".")[0]:
            found.append((seconds, f"{name} (from {parent or 'the command'})"))
    return sorted(found, reverse=True)[:top]


def phases(source: Path, out: Path, country: str | None) -> None:
    """One clean in this process on one thread (the clean's threads run their work in
    place, normalize's parts one after another), each part's CPU timed apart through
    the private modules of ``dialkit.leads`` (skipped with a note if they changed): on
    one thread a part's CPU is its own, where with threads each would count the others'.
    What no part names (pyarrow's parse of the file, making the frames, the clean's
    own bookkeeping) is the rest. With a ``country`` column, reading its cells (each
    row's region for normalize, the regions counted for the hints and the cells not
    understood, which cells are blank) is timed too, and said against the rest of the
    clean: issue 70's measure of what reading a Country column adds."""
    spent: dict[str, list[float]] = {}

    def timing(module: Any, name: str, label: str) -> None:
        function = getattr(module, name)
        counter = spent.setdefault(label, [0.0, 0])  # a label's functions counted together

        def timed(*args: Any, **kwargs: Any) -> Any:
            cpu = time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                counter[0] += time.process_time() - cpu
                counter[1] += 1
        setattr(module, name, timed)

    nested = {"hints": "region hints (normalising refused texts again), in the above",
              "changing": "whether region= would change a valid number, in the above",
              "country": "read the Country cells (each row's region, the regions counted, "
                         "the blank ones), in the above"}
    try:
        from dialkit._parallel import _threads
        from dialkit._utils import _tuning
        from dialkit.cli import app  # noqa: PLC0415
        from dialkit.leads._clean import (  # noqa: PLC0415
            _chunked,
            _duplicates,
            _hints,
            _sinks,
            _stream,
        )
        from dialkit.leads._normalize import _columns  # noqa: PLC0415
        from dialkit.leads._read import _chunks  # noqa: PLC0415

        _threads._inline = lambda: True  # type: ignore[attr-defined]  # noqa: SLF001
        _tuning.PHONE_THREAD_ROWS = 1 << 62
        for module, name, label in (
                (_chunks, "check_delimited", "scan the file's lines for the limits"),
                (_stream, "phone_numbers_of", "normalise each chunk's phone column"),
                (_stream, "judged_chunk", "the other checks, the keys, the spill"),
                (_duplicates.Keys, "owners", "the request's duplicates"),
                (_stream, "finished_chunk", "finish the verdicts and hints"),
                (_chunked, "region_hints", nested["hints"]),
                (_chunked, "changing_regions", nested["changing"]),
                (_sinks.CsvSink, "write", "escape formulas and write the CSV")):
            timing(module, name, label)
        for module, name in ((_columns, "_row_regions"), (_chunked, "region_counts"),
                             (_hints, "_blank")) if country else ():
            timing(module, name, nested["country"])
    except (AttributeError, ImportError) as changed:
        print(f"phases skipped: dialkit.leads' private modules changed ({changed!r})")
        return
    cpu = time.process_time()
    try:
        app(["leads", "clean", str(source), *(["--country-column", country] if country else []),
             "--out", str(out)])
    except SystemExit as done:
        assert not done.code, done.code
    total = time.process_time() - cpu
    print(f"\nparts of one clean in this process on one thread (imports done): {total:.2f} "
          "CPU s")
    for label, (cpu_s, calls) in spent.items():
        print(f"  {label}: {cpu_s:.2f} CPU s ({calls:.0f} calls)")
    named = sum(cpu_s for label, (cpu_s, _) in spent.items() if label not in nested.values())
    print(f"  the rest (reading the file into frames, the clean's bookkeeping): "
          f"{total - named:.2f} CPU s")
    if country:
        reading = spent[nested["country"]][0]
        print(f"reading the Country cells adds {reading / (total - reading):.1%} to the rest "
              f"of the clean ({reading:.2f} of {total:.2f} CPU s; target: at most 5 %)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--file", type=Path, help="clean this lead CSV instead of writing "
                        "one of --rows rows (its frame is not weighed)")
    parser.add_argument("--mix", choices=sorted(MIXES), default="leads",
                        help="the mix of the file written (leads_mix.MIXES)")
    parser.add_argument("--import-runs", type=int, default=2,
                        help="fresh processes timing import dialkit.leads, per run")
    parser.add_argument("--phases", action="store_true",
                        help="then clean once in this process on one thread, its parts timed apart")
    options = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    try:
        measure(options, folder)
    finally:
        shutil.rmtree(folder)


def measure(options: argparse.Namespace, folder: Path) -> None:
    """The runs, the tables and the profiles, on a file written in ``folder``."""
    source = options.file or folder / "leads.csv"
    loaded = None
    if options.file is None:
        write_leads(options.rows, source, mix_name=options.mix)
        from dialkit.leads import read  # noqa: PLC0415 (after the file is written)

        loaded = int(read(source).frame.memory_usage(deep=True).sum())
    with open(source, encoding="utf-8") as file:
        header = file.readline().rstrip("\r\n").split(",")
    country = "Country" if "Country" in header else None
    phones = tuple(name for name in header if name.startswith("Phone"))
    runs: dict[str, list[dict[str, float]]] = {"dialkit": [], "pyarrow": [], "normalize": []}
    load = [f"{os.getloadavg()[0]:.2f}"]
    imports = []
    for _ in range(options.runs):
        for side in runs:
            runs[side].append(run(side, source, folder / f"{side}.csv", country, phones))
            print(side, {k: round(v, 3) for k, v in runs[side][-1].items()}, flush=True)
        imports += import_seconds(options.import_runs)
    cleaned = pd.read_csv(folder / "dialkit.csv", dtype=str, usecols=["status"])
    weighed = "" if loaded is None else f", loaded frame {loaded / 2**20:.1f} MiB"
    mixed = f"the {options.mix} mix" if options.file is None else str(options.file)
    print(f"\n{mixed} ({'with' if country else 'without'} a country column): "
          f"{len(cleaned):,} rows, {source.stat().st_size / 2**20:.1f} MiB on disk{weighed}; "
          f"{(cleaned['status'] == 'accepted').mean():.1%} accepted; targets: whole process < "
          f"{TARGETS['whole']} s, peak < {TARGETS['peak']}x the loaded frame, CPU and wall "
          f"at most {TARGETS['floor']}x the pyarrow floor's")
    print(f"load average before the runs {load[0]}, after {os.getloadavg()[0]:.2f}")
    print("| side | whole process | CPU | imports | work | peak RSS (x frame) | rise after "
          "imports (x frame) | whole, runs (s) |")
    print("|---|---|---|---|---|---|---|---|")
    medians = {}
    for side, measured in runs.items():
        def median(key: str, measured: list[dict[str, float]] = measured) -> float:
            return statistics.median(m[key] for m in measured)

        def memory(key: str) -> str:
            shown = f"{median(key) / 2**20:.0f} MiB"
            return shown if loaded is None else f"{shown} ({median(key) / loaded:.2f}x)"
        medians[side] = {key: median(key) for key in ("whole", "cpu")}
        shown = ", ".join(f"{m['whole']:.2f}" for m in measured)
        print(f"| {side} | {median('whole'):.2f} s | {median('cpu'):.2f} s | "
              f"{median('imports'):.2f} s | {median('work'):.2f} s | {memory('peak')} | "
              f"{memory('rise')} | {shown} |")
    for side, floor, what in (
            ("dialkit", "pyarrow", f"targets: at most {TARGETS['floor']}x each"),
            ("normalize", "pyarrow", "issue 64's floor, the hints' readings in it"),
            ("dialkit", "normalize", "the clean against that floor: at most 1.5x each, issue 97")):
        ratios = {key: medians[side][key] / medians[floor][key] for key in ("cpu", "whole")}
        print(f"\n{side} against {floor} (medians): CPU {ratios['cpu']:.2f}x, wall "
              f"{ratios['whole']:.2f}x ({what}); per run: "
              + ", ".join(f"{d['cpu'] / p['cpu']:.2f}x / {d['whole'] / p['whole']:.2f}x"
                          for d, p in zip(runs[side], runs[floor], strict=True)))
    print("cores busy (CPU / wall of the whole process, medians): " + ", ".join(
        f"{side} {medians[side]['cpu'] / medians[side]['whole']:.2f}" for side in runs))
    if imports:
        print(f"\nimport dialkit.leads in a fresh process: median "
              f"{statistics.median(imports):.3f} s of {len(imports)} (target < "
              f"{TARGETS['import']} s); runs {', '.join(f'{s:.3f}' for s in imports)}")
        for code in ("import dialkit.leads", COMMAND_IMPORTS):
            print(f"cumulative import time of each package entered from another ({code}):")
            for seconds, name in import_profile(code):
                print(f"  {seconds:.3f} s {name}")
    if options.phases:
        phases(source, folder / "phases.csv", country)


if __name__ == "__main__":
    main()
