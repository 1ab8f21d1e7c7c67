"""The same facts in any documented form give the same findings (issue 61, the
metamorphic test (b), for items 4 and 5).

A generated account (a few Florida and Georgia people, each of one or two numbers, their
leads in two campaigns, unanswered calls over three days) is audited as written in its
plainest form (no ``subject`` column, one lead per person and campaign naming its second
number in ``other_phones`` as text, a pandas frame) and in another form of the same
facts, drawn along each way docs/compliance.md allows them to be written:

- a ``subject`` column constant per campaign, or none (a subject is "the calls' subject
  column where the account keeps one, ... else the campaign");
- one lead naming its second number, or two leads naming each other's (a person is "a
  lead across its numbers");
- ``other_phones`` as text or as a list ("E.164 numbers in one text, or a list");
- the rows in another order; the times as ISO text with a local offset; columns the audit
  does not read; the text columns as pandas categories, or as Arrow-backed strings; a call
  exported twice (issue 71's forms: "identical rows are read once");
- a pandas frame, a CSV or Parquet file read back by ``read_export``, or a Polars frame;
- the named values in another case, or in another tool's words mapped by the user
  (``values=``), and the columns named as another tool names them, recognised (or mapped,
  ``mapping=``, where a column the audit does not read could be one too: issue 79).

Each finding of a call must be the same: its rule, basis, jurisdiction, citation and
count (its evidence too, but where the subject is named by a column rather than the
campaign).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dialkit.compliance import audit, read_export, upcoming

START = pd.Timestamp("2026-11-23T12:00Z")  # Monday 07:00 in Miami and Atlanta
AREAS = {"FL": "305", "GA": "404"}
SUBJECTS = {"cmp_1": "solar", "cmp_2": "roofs"}
COMPARED = ["call_id", "rule", "basis", "jurisdiction", "citation", "calls_in_24h"]


@dataclass(frozen=True)
class Form:
    """How the account's facts are written."""

    subject: bool = False
    two_leads: bool = False
    listed: bool = False
    shuffled: bool = False
    text_times: bool = False
    extra: bool = False
    text: str = "plain"
    """How text columns are held: ``plain`` (as pandas infers them), ``category``, ``arrow``."""
    twice: bool = False
    container: str = "pandas"
    words: str = "plain"
    """How named values are written: ``plain`` (the contract's), ``cased`` (``OUTBOUND``,
    ``New``), ``mapped`` (another tool's codes, ``OUT``, ``N``, which :meth:`told` maps)."""
    named: bool = False
    """Whether the columns are named as another tool names them (``Dialed Number``)."""

    def told(self) -> dict[str, object]:
        """What the audit is told of this form's words and names (``values``, ``mapping``)."""
        said: dict[str, object] = {}
        if self.words == "mapped":
            said["values"] = {"direction": {"OUT": "outbound"}, "leads.status": {"N": "new"}}
        if self.named and self.extra:  # its call_id, lead_id, phone could each be one too
            said["mapping"] = {"calls.id": "Call ID", "to_number": "Dialed Number",
                               "leads.id": "Record ID"}
        return said


_WORDS = {"cased": {"outbound": " OUTBOUND ", "new": "New"}, "mapped": {"outbound": "OUT",
                                                                     "new": "N"}}
_NAMES = {"calls": {"id": "Call ID", "to_number": "Dialed Number", "created_at": "Call Start",
                    "campaign_id": "Campaign"},
          "leads": {"id": "Record ID", "campaign_id": "Campaign", "phone": "Phone",
                    "status": "Lead Status"}}
"""Another tool's words for the values, and names for the columns, of the account."""


@st.composite
def accounts(draw: st.DrawFn) -> tuple[list[tuple[str, ...]], list[dict[str, object]]]:
    """People (each one's numbers and the campaigns that have a lead of it) and calls."""
    people = []
    for n in range(draw(st.integers(1, 4))):
        area = AREAS[draw(st.sampled_from(sorted(AREAS)))]
        numbers = tuple(f"+1{area}55501{n}{k}" for k in range(draw(st.integers(1, 2))))
        people.append(numbers)
    made = []
    for n in range(draw(st.integers(0, 18))):
        numbers = draw(st.sampled_from(people))
        made.append({
            "id": f"call_{n}", "direction": "outbound", "from_number": "+14155550100",
            "to_number": draw(st.sampled_from(numbers)),
            "created_at": START + pd.Timedelta(minutes=draw(st.integers(0, 3 * 24 * 60))),
            "answered_at": pd.NaT, "ended_at": pd.NaT,
            "campaign_id": draw(st.sampled_from(sorted(SUBJECTS))), "disposition": None})
    return people, made


