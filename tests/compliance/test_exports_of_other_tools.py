"""A month audited from the exports other tools write (issue 79, item 2 and its proof): the
same account written as three dialers, CRMs and DNC vendors write it, each with its own
column names, its own words for the values and its local times with their offsets, gives
the findings the account gives in dialkit's own columns, through the library and through
the command line alike, and ``when`` and ``upcoming`` answer of it as they answer of
dialkit's own.

The account is the one the engines are compared on (``test_engines_compared.account``:
every declared frame with every declared column, and findings of every rule), so that no
column of any input is left out of the comparison. The three tools:

- **A dialer that writes words** (``Call ID``, ``Phone Number``, ``Call Start`` in New
  York's time, ``Outbound``, ``Do Not Call``, ``No Answer``; a CRM's ``Lead ID``, ``Line
  Type``; a DNC vendor's ``Scrub Date``, ``On DNC`` as ``Y``/``N``): every name and word is
  recognised, so nothing is mapped.
- **A dialer that writes codes** (Vicidial's way: ``uniqueid``, ``phone_number``, a
  ``status`` column that holds the disposition as ``NI``, ``DNC``, ``SALE``, a
  ``call_status`` of ``NA``, ``B``, ``AM``; ``OUT``; times in Los Angeles' offset): each
  code is mapped (``--value``) and the disposition's column too (``--map``).
- **A CRM's activity export** (``Activity ID``, ``Activity Date`` in Chicago's offset,
  ``Outgoing``, ``Sold``, ``State/Region``, a registry named ``National DNC``), saved by a
  spreadsheet with ``;`` between its fields: what it names its own way is mapped.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from test_engines_compared import COMMAND, FLAGS, OPTIONS, _rows, account
from typer.testing import CliRunner

import bench_audit
from dialkit.cli import app
from dialkit.compliance import audit, read_export, run_upcoming, run_when

Frames = dict[str, pd.DataFrame]


def _local(times: pd.Series, zone: str) -> pd.Series:
    """UTC times as a tool writes them: the wall clock of ``zone`` with its offset."""
    return times.dt.tz_convert(zone).map(lambda at: None if pd.isna(at) else at.isoformat())


def _words(column: pd.Series, said: Mapping[str, str] | Callable[[str], str]) -> pd.Series:
    """A column of named values written in a tool's words (missing stays missing)."""
    write = said.get if isinstance(said, Mapping) else said
    return column.astype(object).map(lambda v: None if pd.isna(v) else write(str(v)))


def _title(value: str) -> str:
    """``do_not_call`` as a person writes it: ``Do Not Call``."""
    return value.replace("_", " ").replace("-", " ").title()


@dataclass(frozen=True)
class Tool:
    """How a tool writes each frame (``write``: the account's frames to its own), and
    what its user tells dialkit of it: ``mapping`` and ``values``, as ``audit`` takes them."""

    name: str
    write: Callable[[Frames], Frames]
    mapping: dict[str, str] = field(default_factory=dict)
    values: dict[str, dict[str, str]] = field(default_factory=dict)
    sep: str = ","

    def arguments(self) -> list[str]:
        """``mapping`` and ``values`` as the command line takes them."""
        return ([f"--map={column}={header}" for column, header in self.mapping.items()]
                + [f"--value={column}:{word}={meant}" for column, words in self.values.items()
                   for word, meant in words.items()])

    def files(self, folder: Path) -> dict[str, Path]:
        """The account written as this tool writes it, a CSV file a frame."""
        paths = {}
        for name, frame in self.write(account()).items():
            paths[name] = folder / f"{self.name}-{name}.csv"
            frame.to_csv(paths[name], index=False, sep=self.sep)
        return paths


