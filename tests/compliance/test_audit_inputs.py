"""Every input of the audit is declared once, and the command line and the judges before a
call take it as the library does (issue 71, item 7).

``dialkit compliance audit`` had no ``--texts`` and no ``--nonprofit``: the audit of a
month's exports found 43 findings where the library found 62 on the same data, 19 of them
texts. ``next_allowed`` had no ``texts=``: a Florida number texted three times that day was
"allowed" given the calls alone, where ``upcoming``, the guard and the audit counted the
texts. Texts here are sent over real HTTP to the session emulator (manual clock: Monday
2026-11-02 15:00 UTC, 10:00 in Miami) with the sending key, as the guard's tests send them.
"""

from __future__ import annotations

import dataclasses
import inspect
import re
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from conftest import KEYS
from dialkit import Client
from dialkit._utils._choices import AUDIT_INPUTS, AuditInput
from dialkit.cli import app
from dialkit.client import GuardSettings
from dialkit.compliance import LawJudge, audit, next_allowed, upcoming
from dialkit.compliance._inputs._options import table
from dialkit.errors import ContactForbiddenError
from dialkit.sandbox import Sandbox

MIAMI = "+13055550166"
"""A Florida number no lead of the seeded world holds (Florida: 3 calls per person and
subject in 24 hours, Fla. Stat. 501.616(6)(b))."""
PAGE = Path(__file__).resolve().parents[2] / "docs" / "compliance.md"
UPCOMING_FRAMES = {"calls", "leads", "dnc", "texts"}
"""The frames of :func:`load` that ``upcoming`` reads of a mapping (or loads): not
its ``since`` and ``until``, the period an audit reports."""
JUDGES = {
    "next_allowed": set(inspect.signature(next_allowed).parameters),
    "upcoming": set(inspect.signature(upcoming).parameters) | UPCOMING_FRAMES,
    "guard": set(inspect.signature(LawJudge.contact).parameters)
    | {field.name for field in dataclasses.fields(GuardSettings)},
}
"""What each judge before a call takes by name: ``upcoming`` its keywords and the frames
``load`` gives it that it reads; the guard its judge's evidence and its settings."""


@pytest.fixture
def sender(sandbox: Sandbox) -> Iterator[Client]:
    """A guarded client with the sending key, whose texts the emulator sends."""
    with Client(KEYS["sending"], base_url=sandbox.base_url, rate_limit=None) as made:
        yield made


def test_every_keyword_input_of_audit_is_an_option_of_the_command() -> None:
    keywords = {parameter.name for parameter in inspect.signature(audit).parameters.values()
                if parameter.kind is inspect.Parameter.KEYWORD_ONLY}
    declared = {each.name: each.flag for each in AUDIT_INPUTS}
    assert set(declared) == keywords, (
        "declare each keyword input of audit once in AUDIT_INPUTS "
        "(src/dialkit/_utils/_choices.py): its line gives it its option of dialkit "
        "compliance audit, its words in the notes and its row in docs/compliance.md")
    assert {name for name, flag in declared.items() if flag is None} == {"compute",
                                                                         "campaigns"}
    shown = CliRunner().invoke(app, ["compliance", "audit", "--help"])
    assert shown.exit_code == 0, shown.output
    options = set(re.findall(r"(--[a-z][a-z-]+)", shown.output))
    assert {flag for flag in declared.values() if flag} - options == set()


@pytest.mark.parametrize("each", [each for each in AUDIT_INPUTS if each.ahead],
                         ids=lambda each: each.name)
def test_the_judges_before_a_call_take_what_the_audit_is_given(each: AuditInput) -> None:
    assert [judge for judge in each.ahead if each.name not in JUDGES[judge]] == []


@pytest.mark.parametrize("judge", sorted(JUDGES))
def test_the_declaration_names_every_judge_that_takes_an_input(judge: str) -> None:
    """The converse (issue 73): an input a judge takes by the audit's name is declared as
    taken by it, so that the docs' table never says "none" of a judge that reads it."""
    taken = {each.name for each in AUDIT_INPUTS if each.name in JUDGES[judge]}
    assert taken == {each.name for each in AUDIT_INPUTS if judge in each.ahead}


