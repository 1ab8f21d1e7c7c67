"""What a notebook keeps of dialkit's work, and what it leaves behind (issue 72): a
load's progress says what was loaded, in words that agree in number; a sandbox world
kept in memory leaves no frames in the user cache."""

from __future__ import annotations

import logging
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from dialkit._shown._progress import Progress
from dialkit._shown._progress_lines import PROGRESS_LOGGER


def load(pages: int, how: str) -> None:
    """A load of ``pages`` pages of 100 rows, shown ``how``."""
    with Progress("calls", how) as progress:  # type: ignore[arg-type]
        for page in range(pages):
            progress.page(100, more=page < pages - 1)


@pytest.mark.parametrize(("pages", "first", "last"), [
    (2, "loading calls: 1 page, 100 rows", "loaded calls: 2 pages, 200 rows in "),
    (3, "loading calls: 2 pages, 200 rows", "loaded calls: 3 pages, 300 rows in "),
])
def test_a_load_logs_the_pages_loaded_agreeing_in_number(
        pages: int, first: str, last: str, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Before: ``loading calls: 1 pages``, and the last line still ``loading``."""
    monkeypatch.setenv("DIALKIT_PROGRESS_SECONDS", "0")
    with caplog.at_level(logging.INFO, PROGRESS_LOGGER):
        load(pages, "lines")
    said = [record.getMessage() for record in caplog.records]
    assert any(line.startswith(first) for line in said), said
    assert said[-1].startswith(last), said
    assert not any(" 0 pages" in line or "1 pages" in line for line in said), said


def test_a_bar_is_first_drawn_with_the_pages_loaded_and_ends_saying_what_was_loaded(
        capsys: pytest.CaptureFixture[str]) -> None:
    """An executed notebook keeps a bar's first state as its text: before, it read
    "loading calls: 0 pages", whatever was loaded."""
    load(3, "bar")
    drawn = [state.strip() for state in capsys.readouterr().err.split("\r") if state.strip()]
    assert drawn[0].startswith("loading calls: 1 page "), drawn
    assert drawn[-1].startswith("loaded calls: 3 pages "), drawn
    assert not any(re.search(r"(?<![\d.])(0 pages|1 pages)\b", state)  # not 70492.50 pages/s
                   for state in drawn), drawn


SESSION = textwrap.dedent("""
    import dialkit
    client = dialkit.Client.sandbox()
    client.frames.calls()
    print(client.cache.path)
""")
"""A notebook's session: a sandbox world in memory, a frame loaded, never closed."""


def test_a_world_in_memory_caches_its_frames_in_a_folder_removed_with_the_session(
        tmp_path: Path) -> None:
    """Before: the frames stayed in the user cache, under a world id no session would
    have again."""
    cache, temporary = tmp_path / "user-cache", tmp_path / "tmp"
    temporary.mkdir()
    env = {**os.environ, "DIALKIT_CACHE_DIR": str(cache), "TMPDIR": str(temporary),
           "DIALKIT_PROGRESS": "0"}
    session = subprocess.run([sys.executable, "-c", SESSION], env=env, text=True,
                             capture_output=True, timeout=120)
    assert session.returncode == 0, session.stderr
    kept = Path(session.stdout.strip().splitlines()[-1])
    assert kept.is_relative_to(temporary), kept
    assert not cache.exists() or not any(cache.iterdir())
    assert list(temporary.iterdir()) == []  # removed when the interpreter exited


def test_a_closed_client_of_a_world_in_memory_leaves_its_folder_to_collection(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """In a kernel that lives on: ``close()`` removes the frames, collection the folder."""
    import gc
    import tempfile

    import dialkit

    monkeypatch.setenv("DIALKIT_CACHE_DIR", str(tmp_path / "user-cache"))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    client = dialkit.Client.sandbox()
    client.frames.campaigns()
    root = client.cache.root
    assert root.parent == tmp_path and any(client.cache.path.iterdir())
    client.close()
    assert not client.cache.path.exists()
    del client
    gc.collect()
    assert not root.exists()
    assert not (tmp_path / "user-cache").exists()
