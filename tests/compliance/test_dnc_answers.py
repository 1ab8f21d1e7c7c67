"""DNC results as the audit takes them in every form, and results that do not answer.

A check that left ``listed`` empty ("not known", as the column's refusal invites) was read
as a check that found the number not listed: no call to it was judged by a list, a lead of
it counted as screened, and the report said nothing. And the state lists a scrub was
given of were read from a Polars frame by a pandas method (an ``AttributeError``), and
from an Arrow table not at all (its ``columns`` are arrays, not names).

Colorado's law obliges a caller to obtain its list (C.R.S. 6-1-904(4); the row's
``required``): a call to a Colorado number is one ``dnc_call`` risk where the DNC results
hold no row of ``US-CO``, and none where they hold the state's scrub.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pyarrow as pa
import pytest

from dialkit.compliance import AuditInputError, audit, next_allowed

DENVER, BOULDER, SALT_LAKE = "+13035550142", "+13035550177", "+18015550123"
CALLED = pd.Timestamp("2026-11-24T17:00Z")  # Tuesday 10:00 in Denver and Salt Lake City
CHECKED = pd.Timestamp("2026-11-20T00:00Z")


def calls(*phones: str) -> pd.DataFrame:
    return pd.DataFrame({
        "id": [f"call_{n}" for n in range(len(phones))], "direction": "outbound",
        "from_number": "+14155550100", "to_number": list(phones),
        "created_at": CALLED, "answered_at": pd.NaT, "ended_at": pd.NaT,
        "campaign_id": "cmp_1", "disposition": None})


def results(*rows: tuple[str, object, str]) -> pd.DataFrame:
    """DNC results: (phone, listed, list) each, checked on 20 November, listed in January."""
    return pd.DataFrame({"phone": [r[0] for r in rows], "listed": [r[1] for r in rows],
                         "list": [r[2] for r in rows], "checked_at": CHECKED,
                         "listed_at": pd.Timestamp("2026-01-05T00:00Z")})


def compared(report: object) -> tuple[list[tuple[str, str, str]], dict[str, str]]:
    found = report.findings  # type: ignore[attr-defined]
    return (sorted(zip(found["rule"].astype(str), found["phone"].astype(str),
                       found["basis"].astype(str), strict=True)),
            report.notes)  # type: ignore[attr-defined]


SCRUBS = results((DENVER, False, "US-CO"), (BOULDER, False, "US-CO"),
                 (SALT_LAKE, True, "national"))
"""Colorado's scrub, which holds the Denver number and another, and the registry's answer
(issue 79: only a number's own row of the list scrubs it)."""


@pytest.mark.parametrize("form", ["polars", "arrow", "parquet"])
def test_dnc_results_in_every_form_tell_the_state_lists_given_alike(
        form: str, tmp_path: Path) -> None:
    called = calls(DENVER, SALT_LAKE)
    plain = audit(called, dnc=SCRUBS)
    assert [(rule, phone) for rule, phone, _ in compared(plain)[0]] == [
        ("dnc_call", SALT_LAKE)]  # Colorado's scrub given: its number is no risk
    if form == "polars":
        given: object = pytest.importorskip("polars").from_pandas(SCRUBS)
    elif form == "arrow":
        given = pa.Table.from_pandas(SCRUBS, preserve_index=False)
    else:
        given = tmp_path / "dnc.parquet"
        SCRUBS.to_parquet(given)
        given = str(given)
    report = audit(called, dnc=given)
    if form == "parquet":  # on Dask: the same report
        report = report.compute() if hasattr(report, "compute") else report
    assert compared(report) == compared(plain)


def test_without_the_states_scrub_a_colorado_number_called_is_a_risk() -> None:
    """The case the forms above would have read wrongly: no row of US-CO given."""
    found = compared(audit(calls(DENVER), dnc=results((SALT_LAKE, False, "national"))))[0]
    assert ("dnc_call", DENVER, "risk") in found


LEADS = pd.DataFrame({"id": ["lead_1"], "campaign_id": ["cmp_1"], "phone": [SALT_LAKE],
                      "status": ["callback"]})


@pytest.mark.parametrize("engine", ["pandas", "dask"])
def test_a_result_that_does_not_say_whether_listed_is_no_check(engine: str,
                                                                tmp_path: Path) -> None:
    unanswered = results((SALT_LAKE, None, "national"))
    dnc: object = unanswered
    if engine == "dask":
        dd = pytest.importorskip("dask.dataframe")
        dnc = dd.from_pandas(unanswered, npartitions=1)
    report = audit(calls(SALT_LAKE), leads=LEADS, dnc=dnc)
    report = report.compute() if hasattr(report, "compute") else report
    rules = [rule for rule, _, _ in compared(report)[0]]
    assert "unscreened_lead" in rules and "dnc_call" not in rules
    note = report.notes["dnc_unanswered"]
    assert note.startswith("listed is empty (not known) in 1 DNC result: each is read as "
                           "no check of its number")
    answered = pd.concat([unanswered, results((SALT_LAKE, True, "national"))])
    rules = [rule for rule, _, _ in compared(audit(calls(SALT_LAKE), leads=LEADS,
                                                   dnc=answered))[0]]
    assert "dnc_call" in rules and "unscreened_lead" not in rules  # the other answers


def test_results_that_all_answer_make_no_note() -> None:
    assert "dnc_unanswered" not in audit(calls(SALT_LAKE), dnc=SCRUBS).notes


DALLAS = "+12145550142"


@pytest.mark.parametrize("written", ["us-tx", "TX", "Texas", " texas ", "ＴＸ"])
def test_a_states_list_is_named_as_people_write_the_state(written: str) -> None:
    """A vendor's scrub of Texas's list says ``TX`` or ``Texas``, not ``US-TX``: read as
    the address states are read (it was refused), with the same findings, and Colorado's
    scrub named ``Colorado`` is a scrub of its list given (no risk for its numbers)."""
    def told(texas: str, colorado: str) -> pd.DataFrame:
        return results((DALLAS, True, texas), (DENVER, False, colorado))

    called = calls(DALLAS, DENVER)
    plain = audit(called, dnc=told("US-TX", "US-CO"))
    assert [(rule, basis) for rule, _, basis in compared(plain)[0]] == [("dnc_call", "law")]
    assert compared(audit(called, dnc=told(written, "Colorado"))) == compared(plain)
    assert next_allowed(DALLAS, CALLED, dnc=told(written, "CO"))["rule"].tolist() == [
        "dnc_call"]


@pytest.mark.parametrize("written", ["Utah", "DNC", "national registry"])
def test_a_list_no_state_keeps_or_no_list_is_refused_by_name(written: str) -> None:
    with pytest.raises(AuditInputError, match=rf"dnc\.list holds '{written}': pass one of "
                                              "national, company, US-CO"):
        audit(calls(DALLAS), dnc=results((DALLAS, True, written)))