@pytest.mark.parametrize("each", [each for each in AUDIT_INPUTS
                                  if set(each.ahead) != set(JUDGES)],
                         ids=lambda each: each.name)
def test_an_input_a_judge_does_not_take_says_why(each: AuditInput) -> None:
    """Wherever a judge before a call judges a rule an input changes, it takes that input
    (issue 73); where one does not, the declaration says why, and the docs' table shows it."""
    assert each.ahead_note, f"say in {each.name}'s line of AUDIT_INPUTS why not " + ", ".join(
        sorted(set(JUDGES) - set(each.ahead)))


def test_the_compliance_page_lists_every_input_as_declared() -> None:
    page = PAGE.read_text(encoding="utf-8")
    start, end = "<!-- audit inputs: generated -->\n", "<!-- audit inputs: end -->"
    shown = page[page.index(start) + len(start):page.index(end)]
    assert shown == table(), (
        "docs/compliance.md's table of the audit's inputs is out of date: paste the output "
        "of `python -c 'from dialkit.compliance._inputs._options import table; "
        "print(table(), end=\"\")'` between its markers")


def test_next_allowed_counts_the_texts_toward_a_cap_as_the_guard_does(
        sender: Client) -> None:
    for n in range(3):
        sender.sms.send(to=MIAMI, body="Your table is ready.", client_reference=f"fl-{n}")
    with pytest.raises(ContactForbiddenError) as refused:
        sender.sms.send(to=MIAMI, body="Your table is ready.", client_reference="fl-3")
    at = pd.Timestamp(refused.value.at)
    calls = sender.frames.calls(refresh="full")
    texts = sender.frames.sms_reports(refresh="full")
    assert next_allowed(MIAMI, at, calls=calls)["allowed"].tolist() == [True]  # calls alone
    answer = next_allowed(MIAMI, at, calls=calls, texts=texts).iloc[0]
    assert (answer["allowed"], answer["rule"], answer["basis"], answer["jurisdiction"]) == (
        False, refused.value.rule, refused.value.basis, refused.value.jurisdiction)
    assert answer["forbidden_by"].startswith("4th call in the 24 hours up to this one")
    assert answer["next_allowed_at"] == pd.Timestamp(refused.value.next_allowed_at)


FLORIDA = "+13055550142"
PAST = pd.DataFrame({
    "id": ["call_1", "call_2"], "direction": "outbound", "from_number": "+13055550100",
    "to_number": FLORIDA, "created_at": pd.to_datetime(["2026-06-01T14:00Z",
                                                        "2026-06-01T15:00Z"], utc=True),
    "answered_at": pd.NaT, "ended_at": pd.NaT, "campaign_id": "cmp_1", "disposition": None})
LEAD = pd.DataFrame({"id": ["lead_1"], "campaign_id": ["cmp_1"], "phone": [FLORIDA],
                     "status": ["contacted"]})
TEXT = pd.DataFrame({"message_id": ["msg_1"], "to": [FLORIDA], "status": ["delivered"],
                     "created_at": pd.to_datetime(["2026-06-01T16:00Z"], utc=True)})
ASKED = pd.Timestamp("2026-06-01T17:00Z")
"""Two calls of a lead's campaign to its Miami number, a text to it, and the moment a third
call is asked about (13:00 in Miami, within Florida's hours)."""


def test_a_text_to_a_lead_is_counted_on_its_campaign_as_the_audit_counts_it() -> None:
    """Two calls of the lead's campaign and a text to its number: the audit counts the
    text on the campaign of the lead holding the number, so a third call is the fourth
    contact on that subject; ``next_allowed`` of the lead says so too."""
    answer = next_allowed(LEAD, ASKED, calls=PAST, texts=TEXT)
    assert answer[["allowed", "rule"]].values.tolist() == [[False, "call_frequency"]]
    third = PAST.iloc[:1].assign(id="call_3", created_at=ASKED)
    found = audit(pd.concat([PAST, third]), leads=LEAD, texts=TEXT).findings
    assert found[["rule", "call_id"]].values.tolist() == [["call_frequency", "call_3"]]
