"""The guard's number locks at their edges (issue 78), over real HTTP: a wait for a
number's turn ends by the call's deadline, naming what held it; a link planted in the
lock folder is replaced, never written through; a folder others may write is set aside;
and a lock folder that cannot be written (read-only, full) lets the number be held in
this process alone, never hiding the answer of a text that left.

A full disk and a read-only file system are what neither the emulator nor a test running
as root can make (root writes through a folder's mode): those two tests make ``os.open``
fail as the kernel would, for the guard's folder alone.
"""

from __future__ import annotations

import errno
import logging
import os
import signal
import stat
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from conftest import KEYS, add_fault
from dialkit import Client
from dialkit.errors import ApiTimeoutError
from dialkit.sandbox import Sandbox

from .test_guard_texts import MIAMI

GUARD_LOGGER = "dialkit.client.guard"


def _sender(sandbox: Sandbox, cache: Path, **options: Any) -> Client:
    return Client(KEYS["sending"], base_url=sandbox.base_url, rate_limit=None,
                  cache_dir=cache, **options)


def _text(client: Client, reference: str) -> None:
    client.sms.send(to=MIAMI, body="Your table is ready.", client_reference=reference)


def _texts_sent(sandbox: Sandbox) -> int:
    with Client(KEYS["full"], base_url=sandbox.base_url, rate_limit=None) as reader:
        return sum(report["to"] == MIAMI for report in reader.sms.delivery_reports())


def _key_folder(cache: Path) -> Path:
    """The one key folder the guard made under ``guard/`` of ``cache``."""
    (folder,) = (cache / "guard").iterdir()
    return folder


# waits end by the deadline ----------------------------------------------------------------

HOLDER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from filelock import FileLock
    locks = [FileLock(path) for path in sorted(Path(sys.argv[1]).glob("*.lock"))]
    for lock in locks:
        lock.acquire()
    print("held", len(locks), flush=True)
    time.sleep(60)
""")


def test_a_number_held_by_a_stopped_process_fails_at_the_deadline_naming_it(
        sandbox: Sandbox, tmp_path: Path) -> None:
    """A process holding the key's lock files and stopped (as by Ctrl-Z) holds them until
    it goes on: the send waits no longer than its ``deadline`` and says what held it."""
    cache = tmp_path / "cache"
    with _sender(sandbox, cache) as client:
        _text(client, "first")  # the lock folder and this number's lock file made
    folder = _key_folder(cache)
    with subprocess.Popen([sys.executable, "-c", HOLDER, str(folder)],
                          stdout=subprocess.PIPE, text=True) as holder:
        try:
            assert holder.stdout is not None and holder.stdout.readline().startswith("held ")
            holder.send_signal(signal.SIGSTOP)
            with _sender(sandbox, cache, deadline=1.5) as client:
                started = time.monotonic()
                with pytest.raises(ApiTimeoutError) as waited:
                    _text(client, "second")
                took = time.monotonic() - started
        finally:
            holder.kill()
    assert took < 4, took
    said = str(waited.value)
    assert "deadline of 1.5 s" in said and str(folder) in said and ".lock" in said
    assert "Ctrl-Z" in said and "was not sent" in said
    assert _texts_sent(sandbox) == 1


class _Announcing(httpx.HTTPTransport):
    """The real network, with an event set as a text's request leaves."""

    def __init__(self) -> None:
        super().__init__()
        self.texting = threading.Event()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.method == "POST" and request.url.path == "/v1/sms":
            self.texting.set()
        return super().handle_request(request)


def test_a_number_held_by_a_slow_send_in_another_thread_fails_at_the_deadline(
        sandbox: Sandbox, tmp_path: Path) -> None:
    """Two clients of one key in one process share the number's lock: while one's text
    waits on a slow answer, the other's waits no longer than its own deadline."""
    add_fault(sandbox, path="/v1/sms", method="POST", kind="latency", latency_ms=2500,
              count=1)
    wire = _Announcing()
    slow = Client(KEYS["sending"], base_url=sandbox.base_url, rate_limit=None,
                  cache_dir=tmp_path / "a", transport=wire)
    first = threading.Thread(target=_text, args=(slow, "slow"))
    first.start()
    try:
        assert wire.texting.wait(30)
        with _sender(sandbox, tmp_path / "b", deadline=1) as client:
            started = time.monotonic()
            with pytest.raises(ApiTimeoutError, match="another thread of this process"):
                _text(client, "quick")
            assert time.monotonic() - started < 2.2
    finally:
        first.join()
        slow.close()
    assert _texts_sent(sandbox) == 1


# links and folders that are not the user's alone -------------------------------------------

def test_a_link_planted_at_a_token_file_is_replaced_not_written_through(
        sandbox: Sandbox, tmp_path: Path) -> None:
    cache, victim = tmp_path / "cache", tmp_path / "victim"
    victim.write_text("the victim's own words\n")
    victim.chmod(0o644)
    with _sender(sandbox, cache) as client:
        _text(client, "first")
        tokens = sorted(_key_folder(cache).glob("*.sent"))
        assert tokens
        for token in tokens:
            token.unlink()
            token.symlink_to(victim)
        _text(client, "second")
    assert victim.read_text() == "the victim's own words\n"
    assert stat.S_IMODE(victim.stat().st_mode) == 0o644
    assert any(not token.is_symlink() and token.is_file() for token in tokens)
    assert _texts_sent(sandbox) == 2


