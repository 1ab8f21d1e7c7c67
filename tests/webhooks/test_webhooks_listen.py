"""``dialkit webhooks listen``: its messages, its reference in docs/cli.md, and a kill -9
in the middle of a stream that loses no event it answered 2xx for."""

from __future__ import annotations

import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner
from webhook_servers import delivery, envelope

from dialkit.cli import app
from dialkit.webhooks import events_frame

SECRETS = "whsec_listen_new_0123456789abcdef, whsec_listen_old_0123456789abcdef"
DOCS = Path(__file__).parents[2] / "docs" / "cli.md"
runner = CliRunner()


def test_the_reference_in_docs_matches_help() -> None:
    result = runner.invoke(app, ["webhooks", "listen", "--help"])
    assert result.exit_code == 0, result.output
    section = DOCS.read_text().split("## `dialkit webhooks listen`\n")[1].split("\n## ")[0]
    documented = set(re.findall(r"^\| `(--[a-z-]+)`", section, re.MULTILINE))
    assert documented == set(re.findall(r"(--[a-z][a-z-]+)", result.output)) - {"--help"}
    assert "DIALKIT_WEBHOOK_SECRETS" in section and "DIALKIT_WEBHOOK_SECRETS" in result.output


@pytest.mark.parametrize("value", [None, "", " , "])
def test_secrets_must_come_from_the_environment(value: str | None, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DIALKIT_WEBHOOK_SECRETS", raising=False)
    if value is not None:
        monkeypatch.setenv("DIALKIT_WEBHOOK_SECRETS", value)
    result = runner.invoke(app, ["webhooks", "listen", "--db", str(tmp_path / "e.sqlite")])
    assert result.exit_code == 2
    assert result.output.startswith("error: set DIALKIT_WEBHOOK_SECRETS")
    assert "Traceback" not in result.output


@pytest.mark.parametrize("make, message", [
    (lambda p: p, "cannot open the event store"),  # a folder
    (lambda p: p / "missing" / "e.sqlite", "cannot open the event store"),
    (lambda p: (p / "x.sqlite").write_bytes(b"not a database" * 100) and p / "x.sqlite",
     "cannot use"),
], ids=["folder", "no-parent", "not-sqlite"])
def test_a_db_that_cannot_be_opened_is_a_clear_error(make: object, message: str,
                                                     tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DIALKIT_WEBHOOK_SECRETS", SECRETS)
    db = make(tmp_path)  # type: ignore[operator]
    result = runner.invoke(app, ["webhooks", "listen", "--db", str(db)])
    assert result.exit_code == 2, result.output
    assert result.output.startswith(f"error: {message}") and "Traceback" not in result.output


def _listen(db: Path, synchronous: str = "full", *options: str
            ) -> tuple[subprocess.Popen[str], str]:
    env = {**os.environ, "DIALKIT_WEBHOOK_SECRETS": SECRETS}
    server = subprocess.Popen(
        [sys.executable, "-m", "dialkit.cli", "webhooks", "listen", "--port", "0", "--db",
         str(db), "--synchronous", synchronous, *options],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    assert server.stdout is not None
    first, second = server.stdout.readline().strip(), server.stdout.readline()
    assert first.startswith("listening on http://127.0.0.1:"), first
    assert "cdef" in second and "0123456789" not in second  # secrets masked
    return server, first.removeprefix("listening on ") + "/hooks/dialer"


def _post_until_refused(url: str, acknowledged: list[str], stop: threading.Event) -> None:
    """Post signed events one after another; note each id answered 2xx."""
    with httpx.Client(timeout=5) as http:
        while not stop.is_set():
            body, headers = delivery(envelope(), SECRETS.split(",")[1].strip(),
                                     int(time.time()))
            try:
                answer = http.post(url, content=body, headers=headers)
            except httpx.HTTPError:
                return
            if 200 <= answer.status_code < 300:
                acknowledged.append(headers["Service-Event-Id"])


@pytest.mark.parametrize("synchronous", ["full", "normal"])
def test_kill_9_mid_stream_loses_no_event_answered_2xx(tmp_path: Path, synchronous: str) -> None:
    db = tmp_path / "events.sqlite"
    server, url = _listen(db, synchronous)
    acknowledged: list[str] = []
    stop = threading.Event()
    senders = [threading.Thread(target=_post_until_refused, args=(url, acknowledged, stop))
               for _ in range(8)]
    try:
        for sender in senders:
            sender.start()
        deadline = time.monotonic() + 20
        while len(acknowledged) < 300 and time.monotonic() < deadline:
            time.sleep(0.01)
        server.send_signal(signal.SIGKILL)  # mid-stream: eight requests in flight
        server.wait(timeout=10)
    finally:
        stop.set()
        for sender in senders:
            sender.join(timeout=10)
        if server.poll() is None:
            server.kill()
            server.wait(timeout=10)
        assert server.stdout is not None
        server.stdout.close()
    assert len(acknowledged) >= 300
    with sqlite3.connect(db) as conn:
        stored = {row[0] for row in conn.execute("SELECT id FROM events")}
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert set(acknowledged) <= stored
    assert len(events_frame(db)) == len(stored)


def _post_one(url: str) -> str:
    """Post one signed event; its id, once answered 200."""
    body, headers = delivery(envelope(), SECRETS.split(",")[0], int(time.time()))
    assert httpx.post(url, content=body, headers=headers, timeout=5).status_code == 200
    return headers["Service-Event-Id"]


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_stop_signal_closes_the_store_and_leaves_no_wal(tmp_path: Path,
                                                          stop: signal.Signals) -> None:
    """Issue 46: uvicorn re-raises SIGTERM once it has shut down, which ended the process
    before the store was closed; the receiver closes it in the server's shutdown."""
    db = tmp_path / "events.sqlite"
    server, url = _listen(db)
    try:
        sent = _post_one(url)
        assert Path(f"{db}-wal").exists()  # the store is open, in WAL mode
        server.send_signal(stop)
        server.wait(timeout=10)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(timeout=10)
        assert server.stdout is not None
        server.stdout.close()
    assert not Path(f"{db}-wal").exists() and not Path(f"{db}-shm").exists()
    assert list(events_frame(db)["id"]) == [sent]


def test_a_sender_slower_than_request_timeout_is_cut_off(tmp_path: Path) -> None:
    """Issue 46, item 15: a request head sent a byte at a time held its connection for
    ever; ``--request-timeout`` closes it, and a delivery meanwhile is answered."""
    server, url = _listen(tmp_path / "events.sqlite", "full", "--request-timeout", "1")
    host, port = url.removeprefix("http://").split("/")[0].split(":")
    try:
        with socket.create_connection((host, int(port)), timeout=5) as slow:
            slow.sendall(b"POST /hooks/dialer HTTP/1.1\r\nHost: receiver\r\nX-Slow: a")
            started = time.monotonic()
            _post_one(url)
            answer = slow.recv(4096)
            took = time.monotonic() - started
    finally:
        server.terminate()
        server.wait(timeout=10)
        assert server.stdout is not None
        server.stdout.close()
    assert answer.startswith(b"HTTP/1.1 408 ") and 0.5 < took < 2.5, (answer, took)
