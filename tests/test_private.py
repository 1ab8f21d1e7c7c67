"""Owner-only folders and files, whatever the umask (issue 46, item 18).

:mod:`dialkit._files._private` is the one place that makes a folder and its missing parents
owner-only; the frames' cache, the leads' import journal and the MCP audit log use it.
Each test runs under the usual umask, ``022``, under which a folder made by
``mkdir(parents=True)`` is ``0755``.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

import pandas as pd
import pytest

from dialkit import Client
from dialkit._files._private import private_dir
from dialkit.leads import import_leads
from dialkit.mcp import JsonLinesAuditLog


@pytest.fixture(autouse=True)
def usual_umask() -> Iterator[None]:
    previous = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(previous)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def folders_under(top: Path) -> list[Path]:
    """``top`` and every folder under it."""
    return [top, *(path for path in top.rglob("*") if path.is_dir())]


def test_private_dir_makes_each_missing_folder_owner_only_and_leaves_the_rest(
        tmp_path: Path) -> None:
    mine = tmp_path / "mine"
    mine.mkdir(mode=0o755)
    made = private_dir(mine / "a" / "b" / "c")
    assert made == mine / "a" / "b" / "c" and made.is_dir()
    assert [mode(folder) for folder in (mine / "a", mine / "a" / "b", made)] == [0o700] * 3
    assert mode(mine) == 0o755  # the user's folder, not dialkit's to change
    assert private_dir(made) == made


def test_a_leads_import_in_a_fresh_cache_makes_every_folder_owner_only(
        client_as: Callable[..., Client], tmp_path: Path) -> None:
    """The journal lives in ``imports/`` of the key's cache folder; in a fresh cache the
    import makes the root, the key's folder and ``imports/`` too (they were ``0755``)."""
    top = tmp_path / "fresh"
    client = client_as("full", cache_dir=top / "cache")
    campaign = next(client.campaigns.list(status="paused")).id
    import_leads(client, pd.DataFrame({"phone": ["+13125550100"], "name": ["Ada"]}), campaign,
                 progress=False)

    folders = folders_under(top)
    assert client.cache.path / "imports" in folders and len(folders) >= 5
    for folder in folders:
        assert mode(folder) == 0o700, folder
    for file in (path for path in top.rglob("*") if path.is_file()):
        assert mode(file) == 0o600, file


def test_an_existing_audit_log_is_made_owner_only_when_opened(tmp_path: Path) -> None:
    existing = tmp_path / "audit.jsonl"
    existing.write_text("")
    existing.chmod(0o644)
    JsonLinesAuditLog(existing)
    assert mode(existing) == 0o600

    nested = tmp_path / "logs" / "mcp" / "audit.jsonl"
    JsonLinesAuditLog(nested)
    assert mode(nested) == 0o600
    assert [mode(tmp_path / "logs"), mode(tmp_path / "logs" / "mcp")] == [0o700, 0o700]