@pytest.mark.parametrize("plant", ["open to others", "a link"])
def test_a_guard_folder_others_could_write_is_set_aside_and_said(
        sandbox: Sandbox, tmp_path: Path, caplog: pytest.LogCaptureFixture,
        plant: str) -> None:
    """A ``guard/`` folder another user made first (or made writable by all), or a link
    to a folder of theirs, is not used: the numbers are held in this process alone, and
    the warning says which folder and what to do; nothing is written in it."""
    cache, theirs = tmp_path / "cache", tmp_path / "theirs"
    cache.mkdir()
    theirs.mkdir()
    if plant == "a link":
        (cache / "guard").symlink_to(theirs)
        theirs.chmod(0o700)
    else:
        (cache / "guard").mkdir()
        (cache / "guard").chmod(0o777)
    with caplog.at_level(logging.WARNING, GUARD_LOGGER), _sender(sandbox, cache) as client:
        _text(client, "first")
    said = [r.getMessage() for r in caplog.records if r.name == GUARD_LOGGER]
    expected = "open to other users" if plant == "open to others" else "not a folder of"
    assert any(expected in line and str(cache / "guard") in line for line in said), said
    assert not list((cache / "guard").rglob("*.sent")) and not list(theirs.rglob("*.sent"))
    assert _texts_sent(sandbox) == 1


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                    reason="giving a folder to another user needs root (CI runs as root)")
def test_a_guard_folder_of_another_user_is_set_aside(
        sandbox: Sandbox, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    cache = tmp_path / "cache"
    (cache / "guard").mkdir(parents=True)
    (cache / "guard").chmod(0o700)
    os.chown(cache / "guard", 65534, 65534)
    with caplog.at_level(logging.WARNING, GUARD_LOGGER), _sender(sandbox, cache) as client:
        _text(client, "first")
    assert any("not a folder of this user" in r.getMessage() for r in caplog.records)
    assert not list((cache / "guard").rglob("*.sent"))


# folders that fail ---------------------------------------------------------------------

@pytest.fixture
def failing_guard_folder(monkeypatch: pytest.MonkeyPatch,
                         tmp_path: Path) -> Iterator[Callable[[int, str], None]]:
    """``fail(code, suffix)``: from now on, opening a file of ``tmp_path/cache/guard``
    whose name ends with ``suffix`` to write it fails with ``code``, as the kernel fails
    it on a full disk (ENOSPC) or a read-only file system (EROFS)."""
    real_open = os.open
    failing: list[tuple[int, str]] = []

    def opened(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        name = os.fsdecode(path)
        writes = flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT)
        for code, suffix in failing:
            if writes and name.startswith(str(tmp_path / "cache" / "guard")) \
                    and name.endswith(suffix):
                raise OSError(code, os.strerror(code), name)
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", opened)
    yield lambda code, suffix: failing.append((code, suffix))


def test_a_token_that_cannot_be_written_leaves_the_texts_answer_the_callers(
        sandbox: Sandbox, tmp_path: Path, caplog: pytest.LogCaptureFixture,
        failing_guard_folder: Callable[[int, str], None]) -> None:
    """A full disk after the text left: the caller gets the service's answer (a retry
    would send a second text), the failure is a warning, and the next text to the number
    is held in this process alone."""
    with caplog.at_level(logging.WARNING, GUARD_LOGGER), \
            _sender(sandbox, tmp_path / "cache") as client:
        _text(client, "first")
        failing_guard_folder(errno.ENOSPC, ".partial")
        sent = client.sms.send(to=MIAMI, body="Your table is ready.",
                               client_reference="second")
        assert sent.to == MIAMI
        _text(client, "third")
    assert _texts_sent(sandbox) == 3
    said = [r.getMessage() for r in caplog.records if r.name == GUARD_LOGGER]
    assert sum("this process alone" in line for line in said) == 1, said
    assert any(os.strerror(errno.ENOSPC) in line for line in said), said


def test_a_read_only_lock_folder_holds_the_number_in_this_process_and_says_so(
        sandbox: Sandbox, tmp_path: Path, caplog: pytest.LogCaptureFixture,
        failing_guard_folder: Callable[[int, str], None]) -> None:
    """docs/client.md: where the locks cannot be kept, a number is "held in this process
    alone", with a warning; never a raw ``PermissionError``."""
    with _sender(sandbox, tmp_path / "cache") as client:
        _text(client, "first")
    failing_guard_folder(errno.EROFS, "")
    with caplog.at_level(logging.WARNING, GUARD_LOGGER), \
            _sender(sandbox, tmp_path / "cache") as client:
        _text(client, "second")
        _text(client, "third")
    assert _texts_sent(sandbox) == 3
    said = [r.getMessage() for r in caplog.records if r.name == GUARD_LOGGER]
    assert sum("this process alone" in line for line in said) == 1, said
    assert any(os.strerror(errno.EROFS) in line for line in said), said
