"""``dialkit leads import`` of lead files of growing size: the importing process's peak
memory.

Issue 40's import: ``import_leads`` of twenty million rows must never hold them all.
A CSV of the realistic mix (:mod:`leads_mix`, as :mod:`bench_stream` writes it, kept
in ``--folder``) is imported by ``python -m dialkit leads import FILE --campaign ID
--country-column Country --journal DIR`` in a fresh process, into a fresh emulator in
a process of its own (rate limits scaled out of the way: this measures dialkit, not
the limits), so that the peak RSS measured from outside (``ru_maxrss`` from
``wait4``) is the importer's alone. Memory that does not grow with the file shows
as the same peak at every size; the wall time is mostly the emulator's.

``--baseline SRC`` also runs the import of another checkout's ``src`` folder (the
code before the import read its plan a part at a time: ``git worktree add
/tmp/before-import 2361707``, then ``--baseline /tmp/before-import/src``), each run of
it right after the same file's run of this one; its rows are marked ``before``.

Run: ``.venv/bin/python benchmarks/bench_import_stream.py [--rows 100000,400000]
[--runs 3] [--folder /tmp/dialkit-stream] [--baseline SRC]``. Results go to
``benchmarks/RESULTS.md`` by hand.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
from pathlib import Path
from typing import Any

import dialkit
from _emulator import config_file, new_key, serve
from bench_stream import MIB, file_of, run_measured

SCOPES = ("leads:read", "leads:write", "campaigns:read", "dnc:check")


def import_once(source: Path, src: Path | None) -> dict[str, float]:
    """One fresh import into a fresh emulator: wall and CPU seconds, peak RSS in bytes."""
    key = new_key()
    with serve(config_file(key, scale="small", rate_limit_scale=1000, scopes=SCOPES)) as url:
        with dialkit.Client(key, base_url=url) as client:
            campaign = next(client.campaigns.list(status="paused")).id
        env = {**os.environ, "DIALKIT_API_KEY": key, "DIALKIT_BASE_URL": url}
        if src is not None:
            env["PYTHONPATH"] = str(src)
        journal = tempfile.mkdtemp(prefix="dialkit-bench-journal-")
        return run_measured(["leads", "import", str(source), "--campaign", campaign,
                             "--country-column", "Country", "--journal", journal, "--json"],
                            env)


def measure(rows: int, runs: int, folder: Path, baseline: Path | None) -> list[dict[str, Any]]:
    source = file_of(rows, folder)
    codes: dict[str, Path | None] = {"": None} | ({"before": baseline} if baseline else {})
    done: dict[str, list[dict[str, float]]] = {name: [] for name in codes}
    for _ in range(runs):
        for name, src in codes.items():
            done[name].append(import_once(source, src))
    return [{**{key: statistics.median(run[key] for run in found) for key in found[0]},
             "rows": rows, "code": name} for name, found in done.items()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", default="100000,400000")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--folder", type=Path, default=Path("/tmp/dialkit-stream"))
    parser.add_argument("--baseline", type=Path)
    args = parser.parse_args()
    args.folder.mkdir(parents=True, exist_ok=True)
    print("| rows | code | wall s | CPU s | peak RSS MiB |")
    print("|---:|---|---:|---:|---:|")
    for rows in (int(n) for n in args.rows.split(",")):
        for found in measure(rows, args.runs, args.folder, args.baseline):
            print(f"| {rows:,} | {found['code'] or 'this'} | {found['wall']:.1f} | "
                  f"{found['cpu']:.1f} | {found['peak'] / MIB:,.0f} |", flush=True)


if __name__ == "__main__":
    main()
