#!/usr/bin/env python3
"""The project's entry points, runnable with nothing but Python 3.11+ and pip.

    python3 tasks.py demo   # run the notebooks against the emulator: reports/index.html
    python3 tasks.py test   # install everything (chromium too, as root on Debian), then
                            # ruff, mypy, the floors and the whole test suite
    python3 tasks.py bench NAME [options]   # run benchmarks/bench_NAME.py in full
    python3 tasks.py floors # the lowest versions pyproject.toml allows: a quick subset

Each creates (or reuses) the virtual environment ``.venv`` beside this file and
installs the project into it; a stamp file records what was installed, so a
second run only reinstalls after ``pyproject.toml`` changed. Only the standard
library is used here, because this script runs before anything is installed.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
STAMP = VENV / ".dialkit-install-stamp"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
FLOORS = ROOT / ".venv-floors"
FLOOR_EXTRAS = "sandbox,floors"
"""What the floors job installs: the core, the emulator its tests run against, and the
test runner's own plug-ins (pyproject's ``floors`` extra)."""
FLOOR_TESTS = ("tests/test_cli.py", "tests/leads/test_normalize_examples.py",
               "tests/leads/test_read_files.py", "tests/leads/test_clean_output.py",
               "tests/sandbox/test_hostile_requests.py", "tests/frames/test_special_frames.py",
               "tests/compliance/test_law.py", "tests/analytics/test_known.py")
"""The quick subset run at the floors (about a minute): the CLI (typer), the phone fast
path against ``phonenumbers`` and its private helpers, files as spreadsheets write
them and the cleaned outputs, the emulator's own HTTP protocol (uvicorn's), the
client and its frames, the audit, the funnel."""


def _run(*args: str | Path) -> None:
    """Run a command from the project root; exit with its status when it fails."""
    done = subprocess.run([str(a) for a in args], cwd=ROOT, check=False)
    if done.returncode != 0:
        sys.exit(done.returncode)


def ensure_venv(extras: str, where: Path = VENV, *, lowest: bool = False) -> None:
    """Create the virtual environment ``where`` if needed and install the project with
    ``extras`` into it, by uv (which pip installs first); with ``lowest``, each direct
    dependency at the lowest version pyproject.toml allows (uv's ``--resolution
    lowest-direct``: pip has no such mode), in an environment made anew, since uv keeps
    any installed version that fits."""
    if sys.version_info < (3, 11):  # noqa: UP036 (this runs under any python3)
        sys.exit(f"dialkit needs Python 3.11 or newer; this is {sys.version.split()[0]}.")
    python, stamp = _bin(where) / "python", where / STAMP.name
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()
                            + f"{extras}{lowest}".encode()).hexdigest()
    installed = stamp.read_text().split() if stamp.exists() else []
    if wanted not in installed:
        if lowest and where.exists():
            shutil.rmtree(where)
            installed = []
        if not python.exists():
            print(f"creating the virtual environment {where.name}/", flush=True)
            venv.EnvBuilder(with_pip=True).create(where)
        print(f"installing dialkit[{extras}] into {where.name}/ (once)", flush=True)
        # pip brings uv, and uv installs the rest: the same versions pip resolves, in about
        # a third of pip's time (49 s against 149 s for ``all,test`` on this machine). uv
        # compiles no bytecode unless asked, and pip does: see below.
        _run(python, "-m", "pip", "install", "--quiet", "uv")
        lowest_direct = ("--resolution", "lowest-direct") if lowest else ()
        _run(_bin(where) / "uv", "pip", "install", "--quiet", "--compile-bytecode", "--python",
             python, *lowest_direct, "-e", f".[{extras}]")
        stamp.write_text(" ".join([*installed, wanted]))
    # Where PYTHONDONTWRITEBYTECODE is set, as on CI, Python reads bytecode but never
    # writes it: every process the tests start (a CLI, a kernel, a Dask worker) would
    # compile pandas and dialkit again, 5.4 s of imports against 1.4 s compiled. dialkit's
    # own source is compiled here, on each run (only what changed, well under a second).
    _run(python, "-m", "compileall", "-q", "src")


def _bin(where: Path) -> Path:
    return where / ("Scripts" if os.name == "nt" else "bin")


DEMO_EXTRAS = "demo"
"""What the demo installs: the emulator, a kernel, the widgets and the notebook runner
(pyproject's ``demo`` extra), not the test and lint tools, the browser driver,
JupyterLab or Dask that ``all,test`` add (about a third of the size)."""


def demo() -> None:
    """The main job: ``dialkit demo`` (options after ``demo`` are passed on, e.g. ``--scale
    small``), which runs the notebooks against the emulator and writes ``reports/``."""
    ensure_venv(DEMO_EXTRAS)
    _run(BIN / "dialkit", "demo", *sys.argv[2:])
    print(reach_the_command(), flush=True)


def reach_the_command() -> str:
    """How to run the ``dialkit`` command the set-up installed, which is in ``.venv``, not
    on the shell's path: the README's ``dialkit leads clean ...`` was not found after the
    demo (issue 80)."""
    activate = (f"{VENV.name}\\Scripts\\activate" if os.name == "nt"
                else f". {VENV.name}/bin/activate")
    return (f"the dialkit command is {(BIN / 'dialkit').relative_to(ROOT)}: run "
            f"`{activate}` to call it as dialkit (dialkit leads clean FILE, dialkit sandbox "
            "serve, ...) in this shell")


def ensure_chromium() -> None:
    """Install Debian's ``chromium`` for the browser tests (tests/test_browser.py) when it
    is missing and this runs as root on Debian; elsewhere say why those tests will be
    skipped. A failed install is said and the tests go on (they skip, and say so)."""
    if shutil.which("chromium") or shutil.which("chromium-browser"):
        return
    debian = Path("/etc/debian_version").exists() and shutil.which("apt-get")
    if not debian or not hasattr(os, "geteuid") or os.geteuid() != 0:
        print("no chromium: the browser tests will be skipped (on Debian, as root, "
              "this installs it: apt-get install chromium)", flush=True)
        return
    print("installing chromium for the browser tests (apt-get, once)", flush=True)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    steps = (["apt-get", "update", "-q"], ["apt-get", "install", "-y", "-q", "chromium"])
    if not all(subprocess.run(step, stdout=subprocess.DEVNULL, env=env, check=False)
               .returncode == 0 for step in steps):
        print("chromium could not be installed: the browser tests will be skipped", flush=True)


def test() -> None:
    """Lint, type-check while the dependencies' floors are checked (:func:`floors`), and
    run every test, the doctests and the notebooks, on every core (pyproject's addopts:
    pytest-xdist); the exit status is the first failure's. Options after ``test`` go to
    pytest, and leave the floors out: ``-m "not slow"`` for the quick loop, ``-n 0`` for
    one process."""
    ensure_venv("all,test")
    ensure_chromium()
    _run(BIN / "ruff", "check", "src", "tests", "benchmarks", "data_samples", "docs", "tasks.py",
         "conftest.py")
    # mypy (about 35 s with no cache, as on a fresh checkout) and the floors (an install,
    # then tests in one process) each keep one core busy: run them side by side.
    mypy = subprocess.Popen([str(BIN / "mypy"), "src"], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    try:
        if not sys.argv[2:]:  # given pytest options, a developer's loop: those tests alone
            floors()
    finally:
        print(mypy.communicate()[0], end="", flush=True)
    if mypy.returncode != 0:
        sys.exit(mypy.returncode)
    _run(BIN / "python", "-m", "pytest", *sys.argv[2:])


def bench() -> None:
    """One benchmark at its full size: ``benchmarks/bench_NAME.py`` with the options after
    its name (the test suite runs every one at tiny sizes; the figures are taken by hand)."""
    scripts = sorted(p.stem.removeprefix("bench_")
                     for p in (ROOT / "benchmarks").glob("bench_*.py"))
    if len(sys.argv) < 3 or sys.argv[2] not in scripts:
        sys.exit(f"usage: python3 {Path(__file__).name} bench NAME [options], NAME one of: "
                 f"{', '.join(scripts)}")
    ensure_venv("all,test")
    _run(BIN / "python", ROOT / "benchmarks" / f"bench_{sys.argv[2]}.py", *sys.argv[3:])


def floors() -> None:
    """The lowest versions pyproject.toml allows, checked: a second environment,
    ``.venv-floors``, holds each direct dependency at the lowest version that installs
    (its floor, unless another requirement asks for more), and a quick subset of the
    tests (:data:`FLOOR_TESTS`, in one process; options after ``floors`` go to pytest)
    runs in it: a floor the code does not work with fails here."""
    ensure_venv(FLOOR_EXTRAS, FLOORS, lowest=True)
    # An old release warns of what a newer one of its own dependencies deprecates: a
    # user sees a warning, not an error, so deprecations are not failures here.
    _run(_bin(FLOORS) / "python", "-m", "pytest", "-o", "addopts=-ra --strict-markers",
         "-p", "no:cacheprovider", "-W", "ignore::DeprecationWarning",
         "-W", "ignore::PendingDeprecationWarning", *FLOOR_TESTS, *sys.argv[2:])


COMMANDS = {"demo": demo, "test": test, "bench": bench, "floors": floors}

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        sys.exit(f"usage: python3 {Path(__file__).name} {{{'|'.join(COMMANDS)}}} [options]")
    COMMANDS[sys.argv[1]]()
