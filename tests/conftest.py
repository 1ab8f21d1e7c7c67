"""Shared fixtures: emulators started in-process, over real HTTP on loopback.

``sandbox`` is one emulator for the whole session with rate limiting off and a
manual clock; an autouse fixture resets it before each test, so every test
starts from the seeded world. Tests that need another configuration start
their own with ``make_sandbox``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest

from dialkit import Client
from dialkit._law import _jurisdictions
from dialkit.client._http._transport import tls_context
from dialkit.contract import Scope, Switch
from dialkit.sandbox import Sandbox, parse_config, start
from receivers import Receiver, wait_for

Loaded = TypeVar("Loaded")

START = "2026-11-02T15:00:00Z"

KEYS = {
    "full": "svc_test_fullkey01_AAAAbbbbCCCCddddEEEEffff0001",
    "full_live": "svc_live_fulllive01_AAAAbbbbCCCCddddEEEEffff0002",
    "sending": "svc_test_sendkey01_AAAAbbbbCCCCddddEEEEffff0003",
    "other": "svc_test_otherkey01_AAAAbbbbCCCCddddEEEEffff0004",
    "reader": "svc_test_readkey01_AAAAbbbbCCCCddddEEEEffff0005",
    "noscope": "svc_test_noscope01_AAAAbbbbCCCCddddEEEEffff0006",
    "revoked": "svc_test_revoked01_AAAAbbbbCCCCddddEEEEffff0007",
    "nosandbox": "svc_test_nosandbx01_AAAAbbbbCCCCddddEEEEffff0008",
    "noswitch": "svc_test_noswitch01_AAAAbbbbCCCCddddEEEEffff0009",
}
"""Keys of the session emulator, by the role their client plays in tests."""

READ_SCOPES = [s for s in Scope if s.endswith(":read")]


def base_config() -> dict[str, Any]:
    """The session emulator's configuration (a TOML document as a dict)."""
    every = [s.value for s in Scope]
    return {
        "server": {"rate_limit_scale": 0, "clock": "manual", "start_time": START,
                   "allow_loopback_webhooks": True},
        "accounts": [
            {"name": "acme", "seed": 7, "scale": "small", "switches": [s.value for s in Switch],
             "recent_activity": False,  # tests count the events and messages they cause
             "clients": [
                 {"name": "full", "scopes": every, "keys": [
                     {"key": KEYS["full"]}, {"key": KEYS["full_live"]},
                     {"key": KEYS["sending"], "sending": True},
                     {"key": KEYS["revoked"], "revoked": True}]},
                 {"name": "other", "scopes": every, "keys": [{"key": KEYS["other"]}]},
                 {"name": "reader", "scopes": READ_SCOPES, "keys": [{"key": KEYS["reader"]}]},
                 {"name": "noscope", "keys": [{"key": KEYS["noscope"]}]},
             ]},
            {"name": "nosandbox", "sandbox_enabled": False, "clients": [
                {"name": "c", "scopes": every, "keys": [{"key": KEYS["nosandbox"]}]}]},
            {"name": "noswitch", "switches": [], "clients": [
                {"name": "c", "scopes": every, "keys": [{"key": KEYS["noswitch"]}]}]},
        ],
    }


