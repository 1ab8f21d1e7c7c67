"""``dialkit compliance when`` and ``upcoming`` take every input their judges take, by the
audit's options made from the one declaration (issue 71, item 7: "give every judge the
same inputs").

``next_allowed`` took ``emergencies=``, ``nonprofit=``, ``contracts=`` ... and ``upcoming``
those and ``consents=``, but ``when`` and ``upcoming`` had none of them: a shell user was
told a Louisiana number could be called during a declared emergency, and a nonprofit's
call to a number on the US registry was refused. The commands' options are made from the
declaration's list of what each judge takes (:attr:`AuditInput.readers`), so the test of
each command is generated from it too; the answers are checked against the law's rows
(La. R.S. 45:844.31(A); 47 U.S.C. 227(a)(4)(C); Fla. Stat. 501.616(6)(b)), never against
the code's own output. The account's case runs against an emulator over real HTTP.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner, Result

import dialkit
from dialkit._utils._choices import AUDIT_INPUTS, GIVEN, AuditInput
from dialkit.cli import app
from dialkit.compliance import US, audit, next_allowed, run_audit, run_upcoming, run_when
from dialkit.errors import InputError
from dialkit.sandbox import attach_environment

runner = CliRunner()
COMMANDS = {"when": "next_allowed", "upcoming": "upcoming"}
"""Each command of a judge before a call, and its judge as the declaration names it."""
MADE = [(command, each) for command, judge in COMMANDS.items() for each in AUDIT_INPUTS
        if judge in each.readers and each.kind in GIVEN]
"""Every input each command's judge takes that it is given (a file, a fact), by the
declaration."""

NEW_ORLEANS = "+15045550123"
EMERGENCY = ("area,starts_at,ends_at,declaration\n"
             "LA,2026-09-01T11:00Z,2026-09-10T23:00Z,Proclamation 115 JML 2026\n")
"""Louisiana's declared emergency, 1 to 10 September 2026: La. R.S. 45:844.31(A) forbids
telephone solicitation while it is in force."""
NEW_YORK = "+12125550123"
LISTED = ("phone,listed,checked_at,listed_at,list\n"
          f"{NEW_YORK},true,2026-05-01T00:00Z,2026-01-01T00:00Z,national\n")
"""The New York number on the US registry since January, last checked in May (no safe
harbor on 2 June): a telephone solicitation to it breaks 47 CFR 64.1200(c)(2)."""


def run(*arguments: object) -> Result:
    result = runner.invoke(app, ["compliance", *map(str, arguments)])
    assert "Traceback" not in result.output, result.output
    return result


def written(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def _said(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_the_audits_options_a_command_has_are_those_its_judge_takes(command: str) -> None:
    """Every input the declaration says the judge takes has its option, by the audit's
    flag (``--preset`` for ``rules``), and no other input of the audit has one, but
    ``when``'s ``--leads``: ``next_allowed`` takes the leads as the numbers asked about
    (the declaration's note), and ``when`` asks about the file's leads of its numbers."""
    shown = run(command, "--help")
    assert shown.exit_code == 0, shown.output
    flags = set(re.findall(r"--[a-z][a-z-]+", shown.output))
    asked_about = {"--leads"} if command == "when" else set()
    assert {each.flag for each in AUDIT_INPUTS if each.flag in flags} == {
        each.flag for each in AUDIT_INPUTS if COMMANDS[command] in each.readers} | asked_about


@pytest.mark.parametrize(("command", "each"), MADE,
                         ids=[f"{command} {each.name}" for command, each in MADE])
def test_an_option_of_what_a_judge_is_given_says_the_declarations_fact(
        command: str, each: AuditInput) -> None:
    """A file's or a fact's option is made from the declaration, as the audit's are: its
    help is the input's fact."""
    shown = run(command, "--help").output
    assert f"{each.in_command} " in shown and _said(each.fact) in _said(shown)


def test_when_offers_no_moment_inside_a_declared_emergency(tmp_path: Path) -> None:
    """Wednesday 2 September 11:00 in New Orleans is within Louisiana's hours; during the
    emergency no call is allowed, and the next allowed moment is its end (18:00 local,
    still inside the window)."""
    emergencies = written(tmp_path, "emergencies.csv", EMERGENCY)
    at = ["--at", "2026-09-02T16:00Z", "--json"]
    without = json.loads(run("when", NEW_ORLEANS, *at).output)[0]
    assert without["allowed"] is True
    given = run("when", NEW_ORLEANS, *at, "--emergencies", emergencies)
    assert given.exit_code == 0, given.output
    answer = json.loads(given.output)[0]
    assert (answer["allowed"], answer["rule"], answer["jurisdiction"]) == (
        False, "calling_hours", "US-LA")
    assert "La. R.S. 45:844.31(A)" in answer["forbidden_by"]
    assert pd.Timestamp(answer["next_allowed_at"]) == pd.Timestamp("2026-09-10T23:00Z")


def test_when_lifts_the_registry_from_a_nonprofits_call(tmp_path: Path) -> None:
    dnc = written(tmp_path, "dnc.csv", LISTED)
    at = ["--at", "2026-06-02T16:00Z", "--dnc", dnc]
    listed = run("when", NEW_YORK, *at)
    assert listed.exit_code == 0, listed.output
    assert listed.output.startswith(f"{NEW_YORK}: not allowed (the number is on the US "
                                    "National Do Not Call Registry")
    lifted = run("when", NEW_YORK, *at, "--nonprofit")
    assert lifted.output == f"{NEW_YORK}: allowed (2026-06-02 12:00 America/New_York)\n"


MIAMI = "+13055550142"
CALLS = ("id,direction,from_number,to_number,created_at,answered_at,ended_at,campaign_id,"
         "disposition\n"
         f"call_1,outbound,+13055550100,{MIAMI},2026-06-01T14:00Z,,,cmp_1,\n"
         f"call_2,outbound,+13055550100,{MIAMI},2026-06-01T15:00Z,,,cmp_1,\n")
TEXT = f"message_id,to,created_at\nmsg_1,{MIAMI},2026-06-01T16:00Z\n"
"""Two calls of campaign ``cmp_1`` to a Miami number and a text to it that day: a third
call at 13:00 would be the fourth contact in 24 hours (Florida allows 3)."""


def test_when_counts_the_calls_and_texts_it_is_given(tmp_path: Path) -> None:
    """Of no campaign, the calls and the text are one subject: the call asked about is the
    fourth contact."""
    calls = written(tmp_path, "calls.csv", CALLS.replace(",cmp_1,", ",,"))
    texts = written(tmp_path, "texts.csv", TEXT)
    at = ["--at", "2026-06-01T17:00Z", "--calls", calls]
    assert run("when", MIAMI, *at).output.startswith(f"{MIAMI}: allowed")
    capped = run("when", MIAMI, *at, "--texts", texts)
    assert capped.output.startswith(f"{MIAMI}: not allowed (4th call in the 24 hours"), (
        capped.output)
    assert "Fla. Stat. 501.616(6)(b)" in capped.output


def test_when_counts_a_cap_on_the_campaign_it_is_given(tmp_path: Path) -> None:
    """Three calls of ``cmp_1``: a fourth of it (the number's latest call's campaign, by
    default) breaks Florida's cap on one subject; a call of another campaign does not."""
    calls = written(tmp_path, "calls.csv", CALLS + CALLS.splitlines()[2].replace(
        "call_2", "call_3").replace("15:00Z", "16:00Z") + "\n")
    at = ["--at", "2026-06-01T17:00Z", "--calls", calls]
    assert run("when", MIAMI, *at).output.startswith(f"{MIAMI}: not allowed (4th call")
    assert run("when", MIAMI, *at, "--campaign", "cmp_1").output.startswith(
        f"{MIAMI}: not allowed (4th call")
    assert run("when", MIAMI, *at, "--campaign", "cmp_2").output.startswith(
        f"{MIAMI}: allowed")


LEADS = f"id,campaign_id,phone,status,next_attempt_at\nlead_1,cmp_1,{MIAMI},new,\n"
CALLBACKS = ("id,lead_id,campaign_id,scheduled_at,status\n"
             "cb_1,lead_1,cmp_1,2026-06-01T17:00Z,pending\n")


@pytest.fixture
def exports(tmp_path: Path) -> dict[str, Path]:
    """The account's exports: the calls and the text of the day, the Miami lead, and its
    callback due at 17:00 UTC (13:00 in Miami)."""
    return {name: written(tmp_path, f"{name}.csv", text) for name, text in (
        ("calls", CALLS), ("texts", TEXT), ("leads", LEADS), ("callbacks", CALLBACKS))}


def test_upcoming_judges_exports_and_counts_their_texts(exports: dict[str, Path]) -> None:
    judged = ["upcoming", "--as-of", "2026-06-01T16:30Z", "--horizon", "1d", "--json",
              *(part for name in ("calls", "leads", "callbacks")
                for part in (f"--{name}", exports[name]))]
    assert json.loads(run(*judged).output) == []  # two calls: the callback is the third
    given = run(*judged, "--texts", exports["texts"])
    assert given.exit_code == 0, given.output
    found = json.loads(given.output)
    assert [(row["call_id"], row["rule"], row["jurisdiction"]) for row in found] == [
        ("cb_1", "call_frequency", "US-FL")]
    for campaign, count in (("cmp_1", 1), ("cmp_2", 0)):  # its campaign's alone
        of_one = run(*judged, "--texts", exports["texts"], "--campaign", campaign)
        assert of_one.exit_code == 0 and len(json.loads(of_one.output)) == count


@pytest.mark.parametrize(("arguments", "said"), [
    (["upcoming", "--texts", "texts.csv"],
     "error: --calls FILE, --leads FILE and --callbacks FILE are needed to judge exported "
     "files: "),
    (["upcoming", "--calls", "calls.csv", "--leads", "leads.csv"],
     "error: --callbacks FILE is needed to judge exported files: "),
    (["upcoming", "--calls", "calls.csv", "--leads", "leads.csv", "--callbacks",
      "callbacks.csv", "--fix"], "error: --fix judges the account, not exported files: "
                                 "leave out --calls FILE"),
    (["upcoming", "--as-of", "30"], "error: --as-of '30': pass an ISO date or time"),
    (["upcoming", "--calls", "calls.csv", "--out", "calls.csv"],
     "error: --out 'calls.csv' is what --calls reads"),
    (["when", NEW_YORK, "--contracts", "calls.csv"], "error: calls.csv: contracts has no "
                                                     "column signed_at"),
], ids=["frame without calls", "no callbacks", "fix of exports", "as-of", "out over an input",
        "contracts"])
def test_a_refusal_names_the_options(exports: dict[str, Path], monkeypatch: pytest.MonkeyPatch,
                                     arguments: list[str], said: str) -> None:
    """Each is refused before the account is reached (no key is set) or a file judged."""
    monkeypatch.chdir(exports["calls"].parent)
    monkeypatch.delenv("DIALKIT_API_KEY", raising=False)
    result = run(*arguments)
    assert result.exit_code == 2 and result.stderr.startswith(said), result.stderr


@pytest.mark.parametrize(("call", "where", "name"), [
    (lambda: run_when([NEW_YORK], blocked_countries=["KP"]), "run_when",
     "blocked_countries"),
    (lambda: run_upcoming(verified_caller_ids=["+14155550100"]), "run_upcoming",
     "verified_caller_ids"),
], ids=["run_when blocked_countries", "run_upcoming verified_caller_ids"])
def test_a_run_refuses_an_input_its_judge_does_not_take(call: Callable[[], object],
                                                        where: str, name: str) -> None:
    """Refused as its judge refuses it, saying the declaration's why."""
    with pytest.raises(TypeError, match=rf"^{where}\(\) does not read {name}=: ") as refused:
        call()
    judge = {"run_when": "next_allowed", "run_upcoming": "upcoming"}[where]
    assert next(each for each in AUDIT_INPUTS if each.name == name).not_read[judge] in str(
        refused.value)


@pytest.mark.parametrize("fact", ["nonprofit", "charity", "newspaper"])
def test_a_fact_that_is_not_true_or_false_is_refused_by_the_audit(fact: str) -> None:
    """``"no"`` is true to Python: read so, it would lift a list's rule from every call."""
    calls = pd.DataFrame(columns=["id", "direction", "from_number", "to_number",
                                  "created_at"])
    with pytest.raises(InputError, match=rf"audit\({fact}='no'\) is not True or False"):
        audit(calls, **{fact: "no"})  # type: ignore[call-overload]
    with pytest.raises(InputError, match=rf"run_when\({fact}='no'\) is not True or False"):
        run_when([NEW_YORK], **{fact: "no"})


def test_run_audit_refuses_a_fact_that_is_not_true_or_false(tmp_path: Path) -> None:
    calls = written(tmp_path, "calls.csv", CALLS)
    with pytest.raises(InputError, match=r"run_audit\(nonprofit='no'\) is not True or False"):
        run_audit(calls=calls, nonprofit="no")


def test_a_frame_of_emergencies_on_the_rules_says_where_a_frame_is_read() -> None:
    with pytest.raises(InputError, match=r"GuardSettings\(emergencies=\.\.\.\) read it"):
        US.with_emergencies(pd.DataFrame({"area": ["LA"], "starts_at": ["2026-09-01"]}))


MANHATTAN = "+12125550187"
NOW = pd.Timestamp.now(tz="UTC").floor("min")
"""The emulator's clock is real time: the account's callback is set around it."""


@pytest.fixture(scope="module")
def client() -> Iterator[dialkit.Client]:
    with dialkit.Client.sandbox() as made:
        yield made


def test_upcoming_finds_a_callback_due_in_a_declared_emergency_on_the_account(
        client: dialkit.Client, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A callback to a Manhattan lead, at an hour New York allows, breaks nothing until an
    emergency declared there (from yesterday to a day after the callback) is given (N.Y.
    Gen. Bus. Law 399-z(5-a): no unsolicited telemarketing call under one); then
    ``--fix`` moves it to no moment before the emergency's end. New York, not Louisiana:
    a Louisiana number no scrub of whose state list is given is a risk already, which a
    plan cancels rather than moves."""
    assert client.emulator is not None
    for name, value in attach_environment(client.emulator).items():
        monkeypatch.setenv(name, value)
    campaign = next(client.campaigns.list()).id
    lead = client.leads.create(campaign_id=campaign, phone=MANHATTAN).lead_id
    assert lead is not None
    hours = (NOW.floor("D") + timedelta(days=1, hours=h) for h in range(48))
    due = next(at for at in hours if next_allowed(MANHATTAN, at)["allowed"].item())
    callback = client.callbacks.create(lead_id=lead, scheduled_at=due.to_pydatetime())
    end = due + timedelta(days=1)
    emergencies = written(tmp_path, "emergencies.csv", "area,starts_at,ends_at\n"
                          f"New York,{NOW - timedelta(days=1):%Y-%m-%dT%H:%MZ},"
                          f"{end:%Y-%m-%dT%H:%MZ}\n")

    def answered(*given: object) -> list[dict[str, object]]:
        result = run("upcoming", "--sandbox", "--horizon", "3d", "--json", *given)
        assert result.exit_code == 0, result.output
        rows: list[dict[str, object]] = json.loads(result.output)
        return rows

    def hours_found(*given: object) -> list[object]:
        """The evidence of each finding of the callback's hours."""
        return [row["evidence"] for row in answered(*given)
                if row["call_id"] == callback.id and row["rule"] == "calling_hours"]

    assert hours_found() == []
    [evidence] = hours_found("--emergencies", emergencies)
    assert "state of emergency declared in US-NY" in str(evidence)
    [move] = [row for row in answered("--emergencies", emergencies, "--fix")
              if row["callback_id"] == callback.id]
    assert move["action"] == "reschedule"
    assert pd.Timestamp(str(move["new_at"])) >= end, move
