"""The audit's named values read as a spreadsheet or another system writes them: a
consent's ``kind`` ``Written`` or ``EBR``, a reassigned ``answer`` ``YES``, a lead's
``line`` ``Business``, in any case and with spaces around them, give the findings of the
values as the audit names them (they were refused); a value that names none is still
refused by name, never read as one of them.

A Toronto number on Canada's DNCL since January, checked in May, called on Tuesday 2 June
2026 at 13:00 in Toronto: a business line is no subscriber the DNCL protects, and a
written consent standing at the call exempts it (the DNCL's row, ``_law/dnc_lists.toml``).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from dialkit.cli import app
from dialkit.compliance import AuditInputError, audit, upcoming

TORONTO = "+14165550142"
CALLS = pd.DataFrame({"id": ["call_1"], "direction": "outbound",
                      "from_number": "+14155550100", "to_number": [TORONTO],
                      "created_at": [pd.Timestamp("2026-06-02T17:00Z")], "answered_at": pd.NaT,
                      "ended_at": pd.NaT, "campaign_id": "cmp_1", "disposition": None})
DNC = pd.DataFrame({"phone": [TORONTO], "listed": [True],
                    "listed_at": [pd.Timestamp("2026-01-05T00:00Z")],
                    "checked_at": [pd.Timestamp("2026-05-20T00:00Z")]})


def leads(line: str) -> pd.DataFrame:
    return pd.DataFrame({"id": ["lead_1"], "campaign_id": ["cmp_1"], "phone": [TORONTO],
                         "status": ["callback"], "line": [line]})


def consents(kind: str, relationship: str = "purchase") -> pd.DataFrame:
    return pd.DataFrame({"phone": [TORONTO], "kind": [kind], "relationship": [relationship],
                         "given_at": ["2026-02-01T00:00Z"]})


def reassigned(answer: str) -> pd.DataFrame:
    return pd.DataFrame({"phone": [TORONTO], "asked_at": ["2026-03-01T00:00Z"],
                         "answer": [answer]})


def found(**given: object) -> list[str]:
    given.setdefault("leads", leads("residential"))
    return sorted(audit(CALLS, dnc=DNC, **given).findings["rule"].astype(str))  # type: ignore[arg-type]


@pytest.mark.parametrize(("as_named", "as_written"), [
    ({"leads": leads("business")}, {"leads": leads("Business")}),
    ({"leads": leads("residential")}, {"leads": leads(" RESIDENTIAL ")}),
    ({"consents": consents("written")}, {"consents": consents("Written")}),
    ({"consents": consents("ebr", "inquiry")}, {"consents": consents("EBR", "Inquiry")}),
    ({"consents": consents("written"), "reassigned": reassigned("yes")},
     {"consents": consents("written"), "reassigned": reassigned("YES")}),
], ids=["business line", "residential line", "written consent", "ebr inquiry",
        "reassigned yes"])
def test_a_value_written_in_another_case_gives_the_same_findings(
        as_named: dict[str, pd.DataFrame], as_written: dict[str, pd.DataFrame]) -> None:
    assert found(**as_written) == found(**as_named)


def test_the_cases_compared_differ_from_one_another() -> None:
    """The facts matter: what the values say changes the findings compared above."""
    assert "dnc_call" in found()
    assert "dnc_call" not in found(leads=leads("business"))
    assert "dnc_call" not in found(consents=consents("written"))
    assert "dnc_call" in found(consents=consents("written"), reassigned=reassigned("yes"))


@pytest.mark.parametrize(("given", "said"), [
    ({"consents": consents("verbal")}, "consents.kind holds 'verbal'"),
    ({"consents": consents("written", "bought")}, "consents.relationship holds 'bought'"),
    ({"reassigned": reassigned("maybe")}, "reassigned.answer holds 'maybe'"),
    ({"leads": leads("office")}, "leads.line holds 'office'"),
])
def test_a_value_that_names_none_is_refused_by_name(given: dict[str, pd.DataFrame],
                                                    said: str) -> None:
    with pytest.raises(AuditInputError, match=said):
        found(**given)


def listed_lead(status: str) -> pd.DataFrame:
    return leads("residential").assign(status=status)


def test_a_leads_status_in_another_case_is_that_status() -> None:
    """A lead ``DNC`` (as a CRM exports it) was read as an open lead: a ``dnc_lead``
    finding ("on the list but the lead is DNC") for a lead already closed."""
    assert found(leads=listed_lead("DNC")) == found(leads=listed_lead("dnc"))
    assert "dnc_lead" not in found(leads=listed_lead("DNC"))
    assert "dnc_lead" in found(leads=listed_lead("new"))


@pytest.mark.parametrize(("status", "kinds"), [
    ("pending", ["callback"]), ("Pending", ["callback"]), (" PENDING ", ["callback"]),
    ("cancelled", []), ("Cancelled", [])])
def test_a_callbacks_status_in_another_case_is_that_status(status: str,
                                                          kinds: list[str]) -> None:
    """A callback ``Pending`` in an export edited by hand was silently not scheduled."""
    given = {"calls": CALLS.iloc[:0], "dnc": DNC,
             "leads": listed_lead("callback").assign(next_attempt_at=pd.NaT),
             "callbacks": pd.DataFrame({"id": ["cb_1"], "lead_id": ["lead_1"],
                                        "campaign_id": ["cmp_1"], "status": [status],
                                        "scheduled_at": [pd.Timestamp("2026-06-03T03:00Z")]})}
    due = upcoming(given, as_of="2026-06-02T18:00Z")  # 23:00 in Toronto: a finding
    assert sorted(set(due["kind"].astype(str))) == kinds


@pytest.mark.parametrize(("frame", "said"), [
    ("leads", "leads.status holds 'open'"), ("callbacks", "callbacks.status holds 'done'")])
def test_a_status_the_contract_does_not_name_is_refused_by_name(frame: str, said: str) -> None:
    given = {"calls": CALLS.iloc[:0], "dnc": DNC,
             "leads": listed_lead("open" if frame == "leads" else "new").assign(
                 next_attempt_at=pd.NaT),
             "callbacks": pd.DataFrame({"id": ["cb_1"], "lead_id": ["lead_1"],
                                        "campaign_id": ["cmp_1"],
                                        "status": ["done" if frame == "callbacks" else "pending"],
                                        "scheduled_at": [pd.Timestamp("2026-06-03T03:00Z")]})}
    with pytest.raises(AuditInputError, match=said):
        upcoming(given, as_of="2026-06-02T18:00Z")


# Issue 79, item 1: every named column of every input read through one vocabulary. A value
# a dialer writes its own way is the contract's word (any case; spaces, underscores and
# hyphens alike), or the user's mapping makes it one, or the report names it and holds its
# rows out of the rules it would decide; never a default.

NEW_YORK = "+1212555{:04d}"
MONDAY = pd.Timestamp("2026-06-01T15:00Z")  # 11:00 in New York


def call(n: int, at: pd.Timestamp, **columns: object) -> dict[str, object]:
    """An outbound call of campaign ``cmp_1`` to a New York number, placed at ``at``."""
    return {"id": f"call_{n}", "direction": "outbound", "from_number": "+14155550100",
            "to_number": NEW_YORK.format(n), "created_at": at, "answered_at": pd.NaT,
            "ended_at": at + pd.Timedelta(minutes=2), "campaign_id": "cmp_1",
            "disposition": None, "status": "completed", **columns}


def answered(n: int, disposition: object, *, status: str = "completed",
             talk: float = 120) -> dict[str, object]:
    """A call answered 10 s after it was placed, ended ``talk`` s after the answer (no join
    times: abandonment told by the proxy, an answer with no disposition ended within 2 s)."""
    at = MONDAY + pd.Timedelta(minutes=n)
    return call(n, at, answered_at=at + pd.Timedelta(seconds=10),
                ended_at=at + pd.Timedelta(seconds=10 + talk), disposition=disposition,
                status=status)


def campaign(live: list[object], dropped: object, machine: str) -> pd.DataFrame:
    """A campaign of 71 live answers, 7 of them abandoned (9.9 %: the law's limit is 3 %),
    the dispositions of the others ``live`` in turn, the abandoned ones' ``dropped``; and
    180 calls an answering machine took (status ``machine``, a message left), which no
    abandonment counts."""
    rows = [answered(n, live[n % len(live)]) for n in range(64)]
    rows += [answered(n, dropped, talk=1) for n in range(64, 71)]
    rows += [answered(n, "voicemail_left", status=machine, talk=30) for n in range(100, 280)]
    return pd.DataFrame(rows)


def abandonment(report: object) -> list[str]:
    findings = report.findings  # type: ignore[attr-defined]
    return findings.loc[findings["rule"] == "abandonment", "evidence"].tolist()


def test_a_dialers_words_are_the_contracts_and_abandonment_is_found() -> None:
    """A dialer writes ``Sale``, ``NOT INTERESTED``, ``Callback-Requested``, and
    ``Voicemail`` for its answering machine: 7 of 71 live answers dropped. Read as written,
    the 180 ``Voicemail`` calls were live answers and the rate 7 of 251 (2.8 %) passed."""
    as_named = audit(campaign(["sale", "not_interested", "callback_requested"], None,
                              "voicemail"))
    as_written = audit(campaign(["Sale", "NOT INTERESTED", "Callback-Requested"], None,
                                "Voicemail"))
    assert len(abandonment(as_named)) == 7
    assert "7 of 71 calls answered by a live person" in abandonment(as_named)[0]
    assert abandonment(as_written) == abandonment(as_named)
    assert "values" not in as_written.notes


def test_a_word_not_understood_is_named_and_never_a_live_answer() -> None:
    """The dialer's own words (``Hung Up``, ``No Agent``) are no contract's nor any
    dialer's the vocabulary knows: the 7 dropped calls' and 5 others' rows are held out of
    abandonment and named with their counts, never read as a live conversation's
    disposition (which let the 7 pass); mapped by the user, ``No Agent`` is no
    disposition, and the 7 of 71 are found. (A dialer's ``Dropped`` is read as abandoned
    since issue 98: ``test_standard_words``.)"""
    calls = campaign(["Sale", "Hung Up", "sale", "sale", "sale", "sale", "sale", "sale",
                      "sale", "sale", "sale", "sale", "sale"], "No Agent", "voicemail")
    held = audit(calls)
    assert abandonment(held) == []
    assert held.unread.to_dict("records") == [
        {"column": "calls.disposition", "value": "Hung Up", "rows": 5},
        {"column": "calls.disposition", "value": "No Agent", "rows": 7}]
    assert ("calls.disposition 'No Agent' (7 calls: held out of abandonment and short_ring)"
            in held.notes["values"])
    assert int(held.population["answered"].sum()) == 59  # neither word a live answer
    mapped = audit(calls, values={"disposition": {"no agent": None}})
    assert len(abandonment(mapped)) == 7
    assert "7 of 66 calls answered by a live person" in abandonment(mapped)[0]
    assert mapped.unread["value"].tolist() == ["Hung Up"]


@pytest.mark.parametrize("direction", ["Outbound", "OUTBOUND ", "outbound"])
def test_a_direction_in_another_case_audits_the_same_calls(direction: str) -> None:
    """``Outbound``, as a dialer exports it, audited no call at all (and passed)."""
    calls = campaign(["sale"], None, "voicemail")
    report = audit(calls.assign(direction=direction))
    assert report.calls_audited == len(calls)
    assert abandonment(report) == abandonment(audit(calls))


def dnc_requested(disposition: str) -> pd.DataFrame:
    """A call whose person asked not to be called again, then two later calls to them."""
    first = call(1, MONDAY, answered_at=MONDAY, disposition=disposition)
    later = [call(1, MONDAY + pd.Timedelta(days=days), id=f"call_{days}") for days in (2, 3)]
    return pd.DataFrame([first, *later])


OTHER_DNC = pd.DataFrame({"phone": ["+12125559999"], "listed": [False],
                          "checked_at": [pd.Timestamp("2026-05-20T00:00Z")]})


@pytest.mark.parametrize("disposition", ["Do Not Call", "DO_NOT_CALL", "do-not-call",
                                         "DNC (mapped)"])
def test_a_do_not_call_disposition_as_written_is_a_request(disposition: str) -> None:
    """``Do Not Call`` (and the contract's word in capitals) was no request: the two later
    calls to the person were missed. A dialer's ``DNC`` is one where the user maps it."""
    mapped = {"values": {"calls.disposition": {"DNC (mapped)": "do-not-call"}}}
    report = audit(dnc_requested(disposition), dnc=OTHER_DNC,
                   **(mapped if "mapped" in disposition else {}))
    named = audit(dnc_requested("do_not_call"), dnc=OTHER_DNC)
    dnc = report.findings.loc[report.findings["rule"] == "dnc_call", "call_id"]
    assert sorted(dnc) == ["call_2", "call_3"]
    assert dnc.tolist() == named.findings.loc[named.findings["rule"] == "dnc_call",
                                              "call_id"].tolist()


def short(status: object, disposition: object = None) -> pd.DataFrame:
    """An unanswered call the line ended 3 s after it was placed."""
    return pd.DataFrame([call(1, MONDAY, ended_at=MONDAY + pd.Timedelta(seconds=3),
                              status=status, disposition=disposition)])


def rules_found(report: object) -> list[str]:
    return sorted(report.findings["rule"].astype(str))  # type: ignore[attr-defined]


@pytest.mark.parametrize(("status", "disposition"), [
    ("busy", None), ("Busy", None), ("BUSY ", None), ("completed", "Busy")])
def test_a_busy_line_is_no_short_ring(status: str, disposition: str | None) -> None:
    """A busy line's 3 s is the callee's end, not the dialer's: ``BUSY `` with its trailing
    space was a ``short_ring`` breach of law, and so was a dialer's ``Busy`` disposition
    (held out and named until issue 98; now read as the disposition ``busy``)."""
    report = audit(short(status, disposition))
    assert "short_ring" not in rules_found(report)
    assert "values" not in report.notes


def test_a_short_ring_is_found_where_nothing_says_who_ended_it() -> None:
    """The cases above differ from this one only by the word: the rule still runs."""
    assert rules_found(audit(short("completed"))) == ["short_ring"]


def test_a_value_not_understood_is_listed_with_its_count() -> None:
    calls = pd.DataFrame([call(1, MONDAY, status="Ringing"), call(2, MONDAY, status="Ringing"),
                          call(3, MONDAY, hangup_cause="CARRIER_ERROR_42")])
    report = audit(calls)
    assert report.unread.to_dict("records") == [
        {"column": "calls.hangup_cause", "value": "CARRIER_ERROR_42", "rows": 1},
        {"column": "calls.status", "value": "Ringing", "rows": 2}]
    assert "calls.status 'Ringing' (2 calls: held out of abandonment and short_ring)" in (
        report.notes["values"])
    assert "values" not in audit(calls.assign(status="no_answer", hangup_cause="USER BUSY")
                                 ).notes


def test_a_direction_not_understood_is_named_not_audited() -> None:
    calls = pd.DataFrame([call(1, MONDAY, direction="OUT"), call(2, MONDAY)])
    report = audit(calls)
    assert (report.calls_audited, report.held_out) == (1, 1)
    assert "calls.direction 'OUT' (1 call: not audited)" in report.notes["values"]
    assert audit(calls, values={"direction": {"out": "outbound"}}).calls_audited == 2


@pytest.mark.parametrize(("values", "said"), [
    ({"status": {"x": "busy"}}, "a column of calls and leads: write which"),
    ({"colour": {"x": "busy"}}, "values= names 'colour', no named column"),
    ({"disposition": {"Sale Made": "sold"}}, "maps calls.disposition 'Sale Made' to 'sold'"),
])
def test_a_mapping_that_names_no_value_is_refused(values: dict[str, dict[str, str]],
                                                 said: str) -> None:
    with pytest.raises(AuditInputError, match=said):
        audit(short("busy"), values=values)


def test_a_records_word_is_refused_by_count_and_read_where_mapped() -> None:
    """A record's column (here a consent's kind) cannot hold a row out: it is refused,
    naming each word with its count and how to map it; mapped, it is read so."""
    with pytest.raises(AuditInputError, match=r"consents.kind holds 'Verbal'.*values=\{'kind': "
                                              r"\{'Verbal': 'written'\}\} \(not understood: "
                                              r"'Verbal' \(1 row\)\)"):
        found(consents=consents("Verbal"))
    assert found(consents=consents("Express Written"),
                 values={"kind": {"express written": "written"}}) == found(
        consents=consents("written"))


def test_the_command_fails_an_audit_whose_calls_were_all_held_out(tmp_path: Path) -> None:
    """Every call ``OUT``: 0 calls audited is no quiet period, whatever --allow-empty says,
    and the message names the word, not the period; mapped with --value, they are
    audited."""
    path = tmp_path / "calls.csv"
    dnc_requested("Do Not Call").assign(direction="OUT").to_csv(path, index=False)
    result = CliRunner().invoke(app, ["compliance", "audit", "--calls", str(path),
                                      "--fail-on", "law", "--allow-empty"])
    assert result.exit_code == 1, result.output
    assert result.output.startswith("0 CALLS AUDITED: the direction of 3 calls was not "
                                    "understood ('OUT' (3 calls))")
    assert "--value direction:'OUT'=outbound" in result.output
    assert "the period or campaigns asked for" not in result.output
    mapped = CliRunner().invoke(app, ["compliance", "audit", "--calls", str(path), "--json",
                                      "--value", "direction:OUT=outbound", "--fail-on", "law"])
    assert mapped.exit_code == 0, mapped.output


def test_the_cover_and_the_page_say_which_words_held_the_calls_out(tmp_path: Path) -> None:
    """An audit of no call whose calls were all held out says why on the workbook's cover
    and at the top of its page, as its text does (they said the period asked for had no
    call), each in its reader's words."""
    path = tmp_path / "calls.csv"
    dnc_requested("Do Not Call").assign(direction="OUT").to_csv(path, index=False)
    done = CliRunner().invoke(app, ["compliance", "audit", "--calls", str(path), "--workbook",
                                    str(tmp_path / "evidence.xlsx"), "--html",
                                    str(tmp_path / "report.html")])
    assert done.exit_code == 0, done.output
    cover = pd.read_excel(tmp_path / "evidence.xlsx", sheet_name="cover", engine="calamine")
    audited = cover.set_index("item").loc["calls audited", "value"]
    page = (tmp_path / "report.html").read_text()
    for said in (audited, page):
        assert "the direction of 3 calls was not understood" in said
        assert "--value direction:" in said and "values=" not in said
    library = audit(dnc_requested("Do Not Call").assign(direction="OUT")).to_html()
    assert "values={&#x27;direction&#x27;: {&#x27;OUT&#x27;: &#x27;outbound&#x27;}}" in library


def test_dask_reads_the_values_as_pandas_does() -> None:
    """The Dask path reads every partition through the same vocabulary, with the user's
    mapping, and counts the words it did not understand across its partitions."""
    dd = pytest.importorskip("dask.dataframe")
    calls = pd.concat([campaign(["Sale", "Hung Up", "sale"], "Dropped", "Voicemail"),
                       dnc_requested("Do Not Call").assign(
                           campaign_id="cmp_2", id=lambda f: "dnc_" + f["id"]),
                       short("BUSY ", "Busy").assign(id="call_short", direction="OUT")],
                      ignore_index=True)
    values = {"disposition": {"Dropped": None}}
    on_pandas = audit(calls, dnc=OTHER_DNC, values=values)
    on_dask = audit(dd.from_pandas(calls, npartitions=3), dnc=OTHER_DNC, values=values)
    columns = ["rule", "call_id", "evidence"]
    assert on_dask.findings[columns].astype(str).to_dict("records") == (
        on_pandas.findings[columns].astype(str).to_dict("records"))
    assert on_dask.unread.to_dict("records") == on_pandas.unread.to_dict("records")
    assert on_dask.notes["values"] == on_pandas.notes["values"]
    assert {"abandonment", "dnc_call"} <= set(on_pandas.findings["rule"])
