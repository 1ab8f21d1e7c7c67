"""The scrub that answers for a number is that number's own answered row (issue 79, item 3).

Colorado obliges a caller to obtain its list (C.R.S. 6-1-904(4): the row's ``required``).
A call to a Denver number was judged by Colorado's scrub of *other* Colorado numbers (any
row of ``US-CO`` made every Colorado number pass), and by a row of its own whose
``listed`` is empty (a check that did not answer): no finding, no risk, no note, and
``next_allowed`` said allowed. Here a number no answered row of its own scrubs against its
state's required list is one ``dnc_call`` risk, on its first call, on every path: the
audit on pandas and on Dask, the command line's ``--fail-on risk``, ``next_allowed`` and
``upcoming``.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from dialkit.cli import app
from dialkit.compliance import audit, next_allowed, upcoming
from dialkit.errors import ComplianceRiskWarning

DENVER, BOULDER = "+13035550123", "+13035550177"
COLORADO = "C.R.S. 6-1-904(1)(a)"
AT = pd.Timestamp("2026-06-02T17:00Z")  # Tuesday 11:00 in Denver: inside its hours
runner = CliRunner()


def calls(*rows: tuple[str, str]) -> pd.DataFrame:
    return pd.DataFrame({
        "id": [f"call_{n}" for n in range(len(rows))], "direction": "outbound",
        "from_number": "+14155550100", "to_number": [phone for phone, _ in rows],
        "created_at": pd.to_datetime([at for _, at in rows], utc=True),
        "answered_at": pd.NaT, "ended_at": pd.NaT, "campaign_id": "cmp_1",
        "disposition": None})


def scrubs(*rows: tuple[str, object]) -> pd.DataFrame:
    """Colorado's scrub: (phone, listed) each, checked in May; ``listed`` None: no answer."""
    return pd.DataFrame({"phone": [phone for phone, _ in rows],
                         "listed": pd.Series([listed for _, listed in rows], dtype=object),
                         "list": "US-CO", "listed_at": pd.NaT,
                         "checked_at": pd.Timestamp("2026-05-20T00:00Z")})


MADE = calls((DENVER, "2026-06-01T16:00Z"), (BOULDER, "2026-06-01T17:00Z"),
             (DENVER, "2026-06-02T16:00Z"))
"""Denver called twice, Boulder once."""
CASES = [
    ((BOULDER, False),), ((BOULDER, False), (DENVER, None)), ((DENVER, None),),
    ((DENVER, False), (BOULDER, False)), ((DENVER, None), (DENVER, False), (BOULDER, False)),
]
IDS = ["another number's scrub", "and its own unanswered", "its own unanswered alone",
       "its own scrub", "its own answered beside an unanswered"]


def unscrubbed(rows: tuple[tuple[str, object], ...]) -> list[str]:
    """The numbers of :data:`MADE` no answered row of ``rows`` scrubs: each a risk."""
    answered = {phone for phone, listed in rows if listed is not None}
    return [phone for phone in (DENVER, BOULDER) if phone not in answered]


def risks(report: object) -> list[tuple[str, str, str, str]]:
    found = report.findings  # type: ignore[attr-defined]
    found = found[found["rule"] == "dnc_call"]
    return list(zip(found["call_id"].astype(str), found["phone"].astype(str),
                    found["basis"].astype(str), found["citation"].astype(str), strict=True))


@pytest.mark.parametrize("rows", CASES, ids=IDS)
def test_a_number_is_scrubbed_by_its_own_answered_row_alone(
        rows: tuple[tuple[str, object], ...]) -> None:
    report = audit(MADE, dnc=scrubs(*rows), as_of="2026-11-27")
    first = {DENVER: "call_0", BOULDER: "call_1"}
    assert risks(report) == [(first[phone], phone, "risk", COLORADO)
                             for phone in unscrubbed(rows)]
    assert report.risks["calls"] == len(unscrubbed(rows)) and not report.by_basis["law"]
    note = report.notes.get("state_lists")
    if unscrubbed(rows):
        assert note is not None and "Colorado No-Call List (US-CO, required)" in note
        assert f"({len(unscrubbed(rows))} number" in note
    else:
        assert note is None


def test_the_risk_keeps_its_words_and_says_which_row_answers() -> None:
    report = audit(MADE, dnc=scrubs((BOULDER, False)), as_of="2026-11-27")
    found = report.findings[report.findings["rule"] == "dnc_call"]
    evidence = found["evidence"].item()
    assert evidence.startswith("a number of Colorado (its area code), called 2 times")
    assert "no scrub of the Colorado No-Call List (list US-CO) that answers for the number" in (
        evidence)
    assert found[["jurisdiction", "decided_by"]].values.tolist() == [["US-CO", "number"]]


