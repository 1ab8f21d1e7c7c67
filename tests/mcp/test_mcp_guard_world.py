"""``mcp serve`` refuses the numbers the seeded world plants for the guard (issue 50, item
5): a tool call to each is the tool's error with its rule, and its override, confirmed by
the user, is sent and lands in the audit log (tests/client/test_guard_world.py: the
client's operations)."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp_harness import answering, call, text

from conftest import KEYS, advance, guard_truth
from dialkit import Client
from dialkit.mcp import ClientExecutor, JsonLinesAuditLog, build_server
from dialkit.sandbox import Sandbox

REASON = "The customer asked to be called at once"
SERVICE_REFUSES = {"guard_dnc": "on_dnc", "guard_hours": "message_refused", "guard_cap": None}
"""What the emulator answers an overridden text to each: it checks the list and the hours
of a text itself, not the caps."""


@pytest.mark.parametrize("kind", ["guard_dnc", "guard_hours", "guard_cap"])
def test_an_assistants_text_to_a_planted_number_is_refused(
        sandbox: Sandbox, tmp_path: Path, kind: str) -> None:
    planted = guard_truth(sandbox)[kind]
    with Client(KEYS["sending"], base_url=sandbox.base_url, rate_limit=None,
                max_retries=0) as client:
        server = build_server(ClientExecutor(client, KEYS["sending"]),
                              audit=JsonLinesAuditLog(tmp_path / "audit.jsonl"))
        asked: list[str] = []
        result = call(server, None, "sms_send",
                      {"to": planted["phone"], "body": "Hi", "client_reference": kind},
                      answer=answering("accept", asked=asked))
        assert result.is_error and asked == []
        assert (result.structured_content["code"], result.structured_content["rule"]) == (
            "contact_forbidden", planted["rule"])
        sent = call(server, None, "sms_send",
                    {"to": planted["phone"], "body": "Hi", "client_reference": f"{kind}-2",
                     "override": REASON}, answer=answering("accept"))
        assert sent.is_error == (SERVICE_REFUSES[kind] is not None), text(sent)
    records = JsonLinesAuditLog(tmp_path / "audit.jsonl").records()
    assert [(r.tool, r.code, r.override, r.overridden) for r in records] == [
        ("sms_send", "contact_forbidden", None, None),
        ("sms_send", "awaiting_confirmation", REASON, planted["rule"]),
        ("sms_send", "override_recorded", REASON, planted["rule"]),  # before it is sent
        ("sms_send", SERVICE_REFUSES[kind], REASON, planted["rule"])]


def test_a_resume_asked_and_confirmed_is_judged_once(sandbox: Sandbox, tmp_path: Path) -> None:
    """The guard judges a resume before the user's question, on the retry and at the send:
    one judgment a campaign a minute, so ``client.guard.resumes`` records it once."""
    with Client(KEYS["full"], base_url=sandbox.base_url, rate_limit=None,
                max_retries=0) as client:
        server = build_server(ClientExecutor(client, KEYS["full"]),
                              audit=JsonLinesAuditLog(tmp_path / "audit.jsonl"))
        campaign = next(iter(client.campaigns.list(status="paused"))).id
        advance(sandbox, 12 * 3600)  # 03:00 UTC: night in North America
        resumed = call(server, None, "campaigns_resume",
                       {"campaign_id": campaign, "override": REASON}, answer=answering("accept"))
        assert not resumed.is_error, text(resumed)
        [judged] = client.guard.resumes
        assert judged.campaign_id == campaign and judged.forbidden > judged.diallable / 2
        assert [o.operation for o in client.guard.overrides] == ["campaigns.resume"]
