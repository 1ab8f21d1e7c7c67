"""Run Python scripts as ``python SCRIPT ARGS...`` would, each in a child forked from one
process that has already imported the heavy modules they share.

The benchmark smoke (``test_benchmarks_smoke``) runs twenty scripts; in fresh
interpreters a third of their CPU went to importing the same modules again (pandas,
pyarrow, matplotlib, Dask, the emulator's FastAPI and MCP, nbformat's jsonschema). Here
one process imports them once (:data:`PRELOAD`, before any thread starts, so a fork
is safe) and forks a child per script, a few at a time: the child sets the script's
folder, ``sys.argv`` and ``sys.path[0]`` as the interpreter would, runs it as
``__main__`` with :func:`runpy.run_path`, and exits with its status after the exit
handlers ran. What a script starts itself (an emulator, Dask workers, a measured fresh
process) is still a fresh interpreter. The preloaded objects are frozen out of the
garbage collector (:func:`gc.freeze`) before the first fork: a child's full collection
otherwise walks all 400,000 of them (0.25 CPU s each time; ``bench_normalize`` collects
before each timing) and writes to their pages, which the fork then copies.

Run: ``python tests/forked_runs.py SPEC.json``, where the spec holds ``folder``,
``scripts`` (name: arguments), ``at_once``, ``limit`` (seconds a script may take) and
``outputs`` (a folder for their output: no temporary folder of this process's own,
whose clean-up at exit each child would run as well);
prints one JSON object, by name: ``code`` (``None`` when killed at the limit),
``output`` (its end), ``seconds`` (wall) and ``cpu`` (the script's and its reaped
children's).
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import importlib
import json
import os
import runpy
import signal
import sys
import threading
import time
import traceback
from pathlib import Path
from typing import Any

PRELOAD = ("numpy", "pandas", "pyarrow.parquet", "pyarrow.compute", "httpx", "pydantic",
           "matplotlib.pyplot", "dask.dataframe", "distributed", "fastapi", "uvicorn",
           "dialkit.client", "dialkit.frames", "dialkit.leads._clean._entry", "dialkit.compliance",
           "dialkit.analytics", "dialkit.sandbox", "dialkit.mcp", "dialkit.webhooks",
           "dialkit.cli", "dialkit._demo._run")
"""What the scripts import (or their emulators and workers would, in this process)."""
_TAIL = 9000
"""Characters of a script's output kept: its end, where a traceback is."""


def _child(folder: Path, script: str, args: list[str], output: Path) -> None:
    """In the forked child: run ``script`` as its own ``__main__``, its output into
    ``output``, then exit with its status."""
    os.setpgid(0, 0)  # its own group: a script killed at the limit takes its children along
    written = os.open(output, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    os.dup2(written, 1)
    os.dup2(written, 2)
    os.chdir(folder)
    path = str(folder / script)
    sys.argv = [path, *args]
    sys.path[0] = str(folder)
    code = 0
    try:
        runpy.run_path(path, run_name="__main__")
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
        if not isinstance(stop.code, int | None):
            print(stop.code, file=sys.stderr)
    except BaseException:  # as the interpreter would: the traceback, then status 1
        traceback.print_exc()
        code = 1
    try:
        atexit._run_exitfuncs()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def run_all(spec: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each script of ``spec`` in a forked child, ``at_once`` at a time."""
    folder, outputs = Path(spec["folder"]), Path(spec["outputs"])
    waiting = list(spec["scripts"].items())
    running: dict[int, tuple[str, float]] = {}
    done: dict[str, dict[str, Any]] = {}
    killed: set[int] = set()
    while waiting or running:
        while waiting and len(running) < spec["at_once"]:
            name, args = waiting.pop(0)
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:
                _child(folder, name, args, outputs / name)
            running[pid] = (name, time.monotonic())
        pid, status, usage = os.wait4(-1, os.WNOHANG)
        if pid == 0:
            killed |= _kill_late(running, spec["limit"])
            time.sleep(0.05)
            continue
        name, began = running.pop(pid)
        done[name] = {"code": None if pid in killed else os.waitstatus_to_exitcode(status),
                      "output": (outputs / name).read_text(errors="replace")[-_TAIL:],
                      "seconds": time.monotonic() - began,
                      "cpu": usage.ru_utime + usage.ru_stime}
    return done


def _kill_late(running: dict[int, tuple[str, float]], limit: float) -> set[int]:
    """Kill the scripts (and what they started) that ran past ``limit`` seconds."""
    late = {pid for pid, (_, began) in running.items() if time.monotonic() - began > limit}
    for pid in late:
        with contextlib.suppress(ProcessLookupError):  # gone: about to be reaped
            os.killpg(pid, signal.SIGKILL)
    return late


def main() -> None:
    spec = json.loads(Path(sys.argv[1]).read_text())
    for module in PRELOAD:
        importlib.import_module(module)
    assert threading.active_count() == 1, f"a preload started a thread: {threading.enumerate()}"
    gc.freeze()  # the preloaded objects out of every child's collections: see the docstring
    print(json.dumps(run_all(spec)))


if __name__ == "__main__":
    main()
