"""Every finding of law names its law (issue 47, item 13): on the emulator's world, audited
over real HTTP as a user audits it, each finding whose ``basis`` is ``law`` carries a
citation, and every section it cites is quoted in the ``text`` of a row of the law's
tables (the jurisdictions, the Do-Not-Call lists, caller id, abandonment), so a reader can
see the words that decide it."""

from __future__ import annotations

import pandas as pd
import pytest

import dialkit
from dialkit._law import _abandonment, _caller_id, _dnc_lists
from dialkit.compliance import US, audit, jurisdictions, load


def _quoted() -> list[str]:
    """The quoted text of every row of every table of law, whitespace made single."""
    rows = [*jurisdictions.all(), *_dnc_lists.all(), *_caller_id.all(), *_abandonment.all()]
    return [" ".join(row.text.split()) for row in rows if row.text]


@pytest.fixture(scope="module")
def law_findings() -> pd.DataFrame:
    with dialkit.Client.sandbox() as client:
        found = audit(**load(client), rules=US).findings
    return found[found["basis"] == "law"]


def test_every_finding_of_law_cites_a_section_some_table_quotes(law_findings: pd.DataFrame) -> None:
    rules = set(law_findings["rule"])
    assert {"calling_hours", "dnc_call", "abandonment", "caller_id"} <= rules, rules
    texts = _quoted()
    for rule, citation in zip(law_findings["rule"], law_findings["citation"], strict=True):
        assert isinstance(citation, str) and citation.strip(), (rule, citation)
        parts = [part.strip() for part in citation.split(";") if part.strip()]
        assert all(any(part in text for text in texts) for part in parts), (rule, citation)


def test_no_hours_finding_cites_the_registry_safe_harbor(law_findings: pd.DataFrame) -> None:
    hours = law_findings[law_findings["rule"] == "calling_hours"]
    assert len(hours) and not hours["citation"].str.contains("310.4(b)(3)(iv)",
                                                             regex=False).any()