def written(people: list[tuple[str, ...]], made: list[dict[str, object]], form: Form,
            folder: Path) -> tuple[object, object]:
    """The calls and the leads of the account, in ``form``."""
    calls = pd.DataFrame(made, columns=["id", "direction", "from_number", "to_number",
                                        "created_at", "answered_at", "ended_at",
                                        "campaign_id", "disposition"])
    if form.subject:
        calls = calls.assign(subject=calls["campaign_id"].map(SUBJECTS))
    leads = pd.DataFrame(_leads(people, form), columns=["id", "campaign_id", "phone",
                                                         "status", "other_phones"])
    calls, leads = (_held(_named(_reshaped(_worded(frame, form), form, again=name == "calls"),
                                 name, form), form)
                    for name, frame in (("calls", calls), ("leads", leads)))
    if form.container == "pandas":
        return calls, leads
    if form.container == "polars":
        polars = pytest.importorskip("polars")
        return polars.from_pandas(calls), polars.from_pandas(leads)
    paths = []
    for name, frame in (("calls", calls), ("leads", leads)):
        path = folder / f"{name}.{form.container}"
        (frame.to_csv(path, index=False) if form.container == "csv"
         else frame.to_parquet(path))
        paths.append(read_export(path))
    return paths[0], paths[1]


ZONE = "America/New_York"
"""The local offset of the times written as text (-05:00 in late November)."""


def _reshaped(frame: pd.DataFrame, form: Form, *, again: bool) -> pd.DataFrame:
    """``frame`` with columns no rule reads, its first row given twice (``again``), its
    rows in another order, as ``form`` says. The columns include those another dialer's
    export or a lead file has under the names of a finding's own columns (``lead_id``,
    ``timezone``, ``at``; a call's ``phone`` and ``call_id``): they crashed the audit, or
    stood in a lead's finding for the audit's own, until the audit left them unread."""
    if form.extra:
        frame = frame.assign(agent_notes="left a message", score=np.arange(len(frame)),
                             lead_id=[f"L-{n}" for n in range(len(frame))],
                             timezone="Europe/Paris", at="soon")
        if "to_number" in frame:
            frame = frame.assign(phone="+33142685300", call_id="theirs")
    if form.twice and again and len(frame):
        frame = pd.concat([frame, frame.iloc[:1]], ignore_index=True)
    if form.shuffled:
        frame = frame.sample(frac=1, random_state=71, ignore_index=True)
    return frame


def _worded(frame: pd.DataFrame, form: Form) -> pd.DataFrame:
    """``frame``'s direction and lead status in ``form``'s words."""
    said = _WORDS.get(form.words, {})
    return frame.assign(**{column: frame[column].map(lambda v: said.get(v, v))
                           for column in ("direction", "status") if column in frame})


def _named(frame: pd.DataFrame, name: str, form: Form) -> pd.DataFrame:
    """``frame``'s columns named as another tool names them, where ``form`` says so."""
    return frame.rename(columns=_NAMES[name]) if form.named else frame


def _held(frame: pd.DataFrame, form: Form) -> pd.DataFrame:
    """``frame``'s times as ISO text with a local offset and its text columns of the kind
    ``form`` says."""
    if form.text_times:
        times = frame.select_dtypes("datetimetz").columns
        frame = frame.assign(**{c: [t.tz_convert(ZONE).isoformat() if pd.notna(t) else None
                                    for t in frame[c]] for c in times})
    texts = [c for c in frame if frame[c].notna().any()
             and frame[c].dropna().map(lambda value: isinstance(value, str)).all()]
    kinds = {"category": "category", "arrow": pd.ArrowDtype(pa.string())}
    return frame.astype({c: kinds[form.text] for c in texts}) if form.text in kinds else frame


def _leads(people: list[tuple[str, ...]], form: Form) -> list[dict[str, object]]:
    """Each person's leads in both campaigns: one lead naming its other number, or (where
    it has one) a lead of each number naming the other's."""
    leads = []
    for person, numbers in enumerate(people):
        for campaign in sorted(SUBJECTS):
            records = [numbers] if not form.two_leads else [
                (number, *(other for other in numbers if other != number))
                for number in numbers]
            for n, (own, *others) in enumerate(records):
                leads.append({"id": f"lead_{campaign}_{person}_{n}", "campaign_id": campaign,
                              "phone": own, "status": "new",
                              "other_phones": others if form.listed else
                              ", ".join(others) or None})
    return leads


def findings(calls: object, leads: object, *, evidence: bool,
             **told: object) -> list[list[str]]:
    found = audit(calls, leads=leads, **told).findings  # type: ignore[arg-type]
    columns = [*COMPARED, *(["evidence"] if evidence else [])]
    return found.reindex(columns=columns).astype(str).sort_values(  # ids held as categories
        ["call_id", "rule"]).values.tolist()  # sort by their codes: by their text here


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(account=accounts(), form=st.builds(
    Form, subject=st.booleans(), two_leads=st.booleans(), listed=st.booleans(),
    shuffled=st.booleans(), text_times=st.booleans(), extra=st.booleans(),
    text=st.sampled_from(["plain", "category", "arrow"]), twice=st.booleans(),
    container=st.sampled_from(["pandas", "csv", "parquet", "polars"]),
    words=st.sampled_from(["plain", "cased", "mapped"]), named=st.booleans()))
