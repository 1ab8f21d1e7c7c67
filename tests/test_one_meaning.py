"""One meaning per name across layers (issue 24): ``blocked_countries`` is read alike by
``leads.clean``, ``leads.import_leads``, ``compliance.audit`` and their commands, refused
with one message; the campaign filter is ``campaign_id=`` (one id or several) with
``since=``/``until=`` for a period; ``compliance.plot_summary`` is called as the analytics
plots are."""

from __future__ import annotations

import inspect
import re
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from typer.testing import CliRunner

from dialkit import Client, analytics, compliance, leads
from dialkit.cli import app

IR, NY = "+982122223333", "+12125550142"


def calls(*phones: str, campaigns: tuple[str, ...] = ("cmp_1",)) -> pd.DataFrame:
    """Unanswered outbound calls, one to each phone, campaigns taken in turn."""
    return pd.DataFrame({
        "id": [f"call_{n}" for n in range(len(phones))], "direction": "outbound",
        "from_number": "+14155550100", "to_number": list(phones),
        "created_at": pd.Timestamp("2026-06-01T15:00Z"), "answered_at": pd.NaT,
        "ended_at": pd.NaT, "disposition": None,
        "campaign_id": [campaigns[n % len(campaigns)] for n in range(len(phones))]})


def blocked_by_clean(blocked: Any) -> list[str]:
    result = leads.clean(pd.DataFrame({"phone": [IR, NY]}), blocked_countries=blocked)
    statuses: list[str] = result.frame["status"].astype(str).tolist()
    return statuses


def blocked_by_audit(blocked: Any) -> list[str]:
    return audit_calls(calls(IR, NY), blocked_countries=blocked)


def audit_calls(frame: pd.DataFrame, **options: Any) -> list[str]:
    findings = compliance.audit(frame, **options).findings
    found: list[str] = findings.loc[findings["rule"] == "blocked_country", "call_id"].tolist()
    return found


@pytest.mark.parametrize("blocked", [["IR"], ["ir", "KP"], ("Iran",), {"IR"}, "IR", "kp, ir",
                                     " North Korea ,Iran ", ["United Kingdom", "Iran"]])
def test_blocked_countries_are_read_alike_by_leads_and_the_audit(blocked: Any) -> None:
    assert blocked_by_clean(blocked) == ["blocked_country", "accepted"]
    assert blocked_by_audit(blocked) == ["call_0"]


@pytest.mark.parametrize(("blocked", "refused", "hint"), [
    (["XX"], "'XX', which names no country", "pass ISO 3166 codes or country names"),
    ("KP, Atlantis", "'Atlantis', which names no country", "'KP, IR'"),
    ("KP IR", "'KP IR', which names no country", "'KP, IR'"),  # commas separate
    (["+98"], "'+98', a calling code, not a country", "pass 'IR'"),
    ("+1", "'+1', a calling code, not a country", "among 'US', "),  # not only the US
    ([None], "None, which names no country", "such as ['KP', 'IR']"),
    ([""], "'', which names no country", "such as ['KP', 'IR']"),
])
def test_a_bad_blocked_country_is_refused_with_one_message(blocked: Any, refused: str,
                                                           hint: str) -> None:
    with pytest.raises(ValueError) as by_clean:
        blocked_by_clean(blocked)
    with pytest.raises(compliance.AuditInputError) as by_audit:
        blocked_by_audit(blocked)
    message = str(by_clean.value)
    assert message == str(by_audit.value)
    assert message.startswith(f"blocked_countries holds {refused}")
    assert hint in message


def test_the_commands_refuse_a_bad_blocked_country_alike(tmp_path: Path) -> None:
    frame = calls(IR, NY)
    frame.to_csv(tmp_path / "calls.csv", index=False)
    frame[["to_number"]].rename(columns={"to_number": "phone"}).to_csv(
        tmp_path / "leads.csv", index=False)
    runner = CliRunner()
    audited = runner.invoke(app, ["compliance", "audit", "--calls", str(tmp_path / "calls.csv"),
                                  "--blocked-countries", "KP, Atlantis"])
    cleaned = runner.invoke(app, ["leads", "clean", str(tmp_path / "leads.csv"),
                                  "--blocked-countries", "KP, Atlantis"])
    assert (audited.exit_code, cleaned.exit_code) == (2, 2)
    said = [re.search(r"--blocked-countries holds .*", result.output)
            for result in (audited, cleaned)]
    assert said[0] and said[1] and said[0][0] == said[1][0], (audited.output, cleaned.output)
    good = runner.invoke(app, ["leads", "clean", str(tmp_path / "leads.csv"),
                               "--blocked-countries", "North Korea, Iran"])
    assert good.exit_code == 0 and "2 rows, 1 accepted, 1 rejected" in good.output


