"""No file dialkit writes is written through a symbolic link at its name (issue 78).

On a shared or group-writable folder another user can plant ``name -> ~/.bashrc`` where
dialkit is about to write ``name``. A file written whole is written under a new name and
renamed over the link (``tests/test_outputs_safe.py``); a file appended to or opened in
place (an import's journal, the MCP audit log, the webhook store, an emulator's world) is
opened without following a link, which is refused naming the file and what to do; a mode
is never set through a link. Each test plants the link at the name the writer uses,
pointing to a file of the user's own, and runs the writer.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from conftest import KEYS
from dialkit import Client
from dialkit._files._outputs_written import written
from dialkit._files._private import private_opener, private_tree
from dialkit.cli import app
from dialkit.errors import ConfigError, InputError, StoreError
from dialkit.leads import import_leads
from dialkit.mcp import AuditRecord, JsonLinesAuditLog
from dialkit.sandbox import Sandbox, start
from dialkit.webhooks import EventStore

pytestmark = pytest.mark.skipif(
    os.name != "posix", reason="symbolic links need privileges on Windows, and O_NOFOLLOW "
    "is POSIX's: the writers refuse links there by the same code, untested")

OWN = b"export PATH=$HOME/bin:$PATH\n# the user's own words, with no newline at the end"
"""A victim's content: one whole line and one cut short (a journal cut a torn line off)."""


def victim(folder: Path, content: bytes = OWN) -> Path:
    """A file of the user's own, readable by others (``0644``), as ``~/.bashrc`` is."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "victim.txt"
    path.write_bytes(content)
    path.chmod(0o644)
    return path


def planted(link: Path, target: Path) -> Path:
    """``link`` made a symbolic link to ``target`` (whatever was at its name removed)."""
    link.unlink(missing_ok=True)
    link.symlink_to(target)
    return link


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def assert_untouched(target: Path, content: bytes = OWN) -> None:
    assert target.read_bytes() == content
    assert mode(target) == 0o644


def assert_refused(error: BaseException, link: Path) -> None:
    """A message naming the link and what it is, without the system's raw words."""
    message = str(error)
    assert str(link) in message and "symbolic link" in message, message
    assert "Errno" not in message and "Too many levels" not in message, message


# --- the import's journal --------------------------------------------------------------------


@pytest.mark.parametrize("name", ["journal.jsonl", ".lock"])
def test_an_import_refuses_a_link_in_its_journal_and_leaves_its_target_alone(
        client: Client, tmp_path: Path, name: str) -> None:
    """The journal's lines, cut back to their last newline when a run opens them (a torn
    line), were cut through the link: the target lost its last line."""
    campaign = next(client.campaigns.list(status="paused")).id
    frame = pd.DataFrame({"phone": ["+13125550170", "+13125550171"]})
    journals = tmp_path / "journals"
    import_leads(client, frame, campaign, journal=journals, progress=False)
    [folder] = journals.iterdir()
    target = victim(tmp_path / "home")
    link = planted(folder / name, target)
    with pytest.raises(InputError) as raised:
        import_leads(client, frame, campaign, journal=journals, progress=False)
    assert_untouched(target)
    assert_refused(raised.value, link)


def test_an_import_refuses_a_journal_folder_that_is_a_link(client: Client,
                                                           tmp_path: Path) -> None:
    """The folder was made owner-only (``chmod 700``) through the link: another user's
    folder, or the user's home, lost its mode."""
    campaign = next(client.campaigns.list(status="paused")).id
    frame = pd.DataFrame({"phone": ["+13125550172"]})
    journals = tmp_path / "journals"
    import_leads(client, frame, campaign, journal=journals, progress=False)
    [folder] = journals.iterdir()
    elsewhere = tmp_path / "elsewhere"
    folder.rename(elsewhere)
    elsewhere.chmod(0o755)
    folder.symlink_to(elsewhere, target_is_directory=True)
    with pytest.raises(InputError) as raised:
        import_leads(client, frame, campaign, journal=journals, progress=False)
    assert mode(elsewhere) == 0o755
    assert_refused(raised.value, folder)


def test_a_load_refuses_a_link_at_its_cache_entrys_lock(client_as: Callable[..., Client],
                                                       tmp_path: Path) -> None:
    """The lock refused the link with the system's words (``[Errno 40] Too many levels of
    symbolic links``), as if dialkit had failed."""
    client = client_as("full", cache_dir=tmp_path / "cache")
    client.frames.campaigns()
    target = victim(tmp_path / "home")
    link = planted(client.cache.entry("campaigns", {}).path / ".lock", target)
    with pytest.raises(InputError) as raised:
        client.frames.campaigns(refresh="full")
    assert_untouched(target)
    assert_refused(raised.value, link)


# --- the MCP audit log -----------------------------------------------------------------------


