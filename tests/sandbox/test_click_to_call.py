"""Click-to-call (POST /v1/calls) over HTTP: the contract's rules 1-7 and every refusal.

The contract offers no API for agent state, so tests set the state of an
agent in the caller's data set directly in the store, as the console would.
The session emulator's clock may have been moved by other tests, so numbers
inside or outside calling hours are picked by their local time now.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from itertools import count
from typing import Any
from zoneinfo import ZoneInfo

import httpx
import pytest

from conftest import (
    START,
    advance,
    assert_problem,
    base_config,
    client_for,
    ready_agents,
    service_time,
    write,
)
from dialkit.contract import id_pattern
from dialkit.sandbox import Sandbox, parse_config, start

DATASET = "client:acme/full"
"""The data set of the ``full`` client, whose keys include the sending key."""

LOCAL_NUMBERS = {
    "America/New_York": "+12125550142",
    "America/Los_Angeles": "+14155550142",
    "Europe/London": "+442079460142",
    "Australia/Sydney": "+61291234567",
    "Asia/Tokyo": "+81312345678",
}
"""Valid numbers, each in one time zone; together some are inside and some outside hours."""

IRAN = "+989121234567"
"""A valid number of a country the account blocks (KP and IR by default)."""

EASTERN = "+12125550142"
"""10:00 local at the emulator's start time (15:00 UTC)."""

_keys = count()






def number_at(running: Sandbox, *, allowed: bool) -> str:
    """A number whose local time now is inside (``allowed``) or outside 08:00-21:00."""
    now = service_time(running)
    for zone, number in LOCAL_NUMBERS.items():
        if (8 <= now.astimezone(ZoneInfo(zone)).hour < 21) == allowed:
            return number
    raise AssertionError("the zones of LOCAL_NUMBERS cover every hour")


def dial(http: httpx.Client, body: dict[str, Any], key: str | None = None) -> httpx.Response:
    """POST /v1/calls with a fresh Idempotency-Key unless one is given."""
    return write(http, "/v1/calls", body, key=key or f"call-{next(_keys)}")


def set_state(running: Sandbox, extension: str, state: str) -> None:
    """Put an agent of the ``full`` client's data set in ``state``."""
    with running.service.store.lock:
        running.service.store.conn.execute(
            "UPDATE agents SET state = ? WHERE dataset = ? AND extension = ?",
            (state, DATASET, extension))


def newest_call(http: httpx.Client) -> dict[str, Any]:
    """The first call of GET /v1/calls."""
    response = http.get("/v1/calls", params={"limit": 1})
    assert response.status_code == 200, response.text
    call: dict[str, Any] = response.json()["data"][0]
    return call


def nothing_dialled(http: httpx.Client) -> bool:
    """Whether no click-to-call was placed: seeded calls never have status ``dialing``."""
    status: str = newest_call(http)["status"]
    return status != "dialing"


@pytest.fixture
def sender(key_client: Callable[[str], httpx.Client]) -> httpx.Client:
    """A client with the session emulator's sending key (same data set as ``api``)."""
    return key_client("sending")


@pytest.fixture
def crew(sandbox: Sandbox, api: httpx.Client) -> list[dict[str, Any]]:
    """The ``full`` client's agents, all ready."""
    api.get("/v1/me").raise_for_status()
    return ready_agents(sandbox, DATASET)


def test_a_call_is_started_for_a_ready_agent(sender: httpx.Client, api: httpx.Client,
                                             sandbox: Sandbox,
                                             crew: list[dict[str, Any]]) -> None:
    to = number_at(sandbox, allowed=True)
    response = dial(sender, {"to": to, "agent_extension": crew[0]["extension"]})
    assert response.status_code == 201, response.text
    started = response.json()
    caller_ids = sandbox.service.store.rows(
        "SELECT phone FROM caller_ids WHERE dataset = 'seed:acme' ORDER BY phone")
    now = service_time(sandbox).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    assert re.fullmatch(id_pattern("call_"), started.pop("call_id"))
    assert started == {"status": "dialing", "to": to, "agent_extension": crew[0]["extension"],
                       "caller_id": caller_ids[0]["phone"], "campaign_id": None,
                       "lead_id": None, "recording": True, "created_at": now}
    listed = newest_call(api)
    assert listed == api.get(f"/v1/calls/{listed['id']}").json()
    assert listed == {"id": response.json()["call_id"], "direction": "outbound",
                      "from_number": caller_ids[0]["phone"], "to_number": to,
                      "status": "dialing", "created_at": now, "answered_at": None,
                      "ended_at": None, "duration_seconds": None, "campaign_id": None,
                      "disposition": None, "hangup_cause": None, "agent_joined_at": None}


