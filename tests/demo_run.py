"""One run of ``dialkit demo --scale small`` for every test module that reads its pages.

The demo takes about a minute; ``test_demo`` and ``test_browser`` both read what it
wrote, so the first to ask runs it and the other is given the same run. Under
pytest-xdist the two modules may sit on different workers: the run is then made once
for the whole session, in the workers' shared temporary folder under a file lock, and
each worker reads a copy of its own, since ``test_demo`` runs the demo again into the
folder it was given.

The demo's world is a hostile one (:func:`hostile_world`): its campaigns are named as an
attacker would name them, so every page the demo writes is also a test that no text
from an account becomes markup, a formula or mathematics (``test_demo``).
"""

from __future__ import annotations

import functools
import json
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from bs4 import BeautifulSoup
from click.testing import Result
from filelock import FileLock
from typer.testing import CliRunner

import dialkit._demo._run
from dialkit.cli import app
from dialkit.sandbox import Sandbox

RUNS_THE_DEMO = pytest.mark.timeout(360)
"""The timeout of a module's tests, any of which may run the demo in its setup: four
notebooks, each in a kernel of its own, take about a minute here and twice that on a
slower machine beside the other worker's tests (pyproject's 120 s is one test's)."""
HOSTILE_NAMES = (
    "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", r"$\frac{1}{0}$",
    '=HYPERLINK("http://x","y")', r"$\href{javascript:alert(1)}{click}$",
    '\'"><svg onload=alert(1)>', r"Bad $\nosuchcommand{$ maths", "&lt;b&gt;escaped&lt;/b&gt;")
"""Campaign names as an attacker would choose them: markup, an attribute's end, a formula,
mathematics that matplotlib would typeset or fail to parse, a MathJax link, text that
is already escaped. One per campaign that holds leads in the small world."""
_MARKUP = ("script", "img", "svg", "iframe", "object", "embed")
"""Elements a hostile name would add, were it markup."""
_SCRIPT_TYPES = ("", "text/javascript", "application/javascript", "module")
"""The types of a script element a browser runs (a JSON one is data)."""


@functools.cache
def small_demo(root: Path) -> tuple[Path, Result]:
    """The demo's folder under ``root`` (the worker's temporary folder) and what it
    printed, run once per session."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        out = root / "demo" / "reports"
        return out, run_hostile_demo(out)
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
    result = run_hostile_demo(out)
    out.mkdir(parents=True, exist_ok=True)  # a failed run may have written nothing
    record = {"stdout": result.stdout, "stderr": result.stderr, "output": result.output,
              "exit_code": result.exit_code,
              "exception": None if result.exception is None else repr(result.exception)}
    (shared / "run.json").write_text(json.dumps(record), "utf-8")


def run_hostile_demo(out: Path) -> Result:
    """``dialkit demo --out out --scale small`` in the world of :func:`hostile_world`."""
    with hostile_world():
        return CliRunner().invoke(app, ["demo", "--out", str(out), "--scale", "small"])


@contextmanager
def hostile_world() -> Iterator[None]:
    """The demo's emulator, started as the demo starts it, with its campaigns named by
    :data:`HOSTILE_NAMES`. The service's API creates and renames no campaign (the
    contract leaves that to the console), so the names are written into the emulator's
    store before any client reads it."""
    start = dialkit._demo._run.start

    def started(*args: Any, **kwargs: Any) -> Sandbox:
        sandbox = start(*args, **kwargs)
        rename_campaigns(sandbox)
        return sandbox

    with mock.patch.object(dialkit._demo._run, "start", started):
        yield


def rename_campaigns(sandbox: Sandbox) -> None:
    """Each campaign of ``sandbox``'s world (every data set's copy) named by
    :data:`HOSTILE_NAMES`, the listed campaigns with the most leads first (those the
    pages show), the names repeated with a number past the last."""
    store = sandbox.service.store
    ids = [row[0] for row in store.rows(
        "SELECT c.id FROM campaigns c LEFT JOIN leads l ON l.campaign_id = c.id "
        "GROUP BY c.id ORDER BY MAX(c.archived), COUNT(l.id) DESC, c.id")]
    with store.transaction() as conn:
        for n, campaign in enumerate(ids):
            name = HOSTILE_NAMES[n % len(HOSTILE_NAMES)]
            conn.execute("UPDATE campaigns SET name = ? WHERE id = ?",
                         (name if n < len(HOSTILE_NAMES) else f"{name} {n}", campaign))


def live_markup(page: str) -> list[str]:
    """What on ``page`` came from :data:`HOSTILE_NAMES` as something a browser would run,
    load or typeset: an element of theirs, an ``on...`` attribute, a ``javascript:``
    link, or a name with ``$`` signs in a text that MathJax reads (not under a
    ``tex2jax_ignore`` element, nor in ``pre``, ``code``, ``script`` or ``style``)."""
    soup = BeautifulSoup(page, features="html.parser")
    found = [f"<{tag.name} {name}=...>" for tag in soup.find_all(True)
             for name in tag.attrs if name.lower().startswith("on")]
    found += [f"<{tag.name}> of the data's" for tag in soup.find_all(_MARKUP)
              if tag.get("src") == "x" or tag.name == "svg" or (
                  "alert(" in tag.get_text() and tag.get("type", "") in _SCRIPT_TYPES)]
    found += [f"a link to {tag['href']}" for tag in soup.find_all(href=True)
              if str(tag["href"]).strip().lower().startswith("javascript:")]
    maths = [name for name in HOSTILE_NAMES if "$" in name]
    found += [f"mathematics: {text.strip()[:60]!r}" for text in soup.find_all(
        string=lambda s: any(name in s for name in maths))
        if text.find_parent(class_="tex2jax_ignore") is None
        and text.find_parent(["pre", "code", "script", "style", "textarea", "title"]) is None]
    return found