def test_import_leads_refuses_a_bad_blocked_country_before_anything_is_written(
        tmp_path: Path) -> None:
    with (Client("dk_test_unused", base_url="http://127.0.0.1:9") as client,  # never reached
          pytest.raises(ValueError, match="^blocked_countries holds 'Atlantis'")):
        leads.import_leads(client, pd.DataFrame({"phone": [NY]}), "cmp_1",
                           journal=tmp_path / "journal", blocked_countries="KP, Atlantis")
    assert not (tmp_path / "journal").exists()


@pytest.mark.parametrize(("campaign_id", "found"), [
    ("cmp_1", ["call_0"]), (["cmp_1"], ["call_0"]), (("cmp_1", "cmp_2"), ["call_0", "call_1"]),
    ([], []), (None, ["call_0", "call_1"])])
def test_the_audit_filters_by_campaign_id_one_or_several(campaign_id: Any,
                                                         found: list[str]) -> None:
    frame = calls(IR, IR, campaigns=("cmp_1", "cmp_2"))
    assert audit_calls(frame, blocked_countries="IR", campaign_id=campaign_id) == found


def test_the_audits_old_campaigns_keyword_warns_and_filters_alike() -> None:
    frame = calls(IR, IR, campaigns=("cmp_1", "cmp_2"))
    with pytest.warns(DeprecationWarning, match=r"audit\(campaign_id=\.\.\.\)"):
        old = audit_calls(frame, blocked_countries="IR", campaigns=["cmp_2"])
    assert old == audit_calls(frame, blocked_countries="IR", campaign_id="cmp_2") == ["call_1"]
    with pytest.raises(compliance.AuditInputError, match="pass campaign_id= alone"):
        compliance.audit(frame, campaign_id="cmp_1", campaigns=["cmp_2"])


def test_load_takes_several_campaigns_and_a_period(client: Client) -> None:
    every = client.frames.calls()
    two = sorted(every["campaign_id"].dropna().unique())[:2]
    assert len(two) == 2
    since, until = every["created_at"].quantile([0.25, 0.75])
    frames = compliance.load(client, campaign_id=two, since=since, until=until.isoformat())
    of_two = every[every["campaign_id"].isin(two) & (every["direction"] == "outbound")]
    chosen = of_two[(of_two["created_at"] >= since) & (of_two["created_at"] < until)]
    assert sorted(frames["calls"]["id"]) == sorted(  # the history the period is judged by
        every.loc[every["campaign_id"].isin(two), "id"])
    assert (frames.get("since"), frames.get("until")) == (since, until.isoformat())
    assert 0 < compliance.audit(**frames).calls_audited == len(chosen) < len(of_two)
    assert set(frames["leads"]["campaign_id"]) == set(two)
    loaded = analytics.load(client, campaign_id=two)
    assert set(loaded["calls"]["campaign_id"]) == set(loaded["leads"]["campaign_id"]) == set(two)


def test_plot_summary_is_called_as_the_analytics_plots_are() -> None:
    from matplotlib.figure import Figure

    ours = inspect.signature(compliance.plot_summary)  # both modules' annotations are text
    theirs = inspect.signature(analytics.plot_funnel)
    assert ours.parameters["ax"] == theirs.parameters["ax"]  # keyword-only, Axes | None
    assert str(ours.parameters["ax"]) == "ax: 'Axes | None' = None"
    assert ours.parameters["ax"].kind is inspect.Parameter.KEYWORD_ONLY
    assert ours.return_annotation == theirs.return_annotation == "Axes"
    ax = Figure().subplots()
    assert compliance.plot_summary(compliance.audit(calls(IR), blocked_countries="IR"),
                                   ax=ax) is ax
    with pytest.raises(TypeError):
        compliance.plot_summary(compliance.audit(calls(IR)), ax)  # type: ignore[call-arg]