def _worded(frames: Frames) -> Frames:
    calls, leads, dnc, consents = (frames[n] for n in ("calls", "leads", "dnc", "consents"))
    east = "America/New_York"
    return {**frames, "calls": pd.DataFrame({
        "Call ID": calls["id"], "Direction": _words(calls["direction"], _title),
        "Caller ID": calls["from_number"], "Phone Number": calls["to_number"],
        "Call Status": _words(calls["status"], _title),
        "Call Start": _local(calls["created_at"], east),
        "Answer Time": _local(calls["answered_at"], east),
        "End Time": _local(calls["ended_at"], east), "Duration": calls["duration_seconds"],
        "Campaign": calls["campaign_id"], "Disposition": _words(calls["disposition"], _title),
        "Hangup Reason": _words(calls["hangup_cause"], str.upper),
        "Agent Connect Time": _local(calls["agent_joined_at"], east),
        "subject": calls["subject"],
        "Prerecorded Voice": calls["prerecorded"].map({True: "Yes", False: "No"})}),
        "leads": leads.rename(columns={
            "id": "Lead ID", "campaign_id": "Campaign", "phone": "Phone",
            "status": "Lead Status", "state": "State", "line": "Line Type",
            "other_phones": "Alternate Phones", "created_at": "Created Date"}).assign(**{
                "Lead Status": _words(leads["status"], _title),
                "Line Type": _words(leads["line"], _title)}),
        "dnc": pd.DataFrame({
            "Phone Number": dnc["phone"], "On DNC": dnc["listed"].map({True: "Y", False: "N"}),
            "Scrub Date": _local(dnc["checked_at"], east),
            "Registration Date": _local(dnc["listed_at"], east),
            "List Name": _words(dnc["list"], _title)}),
        "consents": pd.DataFrame({
            "Phone": consents["phone"], "Lead ID": consents["lead_id"],
            "Consent Type": _words(consents["kind"], {"written": "Written", "ebr": "EBR",
                                                      "oral": "Oral"}.__getitem__),
            "Opt In Date": _local(consents["given_at"], east),
            "Opt Out Date": _local(consents["revoked_at"], east),
            "Relationship": _words(consents["relationship"], _title)})}


_DISPOSITIONS = {"info_sent": "INFO", "not_interested": "NI", "callback_requested": "CALLBK",
                 "sale": "SALE", "wrong_number": "WRONG", "do_not_call": "DNC"}
_STATUSES = {"completed": "ANSWERED", "no-answer": "NA", "voicemail": "AM", "busy": "B",
             "failed": "F"}


def _coded(frames: Frames) -> Frames:
    calls, leads, dnc = frames["calls"], frames["leads"], frames["dnc"]
    west = "America/Los_Angeles"
    return {**frames, "calls": pd.DataFrame({
        "uniqueid": calls["id"], "direction": _words(calls["direction"], {
            "outbound": "OUT", "inbound": "IN"}), "caller_id": calls["from_number"],
        "phone_number": calls["to_number"], "call_date": _local(calls["created_at"], west),
        "answer_time": _local(calls["answered_at"], west),
        "hangup_time": _local(calls["ended_at"], west),
        "length_in_sec": calls["duration_seconds"], "campaign_id": calls["campaign_id"],
        "status": _words(calls["disposition"], _DISPOSITIONS),
        "call_status": _words(calls["status"], _STATUSES),
        "term_reason": _words(calls["hangup_cause"], str.upper),
        "agent_connect_time": _local(calls["agent_joined_at"], west),
        "subject": calls["subject"], "prerecorded": calls["prerecorded"].astype(int)}),
        "leads": leads.rename(columns={"id": "lead_id", "phone": "phone_number",
                                       "line": "phone_type"}).assign(
            status=_words(leads["status"], str.upper),
            phone_type=_words(leads["line"], str.upper)),
        "dnc": dnc.rename(columns={"listed": "dnc_flag", "checked_at": "checked"}).assign(
            list=_words(dnc["list"], str.upper))}


