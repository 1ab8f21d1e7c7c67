"""Issue 61, item 1: an audit of a period judges the period's calls against the history
before them, and reports them alone.

The law's counts reach back past any window: abandonment's 30-day periods run from the
campaign's first call, a cap counts the 24 hours up to each call, a ``do_not_call``
disposition lists a number from that call on. An audit of a week must say of each of its
calls what the audit of the month says of it: on the library (``audit(since=...)``,
``audit(**load(client, since=...))``), on Dask, and in ``dialkit compliance audit --since``
against the account and against an exported calls file.

One finding is the period's own: the risk of a state's own Do-Not-Call list not given
(issue 73) is one a number, on its first call in the period audited, its evidence counting
the number's calls there. The audit of a week finds it of each number the month's audit
finds it of that was called in the week, on its first call of the week; every other
finding is the same.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_abandonment import answered, frame
from test_frequency import calls
from typer.testing import CliRunner

from conftest import KEYS, load_seeded
from dialkit import Client
from dialkit.cli import app
from dialkit.compliance import US, AuditReport, audit, load
from dialkit.sandbox import Sandbox

runner = CliRunner()
SHARED = ["call_id", "rule", "basis", "evidence"]
"""What an audit says of a call, compared between audits."""
MIAMI, NEW_YORK = "+13055550123", "+12125550123"
EMPTY_DNC = pd.DataFrame({"phone": pd.Series(dtype=object), "listed": pd.Series(dtype=bool),
                          "checked_at": pd.Series(dtype="datetime64[ns, UTC]")})


def unscrubbed(findings: pd.DataFrame) -> pd.Series:
    """Which findings are risks of a state's own list not given (one a number)."""
    return (findings["rule"] == "dnc_call") & (findings["basis"] == "risk")


def said(findings: pd.DataFrame, since: pd.Timestamp | None = None,
         until: pd.Timestamp | None = None) -> list[tuple[str, ...]]:
    """What the findings say of the calls placed from ``since`` to before ``until``
    (every call's, where neither is given), and of the leads, sorted; the risks of a
    state's list not given apart (:func:`first_calls`)."""
    findings = findings[~unscrubbed(findings)]
    at = pd.to_datetime(findings["at"], utc=True, format="ISO8601")
    of_lead = findings["call_id"].isna()
    keep = pd.Series(True, index=findings.index)
    if since is not None:
        keep &= of_lead | (at >= since)
    if until is not None:
        keep &= of_lead | (at < until)
    rows = findings.loc[keep, SHARED].astype(object).fillna("")
    return sorted(tuple(str(value) for value in row) for row in rows.itertuples(index=False))


def risks_said(findings: pd.DataFrame) -> dict[str, tuple[str, str]]:
    """The risks of a state's list not given: each call's number and how many calls
    its evidence counts."""
    risks = findings[unscrubbed(findings)]
    counts = risks["evidence"].str.extract(r"called (once|\d+ times)", expand=False)
    return dict(zip(risks["call_id"], zip(risks["phone"], counts, strict=True), strict=True))


def first_calls(loaded: Any, whole: pd.DataFrame, since: pd.Timestamp,
                until: pd.Timestamp | None = None) -> dict[str, tuple[str, str]]:
    """What a period's risks of a state's list not given must be: of each number the
    whole audit finds one of (``whole``), its first call placed in the period (or text,
    judged as a call), and how many calls it had there."""
    calls = loaded["calls"]
    made = [calls.loc[calls["direction"] == "outbound", ["id", "to_number", "created_at"]]]
    if loaded.get("texts") is not None:
        made.append(loaded["texts"].rename(columns={"message_id": "id", "to": "to_number"})[
            ["id", "to_number", "created_at"]])
    made = pd.concat(made, ignore_index=True)
    inside = made["created_at"] >= since
    if until is not None:
        inside &= made["created_at"] < until
    made = made[inside & made["to_number"].isin(whole.loc[unscrubbed(whole), "phone"])]
    made = made.sort_values("created_at", kind="stable")
    count = made.groupby("to_number")["id"].size()
    first = made.drop_duplicates("to_number")
    return {str(call): (str(phone), "once" if count[phone] == 1 else f"{count[phone]} times")
            for call, phone in zip(first["id"], first["to_number"], strict=True)}


def cli_findings(tmp_path: Path, *flags: str) -> pd.DataFrame:
    """``dialkit compliance audit`` with ``flags``: its findings, as written."""
    out = tmp_path / f"findings{len(list(tmp_path.iterdir()))}.csv"
    result = runner.invoke(app, ["compliance", "audit", *flags, "--out", str(out), "--raw-csv"])
    assert result.exit_code == 0, result.output
    return pd.read_csv(out, dtype=str, keep_default_na=False).replace("", None)


def exported(frames: dict[str, pd.DataFrame], folder: Path) -> list[str]:
    """The frames written as CSV files, as the ``--calls``, ``--leads``, ``--dnc`` flags."""
    flags = []
    for name, data in frames.items():
        data.to_csv(folder / f"{name}.csv", index=False)
        flags += [f"--{name}", str(folder / f"{name}.csv")]
    return flags


