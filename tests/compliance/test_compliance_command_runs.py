"""The compliance commands as library calls (issue 63): :func:`run_audit`,
:func:`run_upcoming` and :func:`run_when` decide what ``dialkit compliance audit``,
``upcoming`` and ``when`` decide, from plain Python values, against the emulator."""

from __future__ import annotations

import codecs
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from typer.testing import CliRunner

from dialkit import Client
from dialkit.analytics import answer_rates
from dialkit.cli import app
from dialkit.compliance import (
    HOUSE_RULES,
    UK,
    AuditInputError,
    audit,
    next_allowed,
    run_audit,
    run_upcoming,
    run_when,
    upcoming,
)
from dialkit.errors import InputError

LATE_IN_NEW_YORK = ("+12125550123", "2026-11-24T02:30:00Z")  # Mon 21:30: the law forbids
LATE_IN_LONDON = ("+442079460000", "2026-11-24T21:30:00Z")   # 21:30: only a policy does


def _calls_file(tmp_path: Path, *rows: tuple[str, str]) -> Path:
    """Unanswered calls that rang 30 s (with no end time, short_ring could not judge them,
    and fail_on would stop on it)."""
    path = tmp_path / "calls.csv"
    pd.DataFrame([{
        "id": f"call_{n}", "direction": "outbound", "from_number": "+14155550100",
        "to_number": number, "created_at": at, "answered_at": None,
        "ended_at": (pd.Timestamp(at) + pd.Timedelta(seconds=30)).isoformat(),
        "campaign_id": "cmp_1", "disposition": None} for n, (number, at) in enumerate(rows)],
    ).to_csv(path, index=False)
    return path


@pytest.mark.parametrize(("row", "choices", "found"), [
    (LATE_IN_NEW_YORK, {"fail_on": ["law"]}, {"law": 1}),
    (LATE_IN_NEW_YORK, {"fail_on": ["any"]}, {"law": 1}),
    (LATE_IN_NEW_YORK, {}, {}),                                  # a finding fails nothing
    (LATE_IN_LONDON, {"fail_on": ["law"], "policy": "house-rules"}, {}),
    (LATE_IN_LONDON, {"fail_on": ["any"], "policy": "house-rules"}, {"policy": 1}),
    (LATE_IN_LONDON, {"fail_on": ["any"], "policy": HOUSE_RULES}, {"policy": 1}),
    (LATE_IN_LONDON, {"fail_on": ["any"], "policy_window": "08:00-21:00"}, {"policy": 1}),
    (LATE_IN_LONDON, {"fail_on": ["any"], "policy_window": "08:00-22:00"}, {}),
    (LATE_IN_LONDON, {"fail_on": ["any", "law"], "preset": UK, "policy_cap": 1,
                      "policy": "house-rules"}, {"policy": 1}),
])
def test_a_run_fails_on_what_fail_on_names_as_the_command_exits(
        tmp_path: Path, row: tuple[str, str], choices: dict[str, Any],
        found: dict[str, int]) -> None:
    """What the run found to fail on is what makes ``--fail-on`` exit 1, no more (the
    same table as ``test_cli_audit.py``'s, through the command)."""
    calls = _calls_file(tmp_path, row)
    run = run_audit(calls=calls, **choices)
    assert run.found == found and run.failed is bool(found)
    assert run.service == {} and run.names is None  # files: no account to name


def test_a_run_of_files_is_the_audit_of_the_frames_read(tmp_path: Path) -> None:
    calls = _calls_file(tmp_path, LATE_IN_NEW_YORK, LATE_IN_LONDON)
    ids = tmp_path / "ids.txt"
    ids.write_text("caller ids\n+14155550100,main line\n", encoding="utf-8")
    run = run_audit(calls=calls, verified_caller_ids=ids, policy="house-rules")
    frame = pd.read_csv(calls, dtype=str)
    expected = audit(frame.assign(created_at=pd.to_datetime(frame["created_at"])),
                     verified_caller_ids=["+14155550100"], policy=HOUSE_RULES)
    assert run.report.findings["call_id"].tolist() == expected.findings["call_id"].tolist()
    assert "unverified_caller_id" not in set(run.report.findings["rule"])


LAWFUL = ("+12125550123", "2026-11-24T15:00:00Z")  # Tue 10:00 in New York


