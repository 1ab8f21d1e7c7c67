"""A shell completion's TAB, timed as the shell runs it: a fresh ``dialkit`` process each.

Issue 48's target: a TAB answers within 0.2 s (before it, 0.9-2.7 s after a command's
option, 4 s after ``dialkit``, against 0.07 s for ``dialkit --help`` on the same
machine). Each TAB here runs the command as bash's completion function does (typer's
``_DIALKIT_COMPLETE`` protocol, see ``dialkit --show-completion``), and ``dialkit
--help`` runs beside it as the yardstick: the process's start, Python's and typer's
imports, which no TAB can go under. With ``--baseline-src`` (the ``src`` folder of an
earlier checkout, e.g. ``git archive 65449f4 src | tar -x -C /tmp/before``) every case
runs from both trees in turn, run by run, so that the ratio holds on a noisy machine.

Run: ``.venv/bin/python benchmarks/bench_completion.py [--runs 10]
[--baseline-src /tmp/before/src]``. Results go to ``benchmarks/RESULTS.md`` by hand,
with the command.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"

CASES = {
    "dialkit --help": None,
    "TAB after dialkit": "dialkit ",
    "TAB after compliance audit --preset": "dialkit compliance audit --preset ",
    "TAB after compliance audit --": "dialkit compliance audit --",
    "TAB after leads clean --": "dialkit leads clean --",
    "TAB after webhooks listen --synchronous": "dialkit webhooks listen --synchronous ",
}
"""What is timed: the yardstick, then a TAB in the places users meet most."""

COMMAND = "import sys; sys.argv[0] = 'dialkit'; from dialkit.cli import main; main()"
"""The console script's own lines: the program's name is what the protocol's variable
is named after (``_DIALKIT_COMPLETE``)."""


def timed(src: Path, words: str | None) -> tuple[float, float]:
    """One fresh process: its wall and CPU seconds (user and system)."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    arguments = ["--help"]
    if words is not None:
        index = len(words.split()) - (0 if words.endswith(" ") else 1)
        env.update(_DIALKIT_COMPLETE="complete_bash", COMP_WORDS=words, COMP_CWORD=str(index))
        arguments = []
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", COMMAND, *arguments], env=env,
                          capture_output=True, text=True, check=False)
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:  # an empty answer is the earlier trees' after --preset
        raise SystemExit(f"{words or '--help'} from {src}: exit {done.returncode}\n"
                         f"{done.stderr[-2000:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--baseline-src", type=Path, default=None)
    args = parser.parse_args()
    trees = {"now": SRC, **({"before": args.baseline_src} if args.baseline_src else {})}
    walls: dict[tuple[str, str], list[float]] = {}
    cpus: dict[tuple[str, str], list[float]] = {}
    for _ in range(args.runs + 1):  # the first round warms the file cache, not counted
        for case, words in CASES.items():
            for tree, src in trees.items():
                wall, cpu = timed(src, words)
                walls.setdefault((case, tree), []).append(wall)
                cpus.setdefault((case, tree), []).append(cpu)
    print(f"median of {args.runs} runs, seconds (wall / CPU)")
    print(f"{'case':<42}" + "".join(f"{tree:>16}" for tree in trees)
          + ("  now/before (wall, paired)" if len(trees) > 1 else ""))
    for case in CASES:
        cells = "".join(f"{statistics.median(walls[case, tree][1:]):>8.3f} / "
                        f"{statistics.median(cpus[case, tree][1:]):.3f}" for tree in trees)
        ratio = ""
        if len(trees) > 1:
            pairs = zip(walls[case, "now"][1:], walls[case, "before"][1:], strict=True)
            ratio = f"  {statistics.median(a / b for a, b in pairs):.2f}x"
        print(f"{case:<42}{cells}{ratio}")


if __name__ == "__main__":
    main()