def test_the_agent_can_be_named_by_email_and_the_references_are_kept(
        sender: httpx.Client, api: httpx.Client, sandbox: Sandbox,
        crew: list[dict[str, Any]]) -> None:
    campaign = api.get("/v1/campaigns", params={"status": "running"}).json()["data"][0]
    lead = api.get("/v1/leads", params={"campaign_id": campaign["id"], "limit": 1}
                   ).json()["data"][0]
    caller_id = sandbox.service.store.rows(
        "SELECT phone FROM caller_ids WHERE dataset = 'seed:acme' ORDER BY phone")[-1]["phone"]
    body = {"to": number_at(sandbox, allowed=True), "agent_email": crew[1]["email"].upper(),
            "caller_id": caller_id, "campaign_id": lead["campaign_id"], "lead_id": lead["id"]}
    started = dial(sender, body).json()
    assert (started["agent_extension"], started["caller_id"]) == (crew[1]["extension"],
                                                                  caller_id)
    assert (started["campaign_id"], started["lead_id"]) == (lead["campaign_id"], lead["id"])
    assert newest_call(api)["campaign_id"] == lead["campaign_id"]


@pytest.mark.parametrize("state", ["on_call", "wrap_up", "break", "signed_out"])
def test_an_agent_who_is_not_ready_is_unavailable(sender: httpx.Client, api: httpx.Client,
                                                  sandbox: Sandbox, crew: list[dict[str, Any]],
                                                  state: str) -> None:
    set_state(sandbox, crew[0]["extension"], state)
    response = dial(sender, {"to": number_at(sandbox, allowed=True),
                             "agent_extension": crew[0]["extension"]})
    assert_problem(response, 409, "agent_unavailable")
    assert nothing_dialled(api)


@pytest.mark.parametrize("agent", [{"agent_extension": "no-such-extension"},
                                   {"agent_email": "nobody@example.invalid"}])
def test_an_agent_of_no_account_is_unavailable(sender: httpx.Client, api: httpx.Client,
                                               agent: dict[str, str]) -> None:
    assert_problem(dial(sender, {"to": EASTERN, **agent}), 409, "agent_unavailable")
    assert nothing_dialled(api)


def test_an_agent_held_for_a_call_is_unavailable_until_the_call_ends(
        sender: httpx.Client, sandbox: Sandbox, crew: list[dict[str, Any]]) -> None:
    agent = {"agent_extension": crew[0]["extension"]}
    assert dial(sender, {"to": number_at(sandbox, allowed=True), **agent}).status_code == 201
    assert_problem(dial(sender, {"to": number_at(sandbox, allowed=True), **agent}), 409,
                   "agent_unavailable")
    advance(sandbox, 30 * 60)
    assert dial(sender, {"to": number_at(sandbox, allowed=True), **agent}).status_code == 201


def test_a_refused_call_releases_the_agent_at_once(sender: httpx.Client, sandbox: Sandbox,
                                                   crew: list[dict[str, Any]]) -> None:
    agent = {"agent_extension": crew[0]["extension"]}
    assert_problem(dial(sender, {"to": IRAN, **agent}), 422, "blocked_country")
    assert dial(sender, {"to": number_at(sandbox, allowed=True), **agent}).status_code == 201


def test_a_new_key_places_a_new_call_and_the_same_key_replays(
        sender: httpx.Client, sandbox: Sandbox, crew: list[dict[str, Any]]) -> None:
    to = number_at(sandbox, allowed=True)
    first = dial(sender, {"to": to, "agent_extension": crew[0]["extension"]}, key="same")
    again = dial(sender, {"to": to, "agent_extension": crew[0]["extension"]}, key="same")
    assert (again.status_code, again.json()) == (201, first.json())
    assert again.headers["idempotency-replayed"] == "true"
    other = dial(sender, {"to": to, "agent_extension": crew[1]["extension"]}, key="new")
    assert other.status_code == 201
    assert other.json()["call_id"] != first.json()["call_id"]


def test_a_caller_id_that_is_not_verified_is_refused(sender: httpx.Client, api: httpx.Client,
                                                     sandbox: Sandbox,
                                                     crew: list[dict[str, Any]]) -> None:
    body = {"to": number_at(sandbox, allowed=True), "agent_extension": crew[0]["extension"],
            "caller_id": "+12125550199"}
    problem = assert_problem(dial(sender, body), 422, "dial_refused")
    assert problem["errors"] == [{"pointer": "/caller_id", "code": "caller_id_not_registered"}]
    assert nothing_dialled(api)


