"""One run of ``dialkit demo --scale small`` for every test module that reads its pages.

The demo takes about a minute; ``test_demo`` and ``test_browser`` both read what it
wrote, so the first to ask runs it and the other is given the same folder.
"""

from __future__ import annotations

import functools
from pathlib import Path

from click.testing import Result
from typer.testing import CliRunner

from dialkit.cli import app


@functools.cache
def small_demo(root: Path) -> tuple[Path, Result]:
    """The demo's folder under ``root`` (the session's temporary folder) and what it
    printed, run once per session."""
    out = root / "demo" / "reports"
    return out, CliRunner().invoke(app, ["demo", "--out", str(out), "--scale", "small"])
