"""The rules of a number's past alone (issue 63): what the guard's judge and
``next_allowed`` ask of the calls they make up, run by the audit's own functions, so they
find what the whole audit finds of those rules on the same frames. They judge whether a
call is allowed, by the law and the policy: the audit's risks (a number of a state whose
own list was not given, issue 73) are the report's, not theirs."""

from __future__ import annotations

import pandas as pd

from dialkit import Client
from dialkit.compliance import US, audit, load
from dialkit.compliance._part import Options, history_findings

RULES = ["call_frequency", "dnc_call"]
KEY = ["call_id", "lead_id", "rule", "phone", "evidence", "jurisdiction", "basis", "policy"]


def rows(found: pd.DataFrame) -> list[tuple[str, ...]]:
    return sorted(tuple(str(value) for value in row) for row in found[KEY].itertuples(False))


def test_the_past_alone_is_judged_as_the_whole_audit_judges_it(client: Client) -> None:
    frames = load(client)
    calls, leads, dnc = frames["calls"], frames["leads"], frames["dnc"]
    moment = calls["created_at"].max()
    whole = audit(calls, leads=leads, dnc=dnc, as_of=moment).findings
    theirs = whole[whole["rule"].isin(RULES) & whole["basis"].isin(["law", "policy"])]
    options = Options(rules=US, blocked=(), verified=None, campaigns=None, moment=moment)
    mine = history_findings(calls, leads, dnc, options)
    assert set(theirs["rule"]) == set(RULES)  # the world plants both
    assert set(mine["basis"]) <= {"law", "policy"}
    assert rows(mine) == rows(theirs)


def test_without_dnc_results_only_the_caps_are_judged(client: Client) -> None:
    frames = load(client)
    options = Options(rules=US, blocked=(), verified=None, campaigns=None,
                      moment=frames["calls"]["created_at"].max())
    found = history_findings(frames["calls"], frames["leads"], None, options)
    assert set(found["rule"]) == {"call_frequency"}