@pytest.mark.parametrize("rows", CASES, ids=IDS)
def test_dask_reads_a_numbers_own_scrub_as_pandas(rows: tuple[tuple[str, object], ...]) -> None:
    dd = pytest.importorskip("dask.dataframe")
    dnc = scrubs(*rows)
    pandas = audit(MADE, dnc=dnc, as_of="2026-11-27")
    dask = audit(dd.from_pandas(MADE, npartitions=2), dnc=dd.from_pandas(dnc, npartitions=2),
                 as_of="2026-11-27")
    first = {DENVER: "call_0", BOULDER: "call_1"}
    assert sorted(risks(dask)) == sorted(risks(pandas)) == [
        (first[phone], phone, "risk", COLORADO) for phone in unscrubbed(rows)]
    assert dask.notes == pandas.notes


@pytest.mark.parametrize("rows", CASES, ids=IDS)
def test_next_allowed_and_upcoming_read_a_numbers_own_scrub_as_the_audit_does(
        rows: tuple[tuple[str, object], ...]) -> None:
    """Each number called once before: the risk is the call to come's, not the past's."""
    dnc, risky = scrubs(*rows), unscrubbed(rows)
    past = MADE.iloc[:2].assign(created_at=AT - pd.Timedelta(days=3))
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        asked = next_allowed([DENVER, BOULDER], AT, dnc=dnc, calls=past)
    assert asked["allowed"].all()  # a risk is no refusal (issue 81): its column says it
    assert asked["risk"].notna().tolist() == [DENVER in risky, BOULDER in risky]
    assert asked["risk"].dropna().str.contains("(list US-CO)", regex=False).all()
    assert [w.category for w in said] == [ComplianceRiskWarning] * bool(risky)
    leads = pd.DataFrame({"id": ["lead_d", "lead_b"], "campaign_id": "cmp_1",
                          "phone": [DENVER, BOULDER], "status": "callback",
                          "next_attempt_at": [AT, AT]})
    due = upcoming({"calls": past, "leads": leads, "dnc": dnc,
                    "callbacks": pd.DataFrame(columns=["id", "lead_id", "campaign_id",
                                                       "scheduled_at", "status"])},
                   as_of=AT - pd.Timedelta(hours=1))
    found = due[due["rule"] == "dnc_call"]
    assert found["phone"].tolist() == risky
    assert set(found["basis"].astype(str)) <= {"risk"}


def _audited(tmp_path: Path, listed: str) -> object:
    """The command line on :data:`MADE` and Boulder's scrub beside a row of Denver's whose
    ``listed`` is ``listed`` (empty: no answer), as files, as a user runs it."""
    paths = {name: tmp_path / f"{name}.csv" for name in ("calls", "dnc")}
    MADE.to_csv(paths["calls"], index=False)
    paths["dnc"].write_text("phone,listed,list,checked_at\n"
                            f"{BOULDER},false,US-CO,2026-05-20T00:00:00Z\n"
                            f"{DENVER},{listed},US-CO,2026-05-20T00:00:00Z\n")
    return runner.invoke(app, ["compliance", "audit", "--calls", str(paths["calls"]),
                               "--dnc", str(paths["dnc"]), "--as-of", "2026-11-27",
                               "--fail-on", "risk"])


@pytest.mark.parametrize(("listed", "code"), [("", 1), ("false", 0)],
                         ids=["its row unanswered", "its row answered"])
def test_fail_on_risk_fails_for_a_number_whose_own_row_does_not_answer(
        tmp_path: Path, listed: str, code: int) -> None:
    result = _audited(tmp_path, listed)
    assert result.exit_code == code, result.output  # type: ignore[attr-defined]
    assert "Traceback" not in result.output  # type: ignore[attr-defined]


@pytest.mark.parametrize("written", ["US-CO", "Colorado", "Colorado No-Call List"])
def test_a_states_list_written_as_a_vendor_writes_it_gives_the_same_audit(
        written: str) -> None:
    """The same scrub with Colorado's list written as a vendor writes it (the state's name,
    or a name of the vendor's mapped by the user, ``values=``) gives the audit of the list's
    id: the same findings, the same notes."""
    called = calls((DENVER, AT), (BOULDER, AT))
    told = scrubs((DENVER, False)).assign(list=written)
    plain = audit(called, dnc=scrubs((DENVER, False)))
    worded = audit(called, dnc=told, values={"list": {"Colorado No-Call List": "US-CO"}})
    columns = ["rule", "phone", "basis", "evidence"]
    assert worded.findings[columns].values.tolist() == plain.findings[columns].values.tolist()
    assert worded.notes == plain.notes
    assert [(r, p) for r, p, b in plain.findings[["rule", "phone", "basis"]].values
            if b == "risk"] == [("dnc_call", BOULDER)]
