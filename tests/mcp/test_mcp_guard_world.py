"""``mcp serve`` refuses the numbers the seeded world plants for the guard (issue 50, item
5): a tool call to each is the tool's error with its rule, and its override, confirmed by
the user, is sent and lands in the audit log (tests/client/test_guard_world.py: the
client's operations). The capped number is left out here: a new lead's call is judged per
campaign, and the draft campaign has made no calls (the client's test says so too)."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp_harness import answering, call, text

from conftest import KEYS, guard_truth
from dialkit import Client
from dialkit.mcp import ClientExecutor, JsonLinesAuditLog, build_server
from dialkit.sandbox import Sandbox

REASON = "The customer asked to be called at once"


@pytest.mark.parametrize("kind", ["guard_dnc", "guard_hours"])
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
        draft = next(iter(client.campaigns.list(status="draft"))).id
        accepted = call(server, None, "leads_create",
                        {"campaign_id": draft, "phone": planted["phone"], "dial_now": True,
                         "override": REASON}, answer=answering("accept"))
        assert not accepted.is_error, text(accepted)
    records = JsonLinesAuditLog(tmp_path / "audit.jsonl").records()
    assert [(r.tool, r.code, r.override, r.overridden) for r in records] == [
        ("sms_send", "contact_forbidden", None, None),
        ("leads_create", "awaiting_confirmation", REASON, planted["rule"]),
        ("leads_create", None, REASON, planted["rule"])]
