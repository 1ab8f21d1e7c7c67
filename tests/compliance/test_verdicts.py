"""Three verdicts, never an all-clear where no law was read (issue 98).

A rule over the calls audited is *broken* (a finding), *passed* (every call it applies to
was read and none breaks it) or *not judged* (some were not read: their country's law is
not held, a value of a column it reads is not understood, a fact it needs is missing).
Each way a call goes unread is written here as the one thing wrong with an otherwise
lawful call, and every judge of calls made (the audit, the command with and without
``--fail-on``, the monitor) must answer *not judged* with its count, never *passed*.
Adding calls that cannot be read never turns a broken rule into a passed one, nor changes
another call's finding (the metamorphic test, with hypothesis).

The numbers are libphonenumber's own example mobiles (``example_number_for_type``), not
ours; the times are the issue's as written.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pandas as pd
import phonenumbers
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from dialkit.cli import app
from dialkit.compliance import AuditInputError, Monitor, audit, run_audit

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import bench_monitor  # noqa: E402


def mobile(region: str) -> str:
    """libphonenumber's example mobile number of ``region``, in E.164."""
    number = phonenumbers.example_number_for_type(region, phonenumbers.PhoneNumberType.MOBILE)
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)


NEW_YORK = "+12125550123"
TUESDAY = pd.Timestamp("2026-06-02T15:00Z")  # 11:00 in New York: every window allows it
_ids = iter(range(10**6))


def call(to: str = NEW_YORK, at: pd.Timestamp = TUESDAY, *, answered: float | None = 5,
         ended: float | None = 120, **columns: Any) -> dict[str, Any]:
    """One outbound campaign call, lawful in every rule but what ``columns`` change:
    answered ``answered`` s after it was placed (None: unanswered), ended ``ended`` s
    after it was placed (None: no end time)."""
    row = {"id": f"call_{next(_ids)}", "direction": "outbound", "from_number": "+14155550100",
           "to_number": to, "created_at": at,
           "answered_at": pd.NaT if answered is None else at + pd.Timedelta(seconds=answered),
           "ended_at": pd.NaT if ended is None else at + pd.Timedelta(seconds=ended),
           "campaign_id": "cmp_1", "status": "completed", "disposition": "sale",
           "hangup_cause": "normal_clearing", "duration_seconds": ended}
    return {**row, **columns}


def frame(*rows: dict[str, Any]) -> pd.DataFrame:
    calls = pd.DataFrame(list(rows))
    for column in ("created_at", "answered_at", "ended_at"):
        calls[column] = pd.to_datetime(calls[column], utc=True)
    return calls


FRANCE = mobile("FR")
UNANSWERED = {"answered": None, "ended": 8, "status": "no-answer", "disposition": None,
              "hangup_cause": "no_answer"}
"""An unanswered call the dialer hung up on after 8 s: a ring-time finding to a US number."""

WAYS = [
    # a country with no law row: each rule of the place called, for the calls it applies to
    ("calling_hours", "country", [call(FRANCE)], 1),
    ("call_frequency", "country", [call(FRANCE), call(FRANCE, TUESDAY + pd.Timedelta(hours=1))],
     2),
    ("caller_id", "country", [call(FRANCE)], 1),
    ("abandonment", "country", [call(FRANCE)], 1),
    ("short_ring", "country", [call(FRANCE, **{**UNANSWERED, "ended": 40})], 1),
    # a value of a column the rule reads, not understood
    ("abandonment", "value", [call(disposition="Zorgle Outcome"), call()], 1),
    ("abandonment", "value", [call(status="Zorgle Status")], 1),
    ("short_ring", "value", [call(**{**UNANSWERED, "hangup_cause": "ZORGLE_CAUSE"})], 1),
    ("short_ring", "value", [call(**{**UNANSWERED, "status": "zorgle"})], 1),
    ("short_ring", "value", [call(**{**UNANSWERED, "disposition": "Zorgle Outcome"})], 1),
    *((rule, "value", [call(direction="sideways"), call()], 1)
      for rule in ("calling_hours", "call_frequency", "abandonment", "short_ring", "caller_id")),
    # a fact the rule needs, missing
    ("calling_hours", "fact", [call("+80012345678")], 1),
    ("short_ring", "fact", [call(**{**UNANSWERED, "ended": None})], 1),
]
"""Each rule and each way a call goes unread: the calls (one of them unread), and how many
calls the rule could not judge."""