def _crm(frames: Frames) -> Frames:
    calls, leads, dnc = frames["calls"], frames["leads"], frames["dnc"]
    central = "America/Chicago"
    return {**frames, "calls": pd.DataFrame({
        "Activity ID": calls["id"], "Call Direction": _words(calls["direction"], {
            "outbound": "Outgoing", "inbound": "Incoming"}),
        "From Number": calls["from_number"], "To Number": calls["to_number"],
        "Activity Date": _local(calls["created_at"], central),
        "Answered At": _local(calls["answered_at"], central),
        "Ended At": _local(calls["ended_at"], central),
        "Call Duration": calls["duration_seconds"], "Campaign Name": calls["campaign_id"],
        "Call Outcome": _words(calls["disposition"], lambda v: "Sold" if v == "sale"
                               else _title(v)),
        "Call Status": calls["status"], "Disconnect Reason": calls["hangup_cause"],
        "Agent Joined At": _local(calls["agent_joined_at"], central),
        "subject": calls["subject"], "Prerecorded": calls["prerecorded"]}),
        "leads": leads.rename(columns={"id": "Record ID", "phone": "Phone Number",
                                       "state": "State/Region", "status": "Lead Status",
                                       "campaign_id": "Campaign Name"}),
        "dnc": pd.DataFrame({
            "Number": dnc["phone"], "DNC": dnc["listed"].map({True: "TRUE", False: "FALSE"}),
            "Date Checked": _local(dnc["checked_at"], central),
            "Date Added": _local(dnc["listed_at"], central),
            "Registry": _words(dnc["list"], {"national": "National DNC",
                                             "company": "Company"})})}


TOOLS = [
    Tool("worded", _worded),
    Tool("coded", _coded, mapping={"disposition": "status"}, values={
        "direction": {"OUT": "outbound", "IN": "inbound"},
        "disposition": {code: word for word, code in _DISPOSITIONS.items()},
        "calls.status": {code: word for word, code in _STATUSES.items()}}),
    Tool("crm", _crm, sep=";", mapping={"calls.id": "Activity ID",
                                        "calls.created_at": "Activity Date",
                                        "leads.state": "State/Region"},
         values={"direction": {"Outgoing": "outbound", "Incoming": "inbound"},
                 "disposition": {"Sold": "sale"}, "dnc.list": {"National DNC": "national"}}),
]


def _found(report: Any) -> list[dict[str, Any]]:
    return _rows(json.loads(report.findings.to_json(orient="records", date_format="iso")))


@pytest.fixture(scope="module")
def as_dialkit_writes() -> list[dict[str, Any]]:
    """The account's findings in dialkit's own columns and words."""
    given = dict(account())
    return _found(audit(given.pop("calls"), **given, **OPTIONS))


@pytest.mark.parametrize("tool", TOOLS, ids=lambda tool: tool.name)
def test_the_library_finds_in_another_tools_export_what_it_finds_in_its_own(
        tool: Tool, tmp_path: Path, as_dialkit_writes: list[dict[str, Any]]) -> None:
    read = {name: read_export(path) for name, path in tool.files(tmp_path).items()}
    report = audit(read.pop("calls"), **read, **OPTIONS, mapping=tool.mapping,
                   values=tool.values)
    assert _found(report) == as_dialkit_writes
    assert "values" not in report.notes  # every word understood
    assert "Phone" in report.notes["columns"] or "phone_number" in report.notes["columns"]


@pytest.mark.parametrize("tool", TOOLS, ids=lambda tool: tool.name)
def test_the_command_finds_in_another_tools_export_what_the_library_finds(
        tool: Tool, tmp_path: Path, as_dialkit_writes: list[dict[str, Any]]) -> None:
    ids = tmp_path / "ids.txt"
    ids.write_text("\n".join(bench_audit.VERIFIED) + "\n")
    arguments = ["compliance", "audit"]
    for name, path in tool.files(tmp_path).items():
        arguments += ["--calls" if name == "calls" else FLAGS[name], str(path)]
    done = CliRunner().invoke(app, [*arguments, *tool.arguments(),
                                    *(a.format(ids=ids) for a in COMMAND)])
    assert done.exit_code == 0, done.output
    assert _rows(json.loads(done.stdout)) == as_dialkit_writes


def test_the_command_says_what_it_read_as_what(tmp_path: Path) -> None:
    tool = TOOLS[2]
    paths = tool.files(tmp_path)
    arguments = ["compliance", "audit", "--calls", str(paths["calls"]), "--dnc",
                 str(paths["dnc"]), *tool.arguments()]
    done = CliRunner().invoke(app, arguments)
    assert done.exit_code == 2
    assert "error: --map names leads.state, but no leads were given" in done.output
    done = CliRunner().invoke(app, [*arguments, "--leads", str(paths["leads"])])
    assert done.exit_code == 0, done.output
    said = " ".join(done.stdout.split())
    assert "'Activity Date' as created_at" in said and "'Number' as phone" in said
    assert "--map COLUMN=HEADER" in said and "mapping=" not in said