@pytest.mark.parametrize(("bom", "encoding", "lines"), [
    (codecs.BOM_UTF8, "utf-8", "+14155550100,main line\n+14155550101,Zoë\n"),  # CSV UTF-8
    (codecs.BOM_UTF16_LE, "utf-16-le", "caller ids\tname\r\n+14155550100\tmain line\r\n"),
    (b"", "cp1252", "+14155550101;Zoë\r\n+14155550100;main line\r\n"),  # Excel's CSV, in Europe
], ids=["utf-8 with a byte order mark", "utf-16 unicode text", "cp1252 with semicolons"])
def test_caller_ids_saved_by_a_spreadsheet_keep_every_id(
        tmp_path: Path, bom: bytes, encoding: str, lines: str) -> None:
    """Issue 78: a byte order mark stuck to the first id lost it, and two calls from it
    were unverified, failing ``fail_on=["any"]`` on a lawful run."""
    calls = _calls_file(tmp_path, LAWFUL, LAWFUL)
    ids = tmp_path / "ids.csv"
    ids.write_bytes(bom + lines.encode(encoding))
    run = run_audit(calls=calls, verified_caller_ids=ids, fail_on=["any"])
    assert run.report.findings.empty and not run.failed, run.report.findings


def test_a_run_of_nothing_in_the_period_fails_unless_allowed(tmp_path: Path) -> None:
    calls = _calls_file(tmp_path, LATE_IN_NEW_YORK)
    quiet = run_audit(calls=calls, since="2026-12-01", fail_on=["law"])
    assert quiet.report.empty and quiet.unchecked and quiet.failed and quiet.found == {}
    allowed = run_audit(calls=calls, since="2026-12-01", fail_on=["law"], allow_empty=True)
    assert not allowed.unchecked and not allowed.failed
    assert not run_audit(calls=calls, since="2026-12-01").failed  # no fail_on: nothing fails


def test_a_run_of_the_account_names_its_service_and_campaigns(client: Client) -> None:
    run = run_audit(client=client, since="30d", fail_on=["law", "risk"])
    assert run.service == {"service": client.service_identity}
    assert run.names and set(run.names) <= set(client.frames.campaigns()["id"])
    by_basis = run.report.by_basis
    assert run.found == {basis: int(by_basis[basis]) for basis in ("law", "risk")
                         if by_basis[basis]}
    assert "unverified_caller_id" not in set(run.report.findings["rule"])  # the emulator's ids


def test_the_masked_findings_are_the_findings_with_their_numbers_masked(
        client: Client) -> None:
    """What ``--mask-pii`` prints, by a public method (issue 63: the CLI reached into the
    evidence module for it): the same rows, each number its first digits and last two."""
    report = run_audit(client=client, since="30d").report
    findings = report.findings.copy()
    masked = report.masked_findings()
    phones = findings["phone"].dropna().astype(str)
    numbers = ["phone", "from_number"]  # the columns of numbers a finding has
    assert len(phones) and masked.drop(columns=numbers).equals(findings.drop(columns=numbers))
    shown = masked.loc[phones.index, "phone"].astype(str)
    assert (shown != phones).all() and (shown.str[-2:] == phones.str[-2:]).all()
    assert shown.str.contains(r"\*").all() and report.findings.equals(findings)


@pytest.mark.parametrize(("choices", "message"), [
    ({"fail_on": ["some"]}, "fail_on='some': pass law, any or risk"),
    ({"policy": "strict"}, "policy='strict': pass one of house-rules"),
    ({"policy_window": "9-20"}, "policy_window='9-20': pass the allowed hours as HH:MM-HH:MM"),
    ({"policy_window": "20:00-09:00"}, "policy_window='20:00-09:00': pass the allowed hours"),
    ({"preset": "eu"}, "preset='eu': pass one of us, uk, ca, us-federal"),
    ({"calls": None, "leads": "leads.csv"}, "calls= is needed with leads=, dnc= or texts="),
    ({"calls": "calls.csv", "consents": "missing.csv"}, "missing.csv: "),
    ({"calls": "calls.csv", "verified_caller_ids": Path("missing.txt")},
     "missing.txt: there is no such file: check the path"),
])
def test_a_choice_refused_is_named_in_python_words_before_anything_is_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, choices: dict[str, Any],
        message: str) -> None:
    monkeypatch.chdir(tmp_path)
    _calls_file(tmp_path, LATE_IN_NEW_YORK)
    with pytest.raises(AuditInputError) as refused:
        run_audit(**({"calls": "calls.csv"} | choices))
    assert str(refused.value).startswith(message)