def ids(way: tuple[str, str, list[dict[str, Any]], int]) -> str:
    rule, how, rows, _ = way
    changed = ", ".join(f"{k}={v}" for k, v in rows[0].items()
                        if k in ("direction", "status", "disposition", "hangup_cause")
                        and v not in (None, "outbound", "completed", "sale", "normal_clearing",
                                      "no-answer", "no_answer"))
    return f"{rule}-{how}-{changed or rows[0]['to_number']}"


@pytest.mark.parametrize(("rule", "how", "rows", "count"), WAYS, ids=map(ids, WAYS))
def test_a_call_not_read_makes_its_rule_not_judged_never_passed(
        rule: str, how: str, rows: list[dict[str, Any]], count: int, tmp_path: Path) -> None:
    calls = frame(*rows)
    dnc = pd.DataFrame({"phone": calls["to_number"].unique(), "listed": False,
                        "checked_at": pd.Timestamp("2026-06-01T00:00Z")})
    report = audit(calls, dnc=dnc)
    totals = report.totals
    assert totals.at[rule, "verdict"] == "not judged", report.to_text()
    assert totals.at[rule, "not_judged"] == count
    assert not totals.at[rule, "passed"] and not report.passed[rule]
    assert rule not in set(report.findings["rule"])  # nothing of it was found: no all-clear
    text = report.to_text()
    assert f"{rule}: not judged for {count} call" in text
    # the command: the same words; --fail-on law stops on it (exit 3), --accept-unjudged RULE
    path = tmp_path / "calls.csv"
    calls.to_csv(path, index=False)
    runner = CliRunner()
    plain = runner.invoke(app, ["compliance", "audit", "--calls", str(path)])
    assert plain.exit_code == 0, plain.output
    assert f"{rule}: not judged for {count} call" in plain.output
    stopped = runner.invoke(app, ["compliance", "audit", "--calls", str(path),
                                  "--fail-on", "law"])
    found = bool(report.by_basis["law"])  # a number of no zone: unknown_timezone's, besides
    assert stopped.exit_code == (1 if found else 3), stopped.output
    assert f"{rule} ({count} call" in stopped.stderr
    accepted = [part for each in report.unjudged["rule"].unique()
                for part in ("--accept-unjudged", each)]
    passed = runner.invoke(app, ["compliance", "audit", "--calls", str(path), "--fail-on",
                                 "law", *accepted])
    assert passed.exit_code == (1 if found else 0), passed.stderr
    assert "not judged:" not in passed.stderr


MONITORED = [way for way in WAYS if "sideways" not in str(way[2][0].get("direction"))]


@pytest.mark.parametrize(("rule", "how", "rows", "count"), MONITORED, ids=map(ids, MONITORED))
def test_the_monitor_says_not_judged_as_the_audit(
        rule: str, how: str, rows: list[dict[str, Any]], count: int) -> None:
    calls = frame(*rows)
    events = [event for row in calls.to_dict("records") for event in bench_monitor.events_of(row)]
    with Monitor() as monitor:
        monitor.observe(events)
        unjudged = monitor.unjudged
    assert int(unjudged.loc[unjudged["rule"] == rule, "calls"].sum()) == count, unjudged


def test_the_monitors_gauges_and_view_say_what_was_not_judged() -> None:
    """A call to Paris is no all-clear in the live view either: its status line names the
    rules not judged, and the gauges carry them."""
    calls = frame(call(FRANCE), call())
    with Monitor() as monitor:
        view = monitor.view()
        view._every = 0  # every observation redraws
        monitor.observe([event for row in calls.to_dict("records")
                         for event in bench_monitor.events_of(row)])
        gauges = monitor.gauges()
        pd.testing.assert_frame_equal(gauges.unjudged, monitor.unjudged)
        assert "<b>Not judged</b>" in view.status.value
        assert "calling_hours (1 call)" in view.status.value


