"""Clearing the cache deletes only what dialkit wrote (issue 46, item 1).

The cache folder may be one the user keeps other things in (``--dir ~/Documents``,
``DIALKIT_CACHE_DIR``): a clear removes the entry folders dialkit marked (or, from
before the mark, that hold a manifest of their resource), says what it left alone,
and never so much as puts a lock file into the user's folders.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import orjson
import pytest
from typer.testing import CliRunner

from dialkit.cli import app
from dialkit.frames import cache_info, clear_cache
from dialkit.frames._cache import MARK
from dialkit.sandbox import Sandbox

from ._cache_helpers import INBOUND, ClientAs, interrupted

runner = CliRunner()

USER_FILES = {"photos/2024-summer/img.txt": b"a photo", "notes/todo.txt": b"buy milk",
              "loose.txt": b"a file at the top",
              "0123456789abcdef/holiday-2024/plan.txt": b"named like a cache entry"}
"""The user's own files in the cache folder; the last one's folders are named like a
service's and an entry's (16 hex digits, then ``name-part``)."""


def _user_files(root: Path) -> dict[Path, bytes]:
    """Write :data:`USER_FILES` under ``root``; their paths and contents."""
    written = {}
    for name, content in USER_FILES.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
        written[path] = content
    return written


def _everything(root: Path) -> set[Path]:
    return set(root.rglob("*"))


@pytest.mark.parametrize("how", ["--dir", "DIALKIT_CACHE_DIR"])
def test_cache_clear_leaves_the_users_folders_and_names_them(
        client_as: ClientAs, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    root = tmp_path / "documents"
    kept = _user_files(root)
    before = _everything(root)
    client = client_as("full", cache_dir=root)
    client.frames.calls(**INBOUND, progress=False)
    client.frames.campaigns(progress=False)
    assert runner.invoke(app, ["cache", "info", "--dir", str(root)]).output.count("\n") == 3

    if how == "--dir":
        cleared = runner.invoke(app, ["cache", "clear", "--dir", str(root), "--yes"])
    else:
        monkeypatch.setenv("DIALKIT_CACHE_DIR", str(root))
        cleared = runner.invoke(app, ["cache", "clear", "--yes"])

    assert cleared.exit_code == 0, cleared.output
    assert f"removed 2 cached frames from {root}" in cleared.output
    assert "left alone 4 items that are not cached frames" in cleared.output
    for name in ("0123456789abcdef/holiday-2024", "loose.txt", "notes", "photos"):
        assert f"  {root / name}\n" in cleared.output
    assert _everything(root) == before  # not a file more (no .lock), not a file less
    for path, content in kept.items():
        assert path.read_bytes() == content
    assert cache_info(root).empty


def test_clear_cache_removes_a_marked_entry_and_one_with_a_manifest_only(
        sandbox: Sandbox, client_as: ClientAs, tmp_path: Path) -> None:
    root = tmp_path / "cache"
    client = client_as("full", cache_dir=root)
    client.frames.calls(**INBOUND, progress=False)
    entry = client.cache.entry("calls", INBOUND).path
    (entry / MARK).unlink()  # an entry written before the mark: its manifest proves it
    interrupted(sandbox, client_as, 2, "drop", path="/v1/leads", cache_dir=root)  # partial only
    failed = client.cache.entry("campaigns", {}).path
    with client.cache.entry("campaigns", {}).locked():  # a load that failed before its
        pass                                             # first page: the mark and the lock
    user = client.cache.path / "recipes-italian"  # a user's folder named like an entry
    user.mkdir()
    (user / "pasta.txt").write_text("al dente")

    cleared = clear_cache(root)

    assert cleared.removed == 2  # the calls and the interrupted leads; the empty one held nothing
    assert cleared.left_alone == (user,)
    assert not entry.exists() and not failed.exists()
    assert (user / "pasta.txt").read_text() == "al dente"
    assert sorted(p.name for p in user.iterdir()) == ["pasta.txt"]


def test_a_client_clear_leaves_a_folder_it_did_not_make(client_as: ClientAs) -> None:
    client = client_as("full")
    client.frames.calls(**INBOUND, progress=False)
    for name, manifest in [("calls-mine", None), ("calls-other", {"resource": "leads"}),
                           ("calls-linked", None)]:
        folder = client.cache.path / name
        if name == "calls-linked":  # a link to the user's folder is never followed
            target = client.cache.path.parent / "elsewhere"
            target.mkdir()
            (target / MARK).write_bytes(orjson.dumps({"kind": "dialkit.frames.cache"}))
            folder.symlink_to(target)
            continue
        folder.mkdir()
        (folder / "data.txt").write_text("mine")
        if manifest is not None:  # a manifest of another resource proves nothing
            (folder / "manifest.json").write_bytes(orjson.dumps(manifest))

    assert client.cache.clear("calls") == 1
    assert sorted(p.name for p in client.cache.path.iterdir()) == [
        "calls-linked", "calls-mine", "calls-other"]
    assert (client.cache.path / "calls-mine" / "data.txt").read_text() == "mine"
    assert not (client.cache.path / "calls-mine" / ".lock").exists()
    assert (client.cache.path.parent / "elsewhere" / MARK).exists()


def test_cache_info_and_clear_agree(client_as: ClientAs, tmp_path: Path) -> None:
    """What ``cache info`` lists is what ``cache clear`` counts: the user's folders are
    in neither."""
    root = tmp_path / "cache"
    _user_files(root)
    service = root / hashlib.sha256(b"not a service").hexdigest()[:16]
    (service / "calls-0000").mkdir(parents=True)  # a manifest, but no mark
    (service / "calls-0000" / "manifest.json").write_bytes(b'{"resource": "leads"}')
    assert cache_info(root).empty
    cleared = clear_cache(root)
    assert cleared.removed == 0
    assert service / "calls-0000" in cleared.left_alone


def test_a_cache_folder_reached_through_a_link_is_cleared(client_as: ClientAs,
                                                          tmp_path: Path) -> None:
    """The root may be a link (``~/.cache`` on another disk); entries never are."""
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "link").symlink_to(real)
    client = client_as("full", cache_dir=tmp_path / "link")
    client.frames.campaigns(progress=False)
    cleared = clear_cache(tmp_path / "link")
    assert (cleared.removed, cleared.left_alone) == (1, ())
    assert list(real.iterdir()) == []