def test_a_number_on_the_dnc_list_is_refused(sender: httpx.Client, api: httpx.Client,
                                             sandbox: Sandbox, crew: list[dict[str, Any]]) -> None:
    seeded = sandbox.service.store.row("SELECT phone FROM dnc WHERE dataset = 'seed:acme'")
    assert seeded is not None
    agent = {"agent_extension": crew[0]["extension"]}
    assert_problem(dial(sender, {"to": seeded["phone"], **agent}), 422, "on_dnc")
    to = number_at(sandbox, allowed=True)
    write(api, "/v1/dnc", {"phone": to}).raise_for_status()
    assert_problem(dial(sender, {"to": to, **agent}), 422, "on_dnc")
    assert nothing_dialled(api)


def test_a_blocked_country_is_refused(sender: httpx.Client, api: httpx.Client,
                                      crew: list[dict[str, Any]]) -> None:
    assert_problem(dial(sender, {"to": IRAN, "agent_extension": crew[0]["extension"]}), 422,
                   "blocked_country")
    assert nothing_dialled(api)


def test_outside_calling_hours_is_refused(sender: httpx.Client, api: httpx.Client,
                                          sandbox: Sandbox, crew: list[dict[str, Any]]) -> None:
    body = {"to": number_at(sandbox, allowed=False), "agent_extension": crew[0]["extension"]}
    problem = assert_problem(dial(sender, body), 422, "dial_refused")
    assert problem["errors"] == [{"pointer": "/to", "code": "calling_hours"}]
    assert nothing_dialled(api)


def test_withdrawn_consent_to_calls_is_refused(sender: httpx.Client, api: httpx.Client,
                                               sandbox: Sandbox,
                                               crew: list[dict[str, Any]]) -> None:
    to = number_at(sandbox, allowed=True)
    write(api, "/v1/consents", {"phone": to, "channel": "call", "granted": False,
                                "captured_at": "2026-10-20T10:00:00Z", "method": "verbal"},
          ).raise_for_status()
    problem = assert_problem(dial(sender, {"to": to, "agent_extension": crew[0]["extension"]}),
                             422, "dial_refused")
    assert problem["errors"] == [{"pointer": "/to", "code": "no_consent"}]
    assert nothing_dialled(api)


@pytest.mark.parametrize(("change", "pointer"), [
    ({"to": "+1555"}, "/to"),
    ({"to": "2125550142"}, "/to"),
    ({"agent_email": "agent@example.com"}, ""),
    ({"agent_extension": None}, ""),
    ({"campaign_id": "cmp_1"}, "/campaign_id"),
    ({"dial_now": True}, "/dial_now"),
])
def test_invalid_bodies_are_refused(sender: httpx.Client, api: httpx.Client,
                                    change: dict[str, Any], pointer: str) -> None:
    body = {key: value for key, value in {"to": EASTERN, "agent_extension": "101", **change}
            .items() if value is not None}
    problem = assert_problem(dial(sender, body), 400, "validation_failed")
    assert problem["errors"][0]["pointer"] == pointer
    assert nothing_dialled(api)


@pytest.mark.parametrize("reference", [
    {"campaign_id": "cmp_00000000-0000-4000-8000-000000000000"},
    {"lead_id": "lead_00000000-0000-4000-8000-000000000000"},
])
def test_an_unknown_campaign_or_lead_is_not_found(sender: httpx.Client, api: httpx.Client,
                                                  crew: list[dict[str, Any]],
                                                  reference: dict[str, str]) -> None:
    body = {"to": EASTERN, "agent_extension": crew[0]["extension"], **reference}
    assert_problem(dial(sender, body), 404, "not_found")
    assert nothing_dialled(api)


@pytest.mark.parametrize(("role", "status", "code"), [
    ("full", 403, "tier_not_enabled"),
    ("noswitch", 403, "tier_not_enabled"),
    ("reader", 403, "insufficient_scope"),
])
def test_a_call_needs_scope_switch_and_a_sending_key(key_client: Callable[[str], httpx.Client],
                                                     role: str, status: int, code: str) -> None:
    assert_problem(dial(key_client(role), {"to": EASTERN, "agent_extension": "101"}), status,
                   code)


def _key(account: str, serial: int = 0) -> str:
    """The key number ``serial`` of an account of the limits emulator."""
    return f"svc_test_{account}cred{serial}_AAAAbbbbCCCCddddEEEEffff{serial:04d}"


def _account(name: str, **settings: Any) -> dict[str, Any]:
    """An account of the limits emulator: one client with every scope and a sending key."""
    scopes = base_config()["accounts"][0]["clients"][0]["scopes"]
    switches = base_config()["accounts"][0]["switches"]
    keys = settings.pop("keys", [{"key": _key(name), "sending": True}])
    return {"name": name, "switches": switches, **settings,
            "clients": [{"name": "c", "scopes": scopes, "keys": keys}]}