PARIS_SATURDAY_NIGHT = pd.Timestamp("2026-11-28T21:30Z")  # 22:30 in Paris
SYDNEY_SUNDAY_NIGHT = pd.Timestamp("2026-11-29T11:30Z")  # 22:30 in Sydney (AEDT)


def test_the_issues_three_calls_are_no_all_clear() -> None:
    """A French mobile at 22:30 Paris time on a Saturday, an Australian mobile at 22:30
    Sydney time on a Sunday, a German mobile with no consent on record: no rule passes them,
    each is a risk of law naming its country, and ``--fail-on law`` stops unless the
    countries are accepted."""
    calls = frame(call(FRANCE, PARIS_SATURDAY_NIGHT), call(mobile("AU"), SYDNEY_SUNDAY_NIGHT),
                  call(mobile("DE"), TUESDAY))
    consents = pd.DataFrame({"phone": pd.Series(dtype=str), "kind": pd.Series(dtype=str),
                             "given_at": pd.Series(dtype="datetime64[ns, UTC]")})
    report = audit(calls, consents=consents)
    risks = report.findings[report.findings["rule"] == "no_law_held"]
    assert sorted(risks["jurisdiction"]) == ["AU", "DE", "FR"]
    assert set(risks["basis"]) == {"risk"} and report.risks["calls"] == 3
    assert risks["evidence"].str.contains("France (FR)", regex=False).any()
    assert risks["evidence"].str.contains("dialkit holds the law of US, CA, GB").all()
    totals = report.totals
    assert totals.loc["calling_hours", ["verdict", "not_judged"]].tolist() == ["not judged", 3]
    assert not totals["passed"][["calling_hours", "call_frequency", "caller_id"]].any()
    assert "verdicts: 0 rules broken, 4 not judged" in report.to_text()
    assert repr(report).endswith("no_law_held 3; 4 rules not judged for some calls>")


def test_a_country_accepted_passes_fail_on_and_is_still_reported(tmp_path: Path) -> None:
    calls = frame(call(FRANCE, PARIS_SATURDAY_NIGHT), call(mobile("AU"), SYDNEY_SUNDAY_NIGHT))
    path = tmp_path / "calls.csv"
    calls.to_csv(path, index=False)
    stopped = run_audit(calls=path, fail_on=["law"])
    assert stopped.failed and stopped.not_judged["calling_hours"] == 2
    assert not stopped.found  # no finding stopped it: only what was not judged
    half = run_audit(calls=path, fail_on=["law"], accept_unjudged=["France"])
    assert half.failed and half.not_judged["calling_hours"] == 1
    both = run_audit(calls=path, fail_on=["law", "risk"], accept_unjudged="fr, AU")
    assert not both.failed
    assert set(both.report.unjudged["country"]) == {"AU", "FR"}  # accepted, still shown
    assert run_audit(calls=path, fail_on=["risk"]).found == {"risk": 2}
    with pytest.raises(AuditInputError, match="^accept_unjudged holds 'Atlantis', which names no "
                       "country .*; or rules' ids \\(calling_hours, "):
        run_audit(calls=path, accept_unjudged=["Atlantis"])


