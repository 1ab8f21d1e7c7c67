"""Tools that can reach a person run only after the user confirms that very call.

Checked in the emulator's state: a click-to-call appears in the call list with
status ``dialing`` (seeded calls never have it).
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from mcp_harness import MODES, answering, audit, call, connect, run, text
from mcp_types import InputRequiredResult

from conftest import KEYS, ready_agents
from dialkit.sandbox import Sandbox

EASTERN = "+12125550142"
"""10:00 local at the session emulator's start (15:00 UTC): inside calling hours."""
DATASET = "client:acme/full"


@pytest.fixture
def extension(sandbox: Sandbox, api: httpx.Client) -> str:
    """An agent of the ``full`` client's data set, ready to take a call."""
    api.get("/v1/me").raise_for_status()
    return str(ready_agents(sandbox, DATASET)[0]["extension"])


def dialled(api: httpx.Client, to: str = EASTERN) -> int:
    """How many click-to-calls to ``to`` the emulator placed."""
    calls = api.get("/v1/calls", params={"limit": 100}).json()["data"]
    return sum(1 for c in calls if c["status"] == "dialing" and c["to_number"] == to)


@pytest.mark.parametrize("mode", MODES)
def test_a_confirmed_call_runs_once(sandbox: Sandbox, api: httpx.Client, extension: str,
                                    mode: str) -> None:
    asked: list[str] = []
    result = call(sandbox, KEYS["sending"], "calls_create",
                  {"to": EASTERN, "agent_extension": extension}, mode=mode,
                  answer=answering("accept", asked=asked))
    assert not result.is_error, text(result)
    assert result.structured_content["status"] == "dialing"
    assert asked == [f"Call +1 212 555 0142 now from agent {extension}."]
    assert dialled(api) == 1
    assert [r["confirmation"] for r in audit(sandbox)][-1] == "given"


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("action", "confirm", "verdict"), [
    ("decline", True, "declined"),
    ("cancel", True, "cancelled"),
    ("accept", False, "declined"),
])
def test_a_refused_call_never_runs(sandbox: Sandbox, api: httpx.Client, extension: str,
                                   mode: str, action: str, confirm: bool, verdict: str) -> None:
    result = call(sandbox, KEYS["sending"], "calls_create",
                  {"to": EASTERN, "agent_extension": extension}, mode=mode,
                  answer=answering(action, confirm))
    assert result.is_error and "Nothing was done" in text(result)
    assert result.structured_content["code"] == f"confirmation_{verdict}"
    assert dialled(api) == 0
    record = audit(sandbox)[-1]
    assert (record["outcome"], record["confirmation"], record["status"]) == (
        "not_run", verdict, None)


@pytest.mark.parametrize("mode", MODES)
def test_a_client_that_cannot_confirm_is_refused_with_a_clear_message(
        sandbox: Sandbox, api: httpx.Client, extension: str, mode: str) -> None:
    result = call(sandbox, KEYS["sending"], "sms_send",
                  {"to": EASTERN, "body": "Hello", "client_reference": "r-1"}, mode=mode)
    assert result.is_error
    assert "cannot ask the user" in text(result) and "Nothing was done" in text(result)
    assert api.get("/v1/sms/delivery-reports").json()["data"] == []
    assert audit(sandbox)[-1]["confirmation"] == "unsupported"


def test_an_unanswered_question_runs_nothing(sandbox: Sandbox, api: httpx.Client,
                                             extension: str) -> None:
    async def scenario() -> Any:
        async with connect(sandbox, KEYS["sending"], answer=answering("accept")) as client:
            return await client.session.call_tool(
                "calls_create", {"to": EASTERN, "agent_extension": extension},
                allow_input_required=True)

    first = run(scenario)
    assert isinstance(first, InputRequiredResult)
    question = first.input_requests["dialkit_confirm"]
    assert question.params.message == f"Call +1 212 555 0142 now from agent {extension}."
    assert dialled(api) == 0
    assert audit(sandbox)[-1]["confirmation"] == "asked"


@pytest.mark.parametrize("mode", MODES)
def test_a_retried_confirmed_call_does_not_dial_twice(sandbox: Sandbox, api: httpx.Client,
                                                     extension: str, mode: str) -> None:
    arguments = {"to": EASTERN, "agent_extension": extension}

    async def scenario() -> list[Any]:
        async with connect(sandbox, KEYS["sending"], mode=mode,
                           answer=answering("accept")) as client:
            return [await client.call_tool("calls_create", arguments) for _ in range(2)]

    first, retry = run(scenario)
    assert retry.structured_content == first.structured_content
    assert retry.meta["dialkit/replayed"] is True and "nothing was done again" in text(retry)
    assert dialled(api) == 1
    assert [r["replayed"] for r in audit(sandbox)[-2:]] == [False, True]


def test_a_lead_add_asks_only_when_it_can_reach_a_person(sandbox: Sandbox,
                                                        api: httpx.Client) -> None:
    campaigns = api.get("/v1/campaigns", params={"status": "paused", "limit": 1}).json()["data"]
    lead = {"campaign_id": campaigns[0]["id"], "phone": "+12125550199"}
    asked: list[str] = []
    quiet = call(sandbox, KEYS["full"], "leads_create", lead,
                 answer=answering("accept", asked=asked))
    assert not quiet.is_error and asked == []
    dial_now = call(sandbox, KEYS["full"], "leads_create", {**lead, "dial_now": True},
                    answer=answering("decline", asked=asked))
    assert dial_now.is_error and asked == [
        f"Add +1 212 555 0199 to campaign {lead['campaign_id']} and dial it first, within "
        "300 s: the campaign's dialler may call them."]