@pytest.fixture(scope="module")
def loaded(sandbox: Sandbox, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The session emulator's seeded frames, loaded once for the module."""
    return load_seeded(sandbox, tmp_path_factory.mktemp("cache"), load)


@pytest.fixture(scope="module")
def monthly(loaded: Any) -> AuditReport:
    """The audit of every call of the seeded account."""
    return audit(**loaded)


def twelve_days(loaded: Any) -> pd.Timestamp:
    """The day twelve days before the seeded account's last call: within the 30-day
    abandonment period of its campaign over 3%, after that period's start."""
    return (loaded["calls"]["created_at"].max() - pd.Timedelta(days=12)).floor("D")


def test_the_reproduction_the_window_holds_abandoned_calls_of_a_period_over_3_percent(
        loaded: Any, monthly: AuditReport) -> None:
    """The issue's case, checked on the world itself: without it the tests below would
    compare audits that agree by having nothing to say."""
    since = twelve_days(loaded)
    abandoned = monthly.findings[(monthly.findings["rule"] == "abandonment")
                                 & (monthly.findings["at"] >= since)]
    assert len(abandoned) >= 3
    starts = monthly.abandoned.set_index("call_id").loc[abandoned["call_id"], "window_start"]
    assert (starts < since).all()  # the period began before the window


def test_a_window_of_the_account_says_what_the_whole_audit_says_of_its_calls(
        client: Client, loaded: Any, monthly: AuditReport) -> None:
    since = twelve_days(loaded)
    weekly = audit(**load(client, since=since.strftime("%Y-%m-%d")))
    assert said(weekly.findings) == said(monthly.findings, since)
    risks = risks_said(weekly.findings)
    assert risks and risks == first_calls(loaded, monthly.findings, since)
    assert "abandonment" in set(weekly.findings["rule"])
    assert weekly.period == f"since {since:%Y-%m-%d %H:%M} UTC"
    calls = loaded["calls"]
    placed = calls[(calls["direction"] == "outbound") & (calls["created_at"] >= since)]
    assert weekly.calls_audited == len(placed) < monthly.calls_audited
    mine = monthly.abandoned[monthly.abandoned["at"] >= since].reset_index(drop=True)
    pd.testing.assert_frame_equal(weekly.abandoned.reset_index(drop=True), mine)


def test_the_command_against_the_account_says_what_the_whole_audit_says(
        sandbox: Sandbox, loaded: Any, monthly: AuditReport, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DIALKIT_API_KEY", KEYS["full"])
    monkeypatch.setenv("DIALKIT_BASE_URL", sandbox.base_url)
    since = twelve_days(loaded)
    found = cli_findings(tmp_path, "--since", since.strftime("%Y-%m-%d"))
    calls_said = said(monthly.findings[monthly.findings["call_id"].notna()], since)
    assert said(found[found["call_id"].notna()]) == calls_said
    assert "abandonment" in set(found["rule"])
    assert risks_said(found) == first_calls(loaded, monthly.findings, since)


def test_the_command_on_exported_files_says_what_the_whole_audit_says(
        loaded: Any, monthly: AuditReport, tmp_path: Path) -> None:
    since = twelve_days(loaded)
    flags = exported({name: loaded[name] for name in ("calls", "leads", "dnc")}, tmp_path)
    found = cli_findings(tmp_path, *flags, "--since", since.isoformat())
    calls_said = said(monthly.findings[monthly.findings["call_id"].notna()], since)
    assert said(found[found["call_id"].notna()]) == calls_said
    assert risks_said(found) == first_calls(loaded, monthly.findings, since)


def test_a_window_on_dask_says_what_pandas_says(loaded: Any, monthly: AuditReport) -> None:
    dd = pytest.importorskip("dask.dataframe")
    since, until = twelve_days(loaded), loaded["calls"]["created_at"].max() - pd.Timedelta(
        days=2)
    lazy = audit(dd.from_pandas(loaded["calls"], npartitions=3),
                 leads=dd.from_pandas(loaded["leads"], npartitions=2), dnc=loaded["dnc"],
                 since=since, until=until)
    assert said(lazy.findings) == said(monthly.findings, since, until)
    assert risks_said(lazy.findings) == first_calls(loaded, monthly.findings, since, until)
    assert "abandonment" in set(lazy.findings["rule"])
    weekly = audit(**loaded, since=since, until=until)
    pd.testing.assert_frame_equal(lazy.population, weekly.population)
    assert lazy.period == weekly.period


STRADDLED = pd.Timestamp("2026-11-24T16:00Z")
"""The window's start in the cases below: 11:00 in Miami and New York."""


def straddling_cap() -> dict[str, pd.DataFrame]:
    """Three calls to Miami before the window, the fourth in it, within 24 hours: the
    fourth breaks Florida's cap of three."""
    return {"calls": calls(*((MIAMI, f"2026-11-24T{hour}:00Z", "cmp_1")
                             for hour in (13, 14, 15, 17)))}


def listed_before() -> dict[str, pd.DataFrame]:
    """A call before the window whose disposition asks not to be called again, and one
    to the same number in it: a call to a number on the account's own list."""
    asked = calls((NEW_YORK, "2026-11-23T15:00Z", "cmp_1"), (NEW_YORK, "2026-11-24T17:00Z",
                                                            "cmp_1"))
    answer = asked["created_at"] + pd.Timedelta(seconds=10)
    asked = asked.assign(answered_at=answer.where(asked.index == 0), disposition=[
        "do_not_call", None], ended_at=(answer + pd.Timedelta(minutes=2)).where(asked.index == 0))
    return {"calls": asked, "dnc": EMPTY_DNC}


@pytest.mark.parametrize(("case", "rule"), [(straddling_cap, "call_frequency"),
                                            (listed_before, "dnc_call")])
@pytest.mark.parametrize("path", ["library", "command"])
def test_history_before_the_window_judges_its_calls(case: Any, rule: str, path: str,
                                                    tmp_path: Path) -> None:
    frames = case()
    whole = audit(**frames, rules=US).findings
    assert whole.loc[whole["rule"] == rule, "call_id"].tolist() == [frames["calls"]["id"].iloc[-1]]
    if path == "library":
        found = audit(**frames, rules=US, since=STRADDLED).findings
    else:
        found = cli_findings(tmp_path, *exported(frames, tmp_path), "--since",
                             STRADDLED.isoformat())
    assert said(found) == said(whole, STRADDLED)


DAY = pd.Timestamp("2026-06-01T13:00Z")
NUMBERS = ("+1212555{:04d}", "+1305555{:04d}", "+4420794{:05d}")
"""New York (the federal rule), Miami (Florida's cap), London (Ofcom's 24-hour period)."""
OUTCOMES = ("unanswered", "completed", "abandoned", "voicemail", "do_not_call")


@st.composite
def accounts(draw: st.DrawFn) -> tuple[dict[str, pd.DataFrame], pd.Timestamp | None,
                                      pd.Timestamp | None]:
    """A small account of calls over 40 days (two campaigns, three places, four numbers
    each, every outcome), DNC results listing some of its numbers, and a window in it."""
    rows = []
    for n in range(draw(st.integers(3, 40))):
        minute = draw(st.integers(0, 40 * 24 * 60))
        number = draw(st.sampled_from(NUMBERS)).format(draw(st.integers(0, 3)))
        outcome = draw(st.sampled_from(OUTCOMES))
        at = DAY + pd.Timedelta(minutes=minute)
        row = answered(n, at, abandoned=outcome == "abandoned", number=number,
                       status="voicemail" if outcome == "voicemail" else "completed",
                       campaign=draw(st.sampled_from(["cmp_1", "cmp_2"])))
        if outcome == "unanswered":
            row.update(answered_at=pd.NaT, agent_joined_at=pd.NaT, disposition=None,
                       status="no-answer", ended_at=at + pd.Timedelta(seconds=20))
        elif outcome == "do_not_call":
            row["disposition"] = "do_not_call"
        rows.append(row)
    listed = draw(st.lists(st.sampled_from([n.format(k) for n in NUMBERS for k in range(4)]),
                           unique=True, max_size=3))
    dnc = pd.DataFrame({"phone": pd.Series(listed, dtype=object), "listed": True,
                        "listed_at": DAY + pd.Timedelta(days=draw(st.integers(0, 30))),
                        "checked_at": DAY + pd.Timedelta(days=41)})
    since = draw(st.none() | st.integers(0, 40 * 24).map(lambda h: DAY + pd.Timedelta(hours=h)))
    until = draw(st.none() | st.integers(1, 41 * 24).map(lambda h: DAY + pd.Timedelta(hours=h)))
    return {"calls": frame(rows), "dnc": dnc}, since, until


@settings(max_examples=20, deadline=None)
@given(accounts())
def test_an_audit_of_any_window_says_what_the_whole_audit_says_of_its_calls(
        account: tuple[dict[str, pd.DataFrame], pd.Timestamp | None, pd.Timestamp | None],
        ) -> None:
    frames, since, until = account
    as_of = DAY + pd.Timedelta(days=42)
    whole = audit(**frames, rules=US, as_of=as_of)
    window = audit(**frames, rules=US, as_of=as_of, since=since, until=until)
    assert said(window.findings) == said(whole.findings, since, until)
    at = frames["calls"]["created_at"]
    inside = pd.Series(True, index=at.index)
    if since is not None:
        inside &= at >= since
    if until is not None:
        inside &= at < until
    assert window.calls_audited == inside.sum()
    kept = whole.abandoned[whole.abandoned["call_id"].isin(frames["calls"]["id"][inside])]
    pd.testing.assert_frame_equal(window.abandoned.reset_index(drop=True),
                                  kept.reset_index(drop=True))