def test_the_cover_and_the_page_say_what_was_not_judged(tmp_path: Path) -> None:
    report = audit(frame(call(FRANCE), call(disposition="Zorgle Outcome")))
    path = tmp_path / "evidence.xlsx"
    report.to_excel(path)
    cover = pd.read_excel(path, sheet_name="cover", engine="calamine").set_index("item")["value"]
    assert cover["verdicts"] == "0 rules broken, 4 not judged, 1 of risks alone, 4 passed"
    assert cover["not judged: abandonment"].startswith(
        "for 1 call: no law held for FR (1): dialkit holds the law of US")
    assert cover["not judged: abandonment (2)"].startswith(
        "for 1 call: disposition 'Zorgle Outcome' not understood; map it: "
        "values={'disposition': {'Zorgle Outcome': ")
    page = report.to_html()
    assert "<b>Not judged: 4 rules</b>" in page and "abandonment (2 calls)" in page
    from matplotlib.figure import Figure

    from dialkit.compliance import plot_summary

    ax = plot_summary(report, ax=Figure().add_subplot())
    assert ", 4 not judged for some calls\n" in ax.get_title()
    labels = {text.get_text() for text in ax.texts}
    assert {"not judged for 1 call: 0 found of 2 outbound calls",  # caller_id: France
            "not judged for 2 calls: 0 found of 1 answered calls"} <= labels  # the word's
    # call is no live answer read, so it is not among those audited


def test_a_policy_alone_asks_no_law_and_finds_none_missing() -> None:
    from dialkit.compliance import HOUSE_RULES

    report = audit(frame(call(FRANCE)), rules=HOUSE_RULES)
    assert "no_law_held" not in report.ran and report.unjudged.empty
    assert report.totals.at["calling_hours", "verdict"] == "passed"


BASE = frame(
    call(at=pd.Timestamp("2026-06-02T02:00Z")),  # 22:00 in New York: calling_hours broken
    *(call("+13055550142", TUESDAY + pd.Timedelta(hours=h)) for h in range(4)),  # Florida: 4th
    call("+13125550199", **UNANSWERED),  # rang 8 s: short_ring broken
    call("+14045550111", from_number=None))  # no caller id: broken
UNREADABLE = [
    lambda n: call(mobile("FR"), TUESDAY + pd.Timedelta(minutes=n)),
    lambda n: call(mobile("AU"), TUESDAY + pd.Timedelta(minutes=n), **UNANSWERED),
    lambda n: call(f"+1646555{n % 10000:04d}", disposition="Zorgle Outcome"),
    lambda n: call(f"+1718555{n % 10000:04d}", **{**UNANSWERED, "hangup_cause": "ZORGLE"}),
    lambda n: call(f"+1917555{n % 10000:04d}", **{**UNANSWERED, "ended": None}),
    lambda n: call(NEW_YORK, direction="sideways"),
    lambda n: call("+80012345678"),
]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(range(len(UNREADABLE))), st.integers(0, 9999)),
                max_size=8))
def test_calls_that_cannot_be_read_never_turn_broken_into_passed(
        added: list[tuple[int, int]]) -> None:
    before = audit(BASE)
    after = audit(pd.concat([BASE, frame(*(UNREADABLE[k](n) for k, n in added))],
                            ignore_index=True) if added else BASE)
    broken = before.totals["verdict"] == "broken"
    assert set(broken[broken].index) == {"calling_hours", "call_frequency", "short_ring",
                                         "caller_id"}
    assert (after.totals.loc[broken[broken].index, "verdict"] == "broken").all()
    assert not (after.totals["passed"] & ~before.totals["passed"]).any()
    ours = after.findings[after.findings["call_id"].isin(BASE["id"])]
    columns = ["rule", "call_id", "evidence", "basis"]
    pd.testing.assert_frame_equal(ours[columns].reset_index(drop=True),
                                  before.findings[columns].reset_index(drop=True))


def test_dask_says_what_pandas_says_was_not_judged() -> None:
    """The same calls in two partitions: each rule's calls not judged, and why, summed
    over the parts as one part of them all says them."""
    dd = pytest.importorskip("dask.dataframe")
    calls = frame(*(row for _, _, rows, _ in WAYS for row in rows))
    whole = audit(calls)
    parted = audit(dd.from_pandas(calls, npartitions=2))
    pd.testing.assert_frame_equal(parted.unjudged, whole.unjudged)
    pd.testing.assert_frame_equal(parted.totals, whole.totals)
