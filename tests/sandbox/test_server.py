"""Running the emulator: in-process with :func:`dialkit.sandbox.start`, and the
``dialkit sandbox serve`` command as a real subprocess (its first line, its
refusal of a bad configuration, and ``--db`` keeping data across restarts).
"""

from __future__ import annotations

import os
import queue
import re
import socket
import sqlite3
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from test_auth import campaign_in, campaign_status

from conftest import KEYS, base_config, write
from dialkit.sandbox import (
    ApiKey,
    ConfigError,
    Sandbox,
    SandboxStartError,
    _server,
    parse_config,
    start,
)
from receivers import wait_for

DIALKIT = str(Path(sys.executable).parent / "dialkit")
LISTENING = re.compile(r"^listening on http://127\.0\.0\.1:(\d+)$")
LIVE = "svc_live_srvlive01_AAAAbbbbCCCCddddEEEEffff0201"
TEST = "svc_test_srvtest01_AAAAbbbbCCCCddddEEEEffff0202"
CONFIG = f"""
[server]
rate_limit_scale = 0

[[accounts]]
name = "acme"

[[accounts.clients]]
name = "crm"
scopes = ["campaigns:read", "campaigns:pause"]
keys = [{{ key = "{TEST}" }}, {{ key = "{LIVE}" }}]
"""


def free_port() -> int:
    """A port nothing listens on (just released by the OS)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def refused(base_url: str) -> bool:
    """Whether nothing answers at ``base_url``."""
    try:
        httpx.get(base_url + "/v1/me", timeout=2)
    except httpx.ConnectError:
        return True
    return False


def authorized(base_url: str, key: str) -> httpx.Client:
    """A client for ``base_url`` sending ``key``."""
    return httpx.Client(base_url=base_url, headers={"Authorization": f"Bearer {key}"},
                        timeout=10)


# In-process.

def test_start_answers_and_stop_closes_the_port() -> None:
    running = start(parse_config(base_config()))
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+", running.base_url)
    with authorized(running.base_url, KEYS["full"]) as http:
        assert http.get("/v1/me").status_code == 200
    running.stop()
    assert refused(running.base_url)
    running.stop()


def test_sandbox_is_a_context_manager() -> None:
    with start(parse_config(base_config())) as running:
        assert isinstance(running, Sandbox)
        assert httpx.get(running.base_url + "/_sandbox/clock").status_code == 200
    assert refused(running.base_url)


def test_an_emulator_of_worlds_built_before_has_the_same_rows_and_its_own_store() -> None:
    """A second emulator of the same worlds in this process copies the first's store as it
    was built (rather than build the worlds again): the same seeded rows, none of the
    first's changes, a world id and cursor secret of its own."""
    config = parse_config(base_config())
    seeded = "SELECT * FROM campaigns WHERE dataset = 'seed:acme' ORDER BY id"
    with start(config) as first:
        built = [tuple(row) for row in first.service.store.rows(seeded)]
        first.service.store.conn.execute("UPDATE campaigns SET name = 'changed'")
        with start(config) as second, start(config) as third:
            assert [tuple(row) for row in second.service.store.rows(seeded)] == built
            assert len(built) > 5 and "changed" not in {row[2] for row in built}
            second.service.store.conn.execute("DELETE FROM campaigns")
            assert [tuple(row) for row in third.service.store.rows(seeded)] == built
            stores = [first.service, second.service, third.service]
            assert len({service.world_id for service in stores}) == 3
            assert len({service.store.meta("cursor_secret") for service in stores}) == 3


def test_start_with_no_config_serves_one_client_with_a_test_and_a_sending_key() -> None:
    with start() as running:
        assert sorted(running.keys) == ["demo/default/sending", "demo/default/test", "sending",
                                        "test"]
        assert running.keys["test"] == running.keys["demo/default/test"]
        with authorized(running.base_url, running.keys["test"]) as http:
            assert http.get("/v1/me").json()["key"]["mode"] == "test"


def test_start_reads_a_config_file(tmp_path: Path) -> None:
    path = tmp_path / "sandbox.toml"
    path.write_text(CONFIG, encoding="utf-8")
    with start(path) as running, authorized(running.base_url, LIVE) as http:
        assert sorted(running.keys) == ["acme/crm/live", "acme/crm/test", "live", "test"]
        assert http.get("/v1/me").json()["key"]["mode"] == "live"


def test_start_on_a_taken_port_fails_quickly() -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        began = time.monotonic()
        with pytest.raises(SandboxStartError, match=str(port)):
            start(parse_config(base_config()), port=port)
        assert time.monotonic() - began < 5


def test_reprs_never_show_a_full_key(sandbox: Sandbox) -> None:
    shown = [repr(sandbox), str(sandbox), repr(sandbox.keys), repr(dict(sandbox.keys)),
             *(repr(k) for k in sandbox.keys.values())]
    for key in sandbox.keys.values():
        assert isinstance(key, ApiKey) and key.startswith("svc_")
        assert all(key not in text for text in shown)
        assert f"…{key[-4:]}" in repr(key)
    assert sandbox.base_url in repr(sandbox)