@pytest.fixture(scope="module")
def limits() -> Iterator[Sandbox]:
    """An emulator whose accounts each hit one sending limit."""
    config: dict[str, Any] = {
        "server": {"rate_limit_scale": 0, "clock": "manual", "start_time": START},
        "accounts": [
            _account("poor", balance=0),
            _account("quota", daily_cap=1),
            _account("spend", spend_limit=0.06),
            _account("keycaps", keys=[
                {"key": _key("keycaps", 1), "sending": True, "daily_cap": 1},
                {"key": _key("keycaps", 2), "sending": True, "per_minute_cap": 1}]),
            _account("suspended", sending_suspended=True),
            _account("unapproved", outbound_approved=False),
        ],
    }
    with start(parse_config(config)) as running:
        yield running


@pytest.fixture
def limited(limits: Sandbox) -> Iterator[Callable[[str, int], httpx.Client]]:
    """Clients of the limits emulator by account (and key serial), freshly reset."""
    httpx.post(limits.base_url + "/_sandbox/reset",
               headers=limits.admin_headers).raise_for_status()
    made: list[httpx.Client] = []

    def make(account: str, serial: int = 0) -> httpx.Client:
        made.append(client_for(limits, _key(account, serial)))
        made[-1].get("/v1/me").raise_for_status()
        return made[-1]

    yield make
    for http in made:
        http.close()


def _two_calls(limits: Sandbox, http: httpx.Client, account: str) -> list[httpx.Response]:
    """Two calls from one key, with two ready agents of the account."""
    crew = ready_agents(limits, f"client:{account}/c")
    return [dial(http, {"to": EASTERN, "agent_extension": agent["extension"]})
            for agent in crew[:2]]


@pytest.mark.parametrize(("account", "serial", "code"), [
    ("quota", 0, "daily_cap_reached"),
    ("spend", 0, "spend_cap_reached"),
    ("keycaps", 1, "daily_cap_reached"),
    ("keycaps", 2, "rate_limit_exceeded"),
])
def test_caps_refuse_the_call_after_the_first(limits: Sandbox,
                                              limited: Callable[[str, int], httpx.Client],
                                              account: str, serial: int, code: str) -> None:
    first, second = _two_calls(limits, limited(account, serial), account)
    assert first.status_code == 201, first.text
    assert_problem(second, 429, code)


def test_the_per_minute_cap_frees_up_after_a_minute(limits: Sandbox,
                                                    limited: Callable[[str, int], httpx.Client]
                                                    ) -> None:
    http = limited("keycaps", 2)
    crew = ready_agents(limits, "client:keycaps/c")
    assert dial(http, {"to": EASTERN, "agent_extension": crew[0]["extension"]}).status_code == 201
    advance(limits, 61)
    assert dial(http, {"to": EASTERN, "agent_extension": crew[1]["extension"]}).status_code == 201


@pytest.mark.parametrize(("account", "status", "code"), [
    ("poor", 402, "insufficient_balance"),
    ("suspended", 403, "sending_suspended"),
    ("unapproved", 403, "outbound_not_approved"),
])
def test_the_account_sending_state_refuses_calls(limits: Sandbox,
                                                 limited: Callable[[str, int], httpx.Client],
                                                 account: str, status: int, code: str) -> None:
    http = limited(account, 0)
    crew = ready_agents(limits, f"client:{account}/c")
    response = dial(http, {"to": EASTERN, "agent_extension": crew[0]["extension"]})
    assert_problem(response, status, code)
    assert nothing_dialled(http)


def test_an_account_without_verified_caller_ids_cannot_dial(
        limits: Sandbox, limited: Callable[[str, int], httpx.Client]) -> None:
    http = limited("quota", 0)
    crew = ready_agents(limits, "client:quota/c")
    store = limits.service.store
    with store.lock:
        kept = store.rows("SELECT * FROM caller_ids WHERE dataset = 'seed:quota'")
        store.conn.execute("DELETE FROM caller_ids WHERE dataset = 'seed:quota'")
    try:
        problem = assert_problem(dial(http, {"to": EASTERN,
                                             "agent_extension": crew[0]["extension"]}),
                                 422, "dial_refused")
    finally:
        with store.lock:
            store.conn.executemany("INSERT INTO caller_ids VALUES (?, ?)", kept)
    assert problem["errors"] == [{"pointer": "/caller_id", "code": "caller_id_not_registered"}]
