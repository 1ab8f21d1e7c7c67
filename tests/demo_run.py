"""One run of ``dialkit demo --scale small`` for every test module that reads its pages.

The demo takes about a minute; ``test_demo`` and ``test_browser`` both read what it
wrote, so the first to ask runs it and the other is given the same run. Under
pytest-xdist the two modules may sit on different workers: the run is then made once
for the whole session, in the workers' shared temporary folder under a file lock, and
each worker reads a copy of its own, since ``test_demo`` runs the demo again into the
folder it was given.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
from pathlib import Path

from click.testing import Result
from filelock import FileLock
from typer.testing import CliRunner

from dialkit.cli import app


@functools.cache
def small_demo(root: Path) -> tuple[Path, Result]:
    """The demo's folder under ``root`` (the worker's temporary folder) and what it
    printed, run once per session."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        out = root / "demo" / "reports"
        return out, CliRunner().invoke(app, ["demo", "--out", str(out), "--scale", "small"])
    shared = root.parent / "demo"  # the folder every worker's temporary folder is in
    with FileLock(root.parent / "demo.lock"):
        if not (shared / "run.json").is_file():
            _run_and_record(shared)
    run = json.loads((shared / "run.json").read_text("utf-8"))
    out = root / "demo" / "reports"
    shutil.copytree(shared / "reports", out)
    text = {name: run[name].replace(str(shared / "reports"), str(out)).encode()
            for name in ("stdout", "stderr", "output")}
    failure = RuntimeError(run["exception"]) if run["exception"] else None
    return out, Result(CliRunner(), text["stdout"], text["stderr"], text["output"], None,
                       run["exit_code"], failure)


def _run_and_record(shared: Path) -> None:
    """Run the demo into ``shared/reports`` and write what it printed beside it."""
    out = shared / "reports"
    result = CliRunner().invoke(app, ["demo", "--out", str(out), "--scale", "small"])
    out.mkdir(parents=True, exist_ok=True)  # a failed run may have written nothing
    record = {"stdout": result.stdout, "stderr": result.stderr, "output": result.output,
              "exit_code": result.exit_code,
              "exception": None if result.exception is None else repr(result.exception)}
    (shared / "run.json").write_text(json.dumps(record), "utf-8")