def test_the_same_facts_in_any_documented_form_give_the_same_findings(
        account: tuple[list[tuple[str, ...]], list[dict[str, object]]], form: Form,
        tmp_path: Path) -> None:
    people, made = account
    plain = findings(*written(people, made, Form(), tmp_path), evidence=not form.subject)
    assert findings(*written(people, made, form, tmp_path), evidence=not form.subject,
                    **form.told()) == plain, form


@settings(max_examples=25, deadline=None)
@given(account=accounts(), due=st.lists(st.tuples(st.integers(0, 7),
                                                  st.integers(0, 3 * 24 * 60)),
                                        min_size=1, max_size=2),
       form=st.builds(Form, two_leads=st.booleans(), listed=st.booleans()))
def test_calls_to_come_are_judged_alike_with_a_subject_column_or_without(
        account: tuple[list[tuple[str, ...]], list[dict[str, object]]],
        due: list[tuple[int, int]], form: Form) -> None:
    """Item 4's form: ``upcoming``'s callbacks (to any lead, at any moment of the three
    days) are found alike whether the calls keep a ``subject`` column constant per
    campaign or not: a callback takes the subject its person's past calls took."""
    people, made = account
    calls, leads = written(people, made, form, Path())
    leads = leads.assign(next_attempt_at=pd.NaT)  # type: ignore[union-attr]
    callbacks = pd.DataFrame({
        "id": [f"cb_{n}" for n in range(len(due))],
        "lead_id": [leads["id"].iloc[lead % len(leads)] for lead, _ in due],
        "campaign_id": [leads["campaign_id"].iloc[lead % len(leads)] for lead, _ in due],
        "scheduled_at": [START + pd.Timedelta(minutes=minutes) for _, minutes in due],
        "status": "pending"})
    assert isinstance(calls, pd.DataFrame)
    answers = [upcoming({"calls": frame, "leads": leads, "callbacks": callbacks},
                        as_of=START, horizon="4D")
               for frame in (calls, calls.assign(subject=calls["campaign_id"].map(SUBJECTS)))]
    plain, subject = (found.reindex(columns=COMPARED).sort_values(["call_id", "rule"]).astype(
        str).values.tolist() for found in answers)
    assert subject == plain


def test_the_generated_accounts_reach_the_cap_and_the_hours() -> None:
    """The comparison above is worth something only if such accounts have findings of
    both rules the forms could change: an account of one person's two numbers called
    four times in a morning has both (07:00 is before Florida's 08:00)."""
    made = [{"id": f"call_{n}", "direction": "outbound", "from_number": "+14155550100",
             "to_number": f"+1305555010{n % 2}", "created_at": START + pd.Timedelta(hours=n),
             "answered_at": pd.NaT, "ended_at": pd.NaT, "campaign_id": "cmp_1",
             "disposition": None} for n in range(4)]
    people = [("+13055550100", "+13055550101")]
    rules = {row[1] for row in findings(*written(people, made, Form(), Path()),
                                        evidence=False)}
    assert rules == {"calling_hours", "call_frequency"}


def test_calls_at_one_instant_over_the_cap_are_found_alike_in_any_order() -> None:
    made = [{"id": f"call_{n}", "direction": "outbound", "from_number": "+14155550100",
             "to_number": "+13055550100", "created_at": START + pd.Timedelta(hours=3),
             "answered_at": pd.NaT, "ended_at": pd.NaT, "campaign_id": "cmp_1",
             "disposition": None} for n in range(4)]
    calls, leads = written([("+13055550100",)], made, Form(), Path())
    assert findings(calls, leads, evidence=True) == findings(
        calls.iloc[::-1], leads, evidence=True)  # type: ignore[union-attr]


def test_the_numbers_called_held_as_a_category() -> None:
    made = [{"id": f"call_{n}", "direction": "outbound", "from_number": "+14155550100",
             "to_number": "+13055550101", "created_at": START + pd.Timedelta(hours=n),
             "answered_at": pd.NaT, "ended_at": pd.NaT, "campaign_id": "cmp_1",
             "disposition": None} for n in range(4)]
    calls, leads = written([("+13055550100", "+13055550101")], made, Form(), Path())
    assert findings(calls.astype({"to_number": "category"}), leads,  # type: ignore[union-attr]
                    evidence=True) == findings(calls, leads, evidence=True)