def test_mcp_serve_refuses_an_audit_log_that_is_a_link(
        sandbox: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The log was made owner-only through the link (the target's mode lost), then
    appended to."""
    monkeypatch.setenv("DIALKIT_API_KEY", KEYS["full"])
    monkeypatch.setenv("DIALKIT_BASE_URL", sandbox.base_url)
    target = victim(tmp_path / "home")
    log = planted(tmp_path / "audit.jsonl", target)
    result = CliRunner().invoke(app, ["mcp", "serve", "--audit-log", str(log)])
    assert result.exit_code == 2, result.output
    assert result.output.startswith(f"error: cannot write the audit log {log}: ")
    assert_untouched(target)
    assert_refused(Exception(result.output), log)


def test_an_audit_record_is_never_appended_through_a_link_planted_after_the_start(
        tmp_path: Path) -> None:
    log = JsonLinesAuditLog(tmp_path / "audit.jsonl")
    target = victim(tmp_path / "home")
    planted(log.path, target)
    record = AuditRecord(at="2026-11-23T10:00:00.000Z", account="acme", client_id="cli_1",
                         credential_id="cred_1", tool="me", arguments_digest="0" * 64,
                         outcome="ok", confirmation="not_needed")
    with pytest.raises(OSError) as raised:  # what the tool server answers as unrecorded
        log.write(record)
    assert_untouched(target)
    assert_refused(raised.value, log.path)


# --- the webhook store and an emulator's world -----------------------------------------------


@pytest.mark.parametrize("kind", ["empty", "missing"])
def test_the_event_store_refuses_a_link_at_its_file(tmp_path: Path, kind: str) -> None:
    """SQLite takes an empty file for a new database and writes its own into it; a link
    to a missing file made that file (any name another user chose)."""
    target = victim(tmp_path / "home", b"")
    if kind == "missing":
        target.unlink()
    link = planted(tmp_path / "events.sqlite", target)
    with pytest.raises(StoreError) as raised:
        EventStore(link)
    assert_refused(raised.value, link)
    if kind == "missing":
        assert not target.exists()
    else:
        assert_untouched(target, b"")


@pytest.mark.parametrize("name", ["world.db", "world.db-wal"])
def test_an_emulator_refuses_a_link_at_its_world_file(tmp_path: Path, name: str) -> None:
    """The world file and its side files were made owner-only through a link before the
    file was read (the target's mode lost, even when it was then refused)."""
    target = victim(tmp_path / "home")
    link = planted(tmp_path / name, target)
    with pytest.raises(ConfigError) as raised:
        start(db=tmp_path / "world.db")
    assert_untouched(target)
    assert_refused(raised.value, link)


# --- the shared writers ----------------------------------------------------------------------


def test_private_tree_sets_no_mode_through_a_link(tmp_path: Path) -> None:
    """An export's tree is made owner-only file by file: ``chmod`` follows a link, and
    made its target (a file, a folder) owner-only."""
    home = tmp_path / "home"
    target = victim(home)
    folder = home / "folder"
    folder.mkdir(mode=0o755)
    folder.chmod(0o755)
    tree = tmp_path / "export"
    (tree / "calls").mkdir(parents=True)
    (tree / "calls" / "part-0.parquet").write_bytes(b"PAR1")
    planted(tree / "calls" / "linked.parquet", target)
    (tree / "linked").symlink_to(folder, target_is_directory=True)
    private_tree(tree)
    assert_untouched(target)
    assert mode(folder) == 0o755
    assert mode(tree / "calls" / "part-0.parquet") == 0o600
    assert mode(tree) == mode(tree / "calls") == 0o700


def test_the_spill_files_opener_refuses_a_link(tmp_path: Path) -> None:
    """A streamed clean appends its spill files with this opener."""
    target = victim(tmp_path / "home")
    link = planted(tmp_path / "phones-0.bin", target)
    with pytest.raises(InputError) as raised, open(link, "ab", opener=private_opener) as out:
        out.write(b"\x00" * 16)
    assert_untouched(target)
    assert_refused(raised.value, link)


def test_a_dataset_replaces_a_link_at_its_folder_never_its_target(tmp_path: Path) -> None:
    """A folder output at a link: the link is replaced, as a file output's is, not refused
    with another error's words ("a part of its path is a file")."""
    home = tmp_path / "home"
    (home / "mine").mkdir(parents=True)
    (home / "mine" / "notes.txt").write_bytes(OWN)
    link = tmp_path / "cleaned"
    link.symlink_to(home / "mine", target_is_directory=True)
    with written(link, "out", folder=True) as partial:
        (partial / "part.0.parquet").write_bytes(b"PAR1")
    assert not link.is_symlink() and sorted(p.name for p in link.iterdir()) == ["part.0.parquet"]
    assert [p.name for p in (home / "mine").iterdir()] == ["notes.txt"]