@pytest.fixture(scope="session")
def sandbox() -> Iterator[Sandbox]:
    """The session's emulator."""
    with start(parse_config(base_config())) as running:
        yield running


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory,
                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test caches frames in a folder of its own, never in the user's cache."""
    monkeypatch.setenv("DIALKIT_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


def reset(running: Sandbox) -> None:
    """Put ``running`` back to its seeded world."""
    httpx.post(running.base_url + "/_sandbox/reset", headers=running.admin_headers,
               verify=tls_context()).raise_for_status()  # not 50 ms of CPU a test


@pytest.fixture(autouse=True)
def _fresh(request: pytest.FixtureRequest) -> None:
    """Reset the session emulator before each test that uses it."""
    if "sandbox" in request.fixturenames:
        reset(request.getfixturevalue("sandbox"))


def load_seeded(running: Sandbox, cache: Path, load: Callable[[Client], Loaded]) -> Loaded:
    """``load`` (a frames loader) of ``running``'s seeded world, reset first, with the
    ``full`` key and its frames cached in ``cache``: for a module's fixture, which loads
    once what each of its tests reads (a load is about a second)."""
    reset(running)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DIALKIT_CACHE_DIR", str(cache))
        with Client(KEYS["full"], base_url=running.base_url, rate_limit=None) as client:
            return load(client)


def client_for(running: Sandbox, key: str | None) -> httpx.Client:
    """An httpx client for ``running`` that sends ``key`` (none when ``None``), and the
    admin key, so that it can steer the emulator at ``/_sandbox`` too."""
    headers = {} if key is None else {"Authorization": f"Bearer {key}"}
    headers |= running.admin_headers
    return httpx.Client(base_url=running.base_url, headers=headers, timeout=10,
                        verify=tls_context())


@pytest.fixture
def api(sandbox: Sandbox) -> Iterator[httpx.Client]:
    """A client with the ``full`` test key: every scope, every switch."""
    with client_for(sandbox, KEYS["full"]) as http:
        yield http


@pytest.fixture
def key_client(sandbox: Sandbox) -> Iterator[Callable[[str], httpx.Client]]:
    """Clients for the other roles: ``key_client("reader")``."""
    made: list[httpx.Client] = []

    def make(role: str) -> httpx.Client:
        made.append(client_for(sandbox, KEYS[role]))
        return made[-1]

    yield make
    for http in made:
        http.close()


@pytest.fixture
def make_sandbox() -> Iterator[Callable[..., Sandbox]]:
    """Start an emulator with a custom configuration dict; stopped after the test."""
    running: list[Sandbox] = []

    def make(config: dict[str, Any], **kwargs: Any) -> Sandbox:
        running.append(start(parse_config(config), **kwargs))
        return running[-1]

    yield make
    for item in running:
        item.stop()


@pytest.fixture
def client(sandbox: Sandbox) -> Iterator[Client]:
    """A :class:`dialkit.Client` with the ``full`` test key; client-side limiting off."""
    with Client(KEYS["full"], base_url=sandbox.base_url, rate_limit=None) as made:
        yield made


@pytest.fixture
def client_as(sandbox: Sandbox) -> Iterator[Callable[..., Client]]:
    """dialkit clients for the other roles: ``client_as("sending", max_retries=0)``."""
    made: list[Client] = []

    def make(role: str, **options: Any) -> Client:
        options.setdefault("rate_limit", None)
        made.append(Client(KEYS[role], base_url=sandbox.base_url, **options))
        return made[-1]

    yield make
    for each in made:
        each.close()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    """A webhook receiver on 127.0.0.1 for the test."""
    running = Receiver()
    yield running
    running.close()


def add_fault(running: Sandbox, **rule: Any) -> dict[str, Any]:
    """Activate a fault rule (see docs/emulator.md) and return it as the emulator completed it."""
    answer = httpx.post(running.base_url + "/_sandbox/faults", json=rule, timeout=30,
                        headers=running.admin_headers, verify=tls_context())
    assert answer.status_code == 201, answer.text
    body: dict[str, Any] = answer.json()
    return body


def write(http: httpx.Client, path: str, body: Any = None, *, key: str = "k1",
          method: str = "POST", **kwargs: Any) -> httpx.Response:
    """A write with an Idempotency-Key (``key``)."""
    headers = {"Idempotency-Key": key, **kwargs.pop("headers", {})}
    return http.request(method, path, json=body, headers=headers, **kwargs)


def assert_problem(response: httpx.Response, status: int, code: str) -> dict[str, Any]:
    """Check an error answer's status, code and problem+json form; return its body."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    body: dict[str, Any] = response.json()
    assert body["code"] == code, body
    assert body["status"] == status
    if status in (429, 503):
        assert int(response.headers["retry-after"]) >= 0
    return body


def wait_until_running(running: Sandbox, key: str) -> None:
    """Wait until the emulator holds ``key``'s first request as still running (a request
    with the same key now answers 409 ``conflict``), rather than sleeping a guessed while."""
    wait_for(lambda: running.service.store.row(
        "SELECT 1 FROM idempotency WHERE key = ? AND state = 'running'", (key,)),
        what=f"the emulator to record Idempotency-Key {key!r} as running", interval=0.01)


def service_time(running: Sandbox) -> datetime:
    """The emulator's service time."""
    return datetime.fromisoformat(httpx.get(running.base_url + "/_sandbox/clock",
                                            verify=tls_context()).json()["now"])


def advance(running: Sandbox, seconds: float) -> dict[str, Any]:
    """Move the emulator's manual clock forward; the answer of POST /_sandbox/clock."""
    answer = httpx.post(running.base_url + "/_sandbox/clock", json={"advance_seconds": seconds},
                        headers=running.admin_headers, timeout=30, verify=tls_context())
    answer.raise_for_status()
    body: dict[str, Any] = answer.json()
    return body


def guard_truth(running: Sandbox) -> dict[str, dict[str, Any]]:
    """The numbers the session world plants for the client's guard (issue 50), by kind
    (``guard_dnc``, ``guard_hours``, ``guard_cap``), one of each."""
    answer = httpx.get(running.base_url + "/_sandbox/guard-truth", params={"account": "acme"},
                       headers=running.admin_headers, verify=tls_context())
    answer.raise_for_status()
    problems: dict[str, list[dict[str, Any]]] = answer.json()["problems"]
    assert sorted(problems) == ["guard_cap", "guard_dnc", "guard_hours"], problems
    return {kind: found[0] for kind, found in problems.items()}


def ready_agents(running: Sandbox, dataset: str = "client:acme/full") -> list[dict[str, Any]]:
    """The agents of a data set by extension, every one made ready to take a call.

    The contract offers no API for agent state, so the store is changed as the console
    would. The data set must exist: a data set is made by its client's first request.
    """
    store = running.service.store
    with store.lock:
        store.conn.execute("UPDATE agents SET state = 'ready', held_until = NULL "
                           "WHERE dataset = ?", (dataset,))
        rows = store.rows("SELECT * FROM agents WHERE dataset = ? ORDER BY extension",
                          (dataset,))
    assert len(rows) >= 3, f"the seeded data set {dataset} has agents"
    return [dict(row) for row in rows]


@pytest.fixture
def unconfirm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[[str], None]:
    """Make the law table a copy of the shipped file with one row's ``confirmed`` false,
    for the rest of the test: the shipped table has no unconfirmed row to test with."""

    def use(jid: str) -> None:
        marker = "[[jurisdiction]]\n"
        source = resources.files("dialkit._law").joinpath(_jurisdictions.DATA_FILE)
        head, *rows = source.read_text(encoding="utf-8").split(marker)
        (index,) = [n for n, row in enumerate(rows) if row.startswith(f'id = "{jid}"\n')]
        assert rows[index].count("confirmed = true\n") == 1, jid
        rows[index] = rows[index].replace("confirmed = true\n", "confirmed = false\n")
        copy = tmp_path / "jurisdictions.toml"
        copy.write_text(marker.join([head, *rows]), encoding="utf-8")
        table = _jurisdictions.load(copy)
        monkeypatch.setattr(_jurisdictions, "_table", lambda: table)

    return use