def test_a_file_the_audit_cannot_use_is_named_by_its_path(tmp_path: Path) -> None:
    calls = tmp_path / "calls.csv"
    pd.DataFrame({"id": ["call_1"], "to_number": ["+12125550123"]}).to_csv(calls, index=False)
    with pytest.raises(AuditInputError) as refused:
        run_audit(calls=calls)
    assert str(refused.value).startswith(f"{calls}: ") and refused.value.frame == "calls"


def test_a_bad_period_is_refused_before_the_account_is_reached() -> None:
    """No client is made (none is running at this address): the bound is refused first."""
    with pytest.raises(InputError, match="since="):
        run_audit(client=Client(api_key="sk_test_x", base_url="http://127.0.0.1:9"),
                  since="last week")


def test_a_run_of_upcoming_is_upcomings_answer_and_the_plan(client: Client) -> None:
    run = run_upcoming(client, horizon="7d")
    expected = upcoming(client, horizon="7D")
    assert run.plan is None and run.refused == 0
    assert run.found["lead_id"].tolist() == expected["lead_id"].tolist()
    asked: list[Client] = []

    def rates(given: Client) -> pd.DataFrame:
        asked.append(given)
        return answer_rates(given.frames.calls())

    planned = run_upcoming(client, fix=True, strategy="best", prefer=rates)
    assert planned.plan is not None and asked == [client]
    assert len(planned.plan) == len(planned.found)
    assert set(planned.plan["status"]) <= {"planned", "left"}  # a dry run


@pytest.mark.parametrize(("choices", "message"), [
    ({"apply": True}, "apply= and strategy= go with fix=: add fix=True"),
    ({"strategy": "best"}, "apply= and strategy= go with fix=: add fix=True"),
    ({"fix": True, "strategy": "soonest"}, "strategy='soonest': pass next_allowed or best"),
    ({"preset": "eu"}, "preset='eu': pass one of us, uk, ca, us-federal"),
])
def test_a_run_of_upcoming_refuses_a_choice_before_the_account_is_reached(
        choices: dict[str, Any], message: str) -> None:
    with pytest.raises(AuditInputError, match=message.replace("(", r"\(")):
        run_upcoming(Client(api_key="sk_test_x", base_url="http://127.0.0.1:9"), **choices)


def test_a_run_of_when_is_next_allowed_of_the_numbers_given() -> None:
    at = "2026-11-24T21:30:00-05:00"
    one = run_when(["+12125550123"], at=at)
    assert one.equals(next_allowed("+12125550123", at))
    assert not one["allowed"].iloc[0]
    local = run_when(["+12125550123", "+442079460000"], at="2026-11-24T12:00",
                     tz="America/New_York", preset="uk")
    assert local["allowed"].tolist() == [True, True]
    with pytest.raises(InputError, match=r"phones_or_leads\[2\]"):  # the second given
        run_when(["+12125550123", "12"], at=at)


@pytest.mark.parametrize(("arguments", "said"), [
    (["audit", "--leads", "leads.csv"], "error: --calls FILE is needed with --leads FILE, "
                                        "--dnc FILE or --texts FILE\n"),
    (["audit", "--calls", "calls.csv", "--fail-on", "all"],
     "error: --fail-on 'all': pass law, any or risk\n"),
    (["upcoming", "--strategy", "best"], "error: --apply and --strategy go with --fix: add "
                                         "--fix\n"),
    (["when", "+12125550123", "--preset", "eu"],
     "error: --preset 'eu': pass one of us, uk, ca, us-federal\n"),
])
def test_the_commands_say_the_runs_refusals_in_their_flags(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, arguments: list[str],
        said: str) -> None:
    monkeypatch.chdir(tmp_path)
    _calls_file(tmp_path, LATE_IN_NEW_YORK)
    result = CliRunner().invoke(app, ["compliance", *arguments])
    assert (result.exit_code, result.output) == (2, said)