def test_a_word_left_unmapped_is_named_with_its_column(tmp_path: Path) -> None:
    """The coded dialer's ``INFO`` without its mapping: named, never read as a default
    (its ``NI`` and ``DNC`` are VICIdial's, read without one since issue 98)."""
    tool = TOOLS[1]
    read = {name: read_export(path) for name, path in tool.files(tmp_path).items()}
    values = {**tool.values, "disposition": {"SALE": "sale"}}
    report = audit(read.pop("calls"), **read, **OPTIONS, mapping=tool.mapping, values=values)
    assert "calls.disposition 'INFO'" in report.notes["values"]
    assert "'NI'" not in report.notes["values"]


def _asked(folder: Path, tool: Tool | None) -> dict[str, Any]:
    """The files ``when`` and ``upcoming`` are given, as ``tool`` writes them (None: as
    dialkit does), with its mapping and values."""
    if tool is None:
        folder.mkdir()
        paths = {}
        for name, frame in account().items():
            paths[name] = folder / f"{name}.csv"
            frame.to_csv(paths[name], index=False)
        return paths
    return {**tool.files(folder), "mapping": tool.mapping, "values": tool.values}


@pytest.mark.parametrize("tool", TOOLS, ids=lambda tool: tool.name)
def test_when_answers_of_another_tools_export_as_of_its_own(tool: Tool, tmp_path: Path) -> None:
    numbers = sorted(set(account()["leads"]["phone"].astype(object)))[:12]
    at = str(bench_audit.AS_OF)

    def answer(given: dict[str, Any]) -> list[dict[str, Any]]:
        found = run_when(numbers, at=at, **given)
        return json.loads(found.to_json(orient="records", date_format="iso"))

    own = answer(_asked(tmp_path / "own", None))
    assert {row["allowed"] for row in own} == {True, False}
    assert {row["rule"] for row in own} > {None}
    assert answer(_asked(tmp_path, tool)) == own


@pytest.mark.parametrize("tool", TOOLS, ids=lambda tool: tool.name)
def test_upcoming_judges_another_tools_export_as_its_own(tool: Tool, tmp_path: Path) -> None:
    callbacks = tmp_path / "callbacks.csv"
    leads = account()["leads"]
    pd.DataFrame({"id": ["cb_1", "cb_2"], "lead_id": leads["id"].iloc[:2].to_numpy(),
                  "campaign_id": leads["campaign_id"].iloc[:2].to_numpy(),
                  "scheduled_at": ["2026-10-21T02:30:00Z", "2026-10-21T16:00:00Z"],
                  "status": "pending"}).to_csv(callbacks, index=False)

    def found(given: dict[str, Any]) -> list[dict[str, Any]]:
        run = run_upcoming(callbacks=callbacks, horizon="30d", as_of="2026-10-20T00:00Z",
                           **given)
        return json.loads(run.found.to_json(orient="records", date_format="iso"))

    own = found(_asked(tmp_path / "own", None))
    assert own, "the scheduled calls judged break some rule"
    assert found(_asked(tmp_path, tool)) == own


def test_when_says_on_standard_error_what_it_read_as_what(tmp_path: Path) -> None:
    """``--json`` stays data: the note of the columns read goes to standard error, in the
    command's words."""
    tool = TOOLS[2]
    leads = tool.files(tmp_path)["leads"]
    number = str(account()["leads"]["phone"].iloc[0])
    done = CliRunner().invoke(app, ["compliance", "when", number, "--leads", str(leads),
                                    "--map", "leads.state=State/Region", "--json",
                                    "--at", str(bench_audit.AS_OF)])
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)[0]["phone"] == number
    assert done.stderr.startswith("note: read as the audit's columns: leads: 'State/Region' as "
                                  "state, 'Record ID' as id")
    assert "--map COLUMN=HEADER" in done.stderr
