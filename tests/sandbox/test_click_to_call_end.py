"""A click-to-call placed with POST /v1/calls ends as the manual clock moves."""

from __future__ import annotations

from collections.abc import Callable

import httpx
from test_click_to_call import dial, number_at

from conftest import advance, assert_problem, ready_agents
from dialkit.sandbox import Sandbox


def test_a_click_to_call_ends_and_frees_its_agent(
        sandbox: Sandbox, key_client: Callable[[str], httpx.Client]) -> None:
    http = key_client("sending")
    http.get("/v1/me").raise_for_status()  # the client's data set exists from its first request
    agent = ready_agents(sandbox)[0]
    to = number_at(sandbox, allowed=True)
    started = dial(http, {"to": to, "agent_extension": agent["extension"]})
    assert started.status_code == 201, started.text
    call_id = started.json()["call_id"]
    assert http.get(f"/v1/calls/{call_id}").json()["status"] == "dialing"
    assert_problem(dial(http, {"to": to, "agent_extension": agent["extension"]}), 409,
                   "agent_unavailable")

    advance(sandbox, 31 * 60)

    call = http.get(f"/v1/calls/{call_id}").json()
    assert call["status"] != "dialing"
    assert call["ended_at"] is not None
    assert 0 < call["duration_seconds"] <= 30 * 60
    events = http.get("/v1/webhook-events", params={"type": "call.completed"}).json()["data"]
    assert call_id in {e["data"]["call_id"] for e in events}
    again = dial(http, {"to": to, "agent_extension": agent["extension"]})
    assert again.status_code == 201, again.text


def test_a_click_to_call_still_ringing_is_left_dialing(
        sandbox: Sandbox, key_client: Callable[[str], httpx.Client]) -> None:
    http = key_client("sending")
    http.get("/v1/me").raise_for_status()  # the client's data set exists from its first request
    agent = ready_agents(sandbox)[0]
    started = dial(http, {"to": number_at(sandbox, allowed=True),
                          "agent_extension": agent["extension"]})
    advance(sandbox, 0.4)  # no drawn course ends sooner than 0.5 s (a failed call's ring)
    assert http.get(f"/v1/calls/{started.json()['call_id']}").json()["status"] == "dialing"
