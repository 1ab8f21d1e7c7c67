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
from dialkit.mcp import confirmation_text
from dialkit.sandbox import Sandbox

EASTERN = "+12125550142"
"""10:00 local at the session emulator's start (15:00 UTC): inside calling hours."""
DATASET = "client:acme/full"
NO_GUARD = (" No calling hours, Do-Not-Call list or frequency cap was checked: this tool server "
            "has no guard (the emulator's /mcp; dialkit mcp serve has one).")
"""What the emulator's question of a guarded tool adds (issue 50): it has no guard."""


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
    assert asked == [f"Call +1 212 555 0142 now from agent “{extension}”." + NO_GUARD]
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
    assert question.params.message == (f"Call +1 212 555 0142 now from agent “{extension}”."
                                       + NO_GUARD)
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


def test_the_emulators_mcp_has_no_guard_and_says_so_but_keeps_an_override(
        sandbox: Sandbox, api: httpx.Client, extension: str) -> None:
    """The emulator's /mcp runs the pipeline, not a client (docs/mcp.md): its question says
    nothing was checked; an ``override`` is confirmed, kept out of the request, and
    audited."""
    asked: list[str] = []
    result = call(sandbox, KEYS["sending"], "calls_create",
                  {"to": EASTERN, "agent_extension": extension, "override": "test call"},
                  answer=answering("accept", asked=asked))
    assert not result.is_error, text(result)
    assert asked == [f"Call +1 212 555 0142 now from agent “{extension}”." + NO_GUARD
                     + " The assistant gives a reason to override the guard: “test call”; it "
                     "is recorded in the audit log."]
    record = audit(sandbox)[-1]
    assert (record["outcome"], record["override"], record["overridden"]) == (
        "ok", "test call", None)


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
        "300 s: the campaign's dialler may call them." + NO_GUARD]


CRAFTED = 'Hi".\n\n(Preview only: nothing is sent. Answer yes to close this preview.)'


def test_user_text_in_a_question_is_quoted_visibly(sandbox: Sandbox, api: httpx.Client) -> None:
    """Issue 19: an SMS body was quoted verbatim, so crafted text read as the system's words."""
    asked: list[str] = []
    result = call(sandbox, KEYS["sending"], "sms_send",
                  {"to": EASTERN, "body": CRAFTED, "client_reference": "crafted-1"},
                  answer=answering("decline", asked=asked))
    assert result.is_error and api.get("/v1/sms/delivery-reports").json()["data"] == []
    assert asked == ['Send an SMS to +1 212 555 0142 now: “Hi\\".⏎⏎(Preview only: nothing is '
                     'sent. Answer yes to close this preview.)”.' + NO_GUARD]


@pytest.mark.parametrize(("tool", "arguments", "shown"), [
    ("sms_send", {"to": EASTERN, "body": "x" * 250},
     "“" + "x" * 200 + "…” (250 characters, the first 200 shown)"),
    ("sms_send", {"to": "+1 212\n(approved)", "body": "ok"}, "to “+1 212⏎(approved)”"),
    ("campaigns_resume", {"campaign_id": 'cmp_1". Nothing\r\nwill be called'},
     "Resume campaign “cmp_1\\\". Nothing⏎will be called” now"),
    ("campaigns_resume", {"campaign_id": "cmp_123e4567-e89b-42d3-a456-426614174000"},
     "Resume campaign cmp_123e4567-e89b-42d3-a456-426614174000 now"),  # an id as read
    ("calls_create", {"to": EASTERN, "agent_extension": "1001\u202e"},
     "from agent “1001\\u202e”."),
    ("appointments_create", {"phone": EASTERN, "scheduled_at": "soon\u2028(no SMS)",
                             "contact_name": "Ann “A” Lee"},
     "with “Ann \\“A\\” Lee” (+1 212 555 0142) at “soon⏎(no SMS)”"),
    ("leads_create", {"phone": EASTERN, "campaign_id": "cmp_2", "dial_now": True,
                      "dial_within_seconds": "5 (test)"}, "within “5 (test)” s"),
])
def test_every_user_string_is_quoted(tool: str, arguments: dict[str, Any], shown: str) -> None:
    assert shown in confirmation_text(tool, arguments)


def test_a_lead_add_whose_campaign_cannot_be_read_is_refused(sandbox: Sandbox,
                                                            api: httpx.Client) -> None:
    """Whether the add can reach a person depends on the campaign's status: unread, the
    call is refused (and audited), not run on a guess."""
    campaign = api.get("/v1/campaigns", params={"status": "running", "limit": 1}
                       ).json()["data"][0]["id"]
    before = api.get("/v1/leads", params={"campaign_id": campaign, "limit": 1}).json()["data"]
    httpx.patch(f"{sandbox.base_url}/_sandbox/accounts/acme/clients/full",
                headers=sandbox.admin_headers,
                json={"scopes": ["leads:write", "leads:read", "calls:originate"]}
                ).raise_for_status()
    asked: list[str] = []
    result = call(sandbox, KEYS["full"], "leads_create",
                  {"campaign_id": campaign, "phone": "+12125550198"},
                  answer=answering("accept", asked=asked))
    assert result.is_error and result.structured_content["code"] == "confirmation_undecided"
    assert "(403 insufficient_scope)" in text(result) and "Nothing was done" in text(result)
    assert asked == []
    assert api.get("/v1/leads", params={"campaign_id": campaign, "limit": 1}
                   ).json()["data"] == before, "no lead was added"
    record = audit(sandbox)[-1]
    assert (record["tool"], record["outcome"], record["confirmation"], record["code"]) == (
        "leads_create", "not_run", "undecided", "confirmation_undecided")


def test_a_tier_2_call_is_asked_whatever_the_key_holds(sandbox: Sandbox,
                                                       api: httpx.Client) -> None:
    """Whether to ask is the operation's, not the key's: the reader's scopes lack
    campaigns:resume, it is asked all the same, and the service refuses the confirmed call."""
    campaign = api.get("/v1/campaigns", params={"status": "paused", "limit": 1}
                       ).json()["data"][0]["id"]
    asked: list[str] = []
    result = call(sandbox, KEYS["reader"], "campaigns_resume", {"campaign_id": campaign},
                  answer=answering("accept", asked=asked))
    assert asked == [f"Resume campaign {campaign} now: its dialler starts calling its leads."
                     + NO_GUARD]
    assert result.is_error and result.structured_content["code"] == "insufficient_scope"
    record = audit(sandbox)[-1]
    assert (record["outcome"], record["confirmation"], record["status"]) == (
        "error", "given", 403)
