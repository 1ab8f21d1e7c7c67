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
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import cast

import pandas as pd
import pytest
from typer.testing import CliRunner

from conftest import KEYS
from dialkit import Client
from dialkit._utils._choices import AUDIT_INPUTS, CALLS_COLUMNS, JUDGES, AuditInput
from dialkit.cli import app
from dialkit.client import GuardSettings
from dialkit.compliance import AuditInputError, Monitor, audit, next_allowed, repair, upcoming
from dialkit.compliance._inputs._keywords import AuditInputs
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
DECLARED = {each.name for each in AUDIT_INPUTS}


def taken(judge: Callable[..., object]) -> set[str]:
    """The names ``judge`` (a function, or a class by its ``__init__``) takes: its own
    parameters, and the declaration's readers of it where it takes the typed set
    (``**inputs: Unpack[AuditInputs]``), which it reads by :func:`inputs_of` (the refusals
    of the others: below)."""
    parameters = inspect.signature(judge).parameters.values()
    name = judge.__name__
    judge = judge.__init__ if isinstance(judge, type) else judge  # type: ignore[misc]
    own = {each.name for each in parameters if each.kind is not inspect.Parameter.VAR_KEYWORD}
    typed = [each.name for each in parameters if each.kind is inspect.Parameter.VAR_KEYWORD]
    if not typed:
        return own
    assert [each.annotation for each in parameters
            if each.kind is inspect.Parameter.VAR_KEYWORD] == ["Unpack[AuditInputs]"]
    assert judge.__globals__["AuditInputs"] is AuditInputs
    assert own & DECLARED == set(), f"{name} names an input in its own parameters"
    return own | {each.name for each in AUDIT_INPUTS if name in each.readers}


TAKEN = {
    "audit": taken(audit),
    "next_allowed": taken(next_allowed),
    "upcoming": taken(upcoming) | UPCOMING_FRAMES,
    "repair": taken(repair),
    "guard": {field.name for field in dataclasses.fields(GuardSettings)},
    "Monitor": taken(Monitor),
}
"""What each judge takes by name: ``upcoming`` its keywords and the frames ``load`` gives
it that it reads; the guard its settings (what it reads of the service, the texts, a lead's
campaign, is no input given to it)."""
CALLS = pd.DataFrame(columns=[column.name for column in CALLS_COLUMNS])


@pytest.fixture
def sender(sandbox: Sandbox) -> Iterator[Client]:
    """A guarded client with the sending key, whose texts the emulator sends."""
    with Client(KEYS["sending"], base_url=sandbox.base_url, rate_limit=None) as made:
        yield made


def test_every_keyword_input_of_audit_is_an_option_of_the_command() -> None:
    declared = {each.name: each.flag for each in AUDIT_INPUTS}
    assert {name for name, flag in declared.items() if flag is None} == {"campaigns"}
    shown = CliRunner().invoke(app, ["compliance", "audit", "--help"])
    assert shown.exit_code == 0, shown.output
    options = set(re.findall(r"(--[a-z][a-z-]+)", shown.output))
    assert {flag for flag in declared.values() if flag} - options == set()


def test_the_declaration_names_only_the_judges() -> None:
    assert {judge for each in AUDIT_INPUTS for judge in each.not_read} <= set(JUDGES)
    assert [each.name for each in AUDIT_INPUTS if not all(each.not_read.values())] == []


@pytest.mark.parametrize("judge", JUDGES)
def test_each_judge_takes_exactly_the_inputs_the_declaration_says_it_reads(judge: str) -> None:
    """Wherever a judge judges a rule an input changes, it takes that input by the audit's
    name (issue 73), and where it does not, the declaration says why (``not_read``), and
    the docs' table shows it: so an input is added once, with each judge's answer."""
    assert TAKEN[judge] & DECLARED == {each.name for each in AUDIT_INPUTS
                                       if judge in each.readers}, (
        f"declare in AUDIT_INPUTS (src/dialkit/_utils/_choices.py) that {judge} reads each "
        "input it takes, and say in not_read why it does not take the others")


def test_the_typed_inputs_are_the_declarations() -> None:
    assert set(AuditInputs.__annotations__) == DECLARED


CALLED = {
    "audit": lambda **given: audit(CALLS, **given),
    "next_allowed": lambda **given: next_allowed("+14155550123", "2026-11-02T15:00Z", **given),
    "upcoming": lambda **given: upcoming({}, **given),
    "repair": lambda **given: repair(pd.DataFrame(), None, **given),
    "Monitor": lambda **given: Monitor(**given),
}
"""Each judge that takes the typed set, called with nothing of its own to judge: its inputs
are read, and refused, before anything else."""
NOT_READ = [(judge, each) for judge in CALLED for each in AUDIT_INPUTS
            if judge not in each.readers]


@pytest.mark.parametrize(("judge", "each"), NOT_READ,
                         ids=[f"{judge} {each.name}" for judge, each in NOT_READ])
def test_an_input_a_judge_does_not_read_is_refused_saying_why(
        judge: str, each: AuditInput) -> None:
    with pytest.raises(TypeError, match=rf"^{judge}\(\) does not read {each.name}=: ") as refused:
        CALLED[judge](**{each.name: None})
    assert each.not_read[judge] in str(refused.value)


@pytest.mark.parametrize("judge", CALLED)
def test_a_keyword_that_is_no_input_is_refused_naming_those_the_judge_reads(judge: str) -> None:
    with pytest.raises(TypeError, match=rf"^{judge}\(\) takes no verfied_caller_ids=: pass one "
                                        "of the inputs it reads, ") as refused:
        CALLED[judge](verfied_caller_ids=["+14155550100"])
    assert all(f" {each.name}=" in str(refused.value) for each in AUDIT_INPUTS
               if judge in each.readers)


def test_next_allowed_asks_about_one_campaign() -> None:
    with pytest.raises(AuditInputError, match=r"campaign_id=\['c1', 'c2'\]\) names no one "):
        next_allowed("+14155550123", "2026-11-02T15:00Z", campaign_id=["c1", "c2"])


def test_upcoming_of_a_client_refuses_a_frame_beside_it() -> None:
    with pytest.raises(AuditInputError, match=r"^upcoming\(client, dnc=\) loads the account's"):
        upcoming(cast(Client, object()), dnc=pd.DataFrame())


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
