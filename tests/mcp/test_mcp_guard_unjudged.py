"""``mcp serve`` sends no text no law judged (issue 98): a tool call to a French, Australian,
German or Spanish mobile at the issue's moment is the tool's ``contact_forbidden`` error,
``no_law_held``, its evidence naming the country, the law held and how to accept it, and
the user is not asked; a server whose client's guard accepts the country asks the user
and sends it (tests/client/test_guard_unjudged.py: the client's operations)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from mcp_harness import answering, call

from conftest import KEYS, START, advance
from dialkit import Client
from dialkit.client import GuardSettings
from dialkit.mcp import ClientExecutor, JsonLinesAuditLog, build_server
from dialkit.sandbox import Sandbox

FOREIGN = {"FR": ("+33612345678", "France", "2026-11-07T21:30Z"),
           "AU": ("+61412345678", "Australia", "2026-11-08T11:30Z"),
           "DE": ("+4915123456789", "Germany", START),
           "ES": ("+34612345678", "Spain", "2026-11-07T21:30Z")}
"""libphonenumber's example mobile of each country, its name and the issue's moment."""


@pytest.mark.parametrize("region", FOREIGN)
@pytest.mark.parametrize("accepted", [False, True])
def test_an_assistants_text_no_law_judges_is_refused_unless_accepted(
        sandbox: Sandbox, tmp_path: Path, region: str, accepted: bool) -> None:
    phone, country, moment = FOREIGN[region]
    advance(sandbox, (pd.Timestamp(moment) - pd.Timestamp(START)).total_seconds())
    settings = GuardSettings(accept_unjudged=[region] if accepted else ())
    with Client(KEYS["sending"], base_url=sandbox.base_url, rate_limit=None,
                max_retries=0, guard=settings) as client:
        server = build_server(ClientExecutor(client, KEYS["sending"]),
                              audit=JsonLinesAuditLog(tmp_path / "audit.jsonl"))
        asked: list[str] = []
        result = call(server, None, "sms_send",
                      {"to": phone, "body": "Hi", "client_reference": region},
                      answer=answering("accept", asked=asked))
    problem = result.structured_content or {}
    if accepted:
        assert problem.get("code") != "contact_forbidden" and len(asked) == 1
        assert f"{region} accepted unjudged" in asked[0]
        return
    assert result.is_error and asked == []
    assert (problem["code"], problem["rule"], problem["basis"]) == (
        "contact_forbidden", "no_law_held", "risk")
    assert f"dialkit holds no law for {country} ({region})" in problem["evidence"]
    assert "dialkit holds the law of US, CA, GB" in problem["evidence"]
    assert f"GuardSettings(accept_unjudged=['{region}'])" in problem["evidence"]