def test_keys_are_labelled_by_account_client_and_kind(sandbox: Sandbox) -> None:
    assert sandbox.keys["acme/full/test"] == KEYS["full"]
    assert sandbox.keys["acme/full/live"] == KEYS["full_live"]
    assert sandbox.keys["acme/full/sending"] == KEYS["sending"]
    assert KEYS["revoked"] not in sandbox.keys.values()


# The CLI as a subprocess.

class Served:
    """A ``dialkit sandbox serve`` process (or ``command``'s) and the lines it printed."""

    def __init__(self, *args: str, command: tuple[str, ...] = (DIALKIT, "sandbox", "serve")
                 ) -> None:
        self.process = subprocess.Popen([*command, *args],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True)
        self.lines: queue.Queue[str] = queue.Queue()
        self.errors: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_errors, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))

    def _read_errors(self) -> None:
        """Drain standard error (the server's log), so the pipe never fills and blocks it."""
        assert self.process.stderr is not None
        self.errors.extend(self.process.stderr)

    def line(self) -> str:
        """The next line of standard output (waiting up to 30 s for start-up)."""
        try:
            return self.lines.get(timeout=30)
        except queue.Empty:
            raise AssertionError("no output; standard error was:\n" + "".join(self.errors)) \
                from None

    def base_url(self) -> str:
        """The address from the first line, which must be exactly ``listening on <url>``."""
        first = self.line()
        assert LISTENING.fullmatch(first), first
        return first.removeprefix("listening on ")

    def stop(self) -> None:
        """Interrupt the server and wait for it."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        for pipe in (self.process.stdout, self.process.stderr):
            if pipe is not None:
                pipe.close()


@pytest.fixture
def serve() -> Iterator[Callable[..., Served]]:
    """Start ``dialkit sandbox serve`` with arguments; every process is stopped afterwards."""
    started: list[Served] = []

    def run(*args: str, **options: tuple[str, ...]) -> Served:
        started.append(Served(*args, **options))
        return started[-1]

    yield run
    for served in started:
        served.stop()


def test_cli_prints_its_address_first_then_answers(serve: Callable[..., Served]) -> None:
    served = serve("--port", "0")
    base_url = served.base_url()
    keys = dict(served.line().split(" key: ") for _ in range(2))
    assert sorted(keys) == ["sending", "test"]
    with authorized(base_url, keys["test"]) as http:
        assert http.get("/v1/me").status_code == 200


def test_the_library_serves_as_the_command_does(serve: Callable[..., Served]) -> None:
    """``dialkit.sandbox.serve``, which the command calls, from a script of its own."""
    served = serve("-c", "import dialkit.sandbox; dialkit.sandbox.serve(port=0)",
                   command=(sys.executable,))
    base_url = served.base_url()
    keys = dict(served.line().split(" key: ") for _ in range(2))
    assert served.line() == f"mcp url: {base_url}/mcp"
    with authorized(base_url, keys["sending"]) as http:
        assert http.get("/v1/me").status_code == 200


def test_cli_refuses_bad_config_and_listens_nowhere(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(CONFIG.replace('"campaigns:pause"', '"campaigns:stop"'), encoding="utf-8")
    port = free_port()
    result = subprocess.run([DIALKIT, "sandbox", "serve", "--port", str(port), "--config",
                             str(path)], capture_output=True, text=True, timeout=60)
    assert result.returncode != 0
    assert "listening on" not in result.stdout
    assert "accounts[0].clients[0].scopes[1]: " in result.stderr
    assert "'campaigns:pause'" in result.stderr
    assert refused(f"http://127.0.0.1:{port}")


def test_cli_on_a_taken_port_exits_with_an_error(tmp_path: Path) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        result = subprocess.run([DIALKIT, "sandbox", "serve", "--port", str(port)],
                                capture_output=True, text=True, timeout=60)
    assert result.returncode != 0
    assert f"cannot listen on 127.0.0.1:{port}" in result.stderr


def test_cli_db_keeps_data_across_restarts(tmp_path: Path,
                                           serve: Callable[..., Served]) -> None:
    config, db = tmp_path / "sandbox.toml", tmp_path / "sandbox.db"
    config.write_text(CONFIG, encoding="utf-8")
    args = ("--port", "0", "--config", str(config), "--db", str(db))
    first = serve(*args)
    url = first.base_url()
    with authorized(url, LIVE) as live, authorized(url, TEST) as test:
        live_pause = f"/v1/campaigns/{campaign_in(live, 'running')}/pause"
        test_pause = f"/v1/campaigns/{campaign_in(test, 'running')}/pause"
        paused = write(live, live_pause, key="pause-1")
        assert paused.status_code == 200, paused.text
        assert write(test, test_pause, key="pause-2").status_code == 200
    first.stop()
    url = serve(*args).base_url()
    with authorized(url, LIVE) as live, authorized(url, TEST) as test:
        assert campaign_status(live, live_pause.split("/")[3]) == "paused"
        assert campaign_status(test, test_pause.split("/")[3]) == "paused"
        replay = write(live, live_pause, key="pause-1")
        assert replay.headers["idempotency-replayed"] == "true"
        assert replay.content == paused.content


def test_start_raises_when_the_server_thread_dies_during_start_up(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """uvicorn ends its thread quietly when it cannot serve; start() must say so, not hang."""
    def unusable(host: str, port: int) -> socket.socket:
        sock = socket.socket()
        sock.close()  # uvicorn's thread fails on a closed socket
        return sock

    monkeypatch.setattr(_server, "bind", unusable)
    began = time.monotonic()
    with pytest.raises(SandboxStartError, match="stopped during start-up"):
        start()
    assert time.monotonic() - began < _server.STARTUP_DEADLINE_SECONDS


# Beyond loopback (issue 46): refused unless meant, warned, and printed as URLs that work.

def test_cli_refuses_a_remote_bind_without_an_admin_key_or_the_flag() -> None:
    environment = {k: v for k, v in os.environ.items() if k != "DIALKIT_SANDBOX_ADMIN_KEY"}
    result = subprocess.run([DIALKIT, "sandbox", "serve", "--host", "0.0.0.0", "--port", "0"],
                            capture_output=True, text=True, timeout=60, env=environment)
    assert result.returncode == 2 and "listening on" not in result.stdout
    assert result.stderr.startswith("error: '0.0.0.0' is not a loopback address")
    assert "--admin-key" in result.stderr and "--allow-remote" in result.stderr
    assert "admin_key=" not in result.stderr
    with pytest.raises(SandboxStartError, match=r"admin_key= .* allow_remote=True"):
        start(host="0.0.0.0")


def test_cli_on_every_interface_warns_and_prints_urls_that_work(
        serve: Callable[..., Served]) -> None:
    served = serve("--host", "0.0.0.0", "--port", "0", "--allow-remote")
    base_url = served.base_url()  # http://127.0.0.1:PORT, not http://0.0.0.0:PORT
    keys = dict(served.line().split(" key: ") for _ in range(2))
    mcp_url = served.line().removeprefix("mcp url: ")
    admin = {"X-Sandbox-Admin-Key": served.line().removeprefix("admin key: ")}
    assert mcp_url == f"{base_url}/mcp"
    initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"}}}
    answer = httpx.post(mcp_url, json=initialize, timeout=30, headers={  # it loads the SDK
        "Authorization": f"Bearer {keys['test']}",
        "Accept": "application/json, text/event-stream"})
    assert answer.status_code == 200, answer.text
    by_name = f"{socket.gethostname()}:{base_url.rsplit(':', 1)[1]}"  # from another machine
    audit = httpx.get(base_url + "/_sandbox/mcp/audit", timeout=10,
                      headers={**admin, "Host": by_name})
    assert audit.status_code == 200, audit.text
    wait_for(lambda: any("serving on 0.0.0.0" in line for line in served.errors),
             what="the warning of a remote bind")


# The world file (issue 46): owner-only, and only an emulator's.

def modes(folder: Path) -> dict[str, int]:
    """The permission bits of every file in ``folder``, by name."""
    return {path.name: stat.S_IMODE(path.stat().st_mode) for path in folder.iterdir()}


def test_a_config_worlds_file_and_its_wal_are_owner_only(tmp_path: Path) -> None:
    config, folder = tmp_path / "sandbox.toml", tmp_path / "world"
    config.write_text(CONFIG, encoding="utf-8")
    folder.mkdir()
    db = folder / "world.db"
    with start(config, db=db):
        assert set(modes(folder)) == {"world.db", "world.db-wal", "world.db-shm"}
        assert set(modes(folder).values()) == {0o600}
    for path in folder.iterdir():  # a world kept by an older version
        path.chmod(0o644)
    with start(config, db=db):
        assert set(modes(folder).values()) == {0o600}


def test_a_file_that_is_not_sqlite_is_refused_and_left_alone(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("buy milk\n", encoding="utf-8")
    result = subprocess.run([DIALKIT, "sandbox", "serve", "--port", "0", "--db", str(notes)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.startswith(f"error: {notes} is not a SQLite file")
    assert "--db" in result.stderr and "db=" not in result.stderr.replace("--db", "")
    assert notes.read_text(encoding="utf-8") == "buy milk\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_another_programs_database_is_refused_before_anything_changes(tmp_path: Path) -> None:
    other = tmp_path / "crm.sqlite"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE contacts (name TEXT)")
        conn.execute("INSERT INTO contacts VALUES ('Ada')")
    conn.close()
    before = other.read_bytes()
    with pytest.raises(ConfigError, match=r"another program's SQLite database \(tables "
                                          r"contacts\)"):
        start(db=other)
    assert other.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["crm.sqlite"]  # no -wal: not WAL


def test_a_world_kept_before_the_marker_is_still_opened(tmp_path: Path) -> None:
    db = tmp_path / "world.db"
    with start(db=db) as first:
        keys = dict(first.keys)
    with sqlite3.connect(db) as conn:
        conn.execute("DELETE FROM meta WHERE key = 'dialkit_world'")
    conn.close()
    with start(db=db) as again:
        assert dict(again.keys) == keys
