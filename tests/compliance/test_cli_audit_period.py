"""Issue 48: an audit says what it stands on. Periods as people say them (``--since 30d``,
``yesterday``), and an audit of no call said loudly and failing ``--fail-on``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from typer.testing import CliRunner

from dialkit._utils._moments import period_bound
from dialkit.cli import app
from dialkit.compliance import audit

runner = CliRunner()
NOW = pd.Timestamp("2026-11-25T21:40:00Z")
NEW_YORK = "+12125550123"


@pytest.mark.parametrize(("said", "moment"), [
    ("30d", "2026-10-26T21:40Z"), ("7d", "2026-11-18T21:40Z"), (" 12h ", "2026-11-25T09:40Z"),
    ("1d12h", "2026-11-24T09:40Z"), ("today", "2026-11-25T00:00Z"),
    ("Yesterday", "2026-11-24T00:00Z"), ("now", "2026-11-25T21:40Z"),
    ("2026-11-01", "2026-11-01T00:00Z"), ("2026-11-01T09:00-05:00", "2026-11-01T14:00Z"),
])
def test_a_bound_is_read_as_people_say_it(said: str, moment: str) -> None:
    assert period_bound(said, "since", now=NOW) == pd.Timestamp(moment)


@pytest.mark.parametrize("said", ["last week", "30", "-5d", "0d", "", "2026-11-31"])
def test_a_bound_that_is_none_names_the_argument_and_the_forms(said: str) -> None:
    with pytest.raises(ValueError, match=re.escape(f"since={said!r}: pass an ISO date or "
                                                   "time (")) as refused:
        period_bound(said, "since", now=NOW)
    assert "'30d'" in str(refused.value) and "'yesterday'" in str(refused.value)


def _calls(*ages: pd.Timedelta) -> pd.DataFrame:
    """Calls to New York at 15:00 UTC (10:00 there: allowed) on days ``ages`` ago."""
    today = pd.Timestamp.now(tz="UTC").floor("D") + pd.Timedelta(hours=15)
    return pd.DataFrame([{
        "id": f"call_{n}", "direction": "outbound", "from_number": "+14155550100",
        "to_number": NEW_YORK, "created_at": (today - age).isoformat(), "answered_at": None,
        "ended_at": None, "campaign_id": "cmp_1", "disposition": None}
        for n, age in enumerate(ages)])


def _audited(tmp_path: Path, calls: pd.DataFrame, *flags: str) -> Any:
    path = tmp_path / "calls.csv"
    calls.to_csv(path, index=False)
    return runner.invoke(app, ["compliance", "audit", "--calls", str(path),
                               "--workbook", str(tmp_path / "evidence.xlsx"), *flags])


def _cover(tmp_path: Path) -> dict[str, str]:
    cover = pd.read_excel(tmp_path / "evidence.xlsx", sheet_name="cover", engine="calamine")
    return dict(zip(cover["item"], cover["value"].astype(str), strict=True))


DAYS = pd.Timedelta(days=1)


@pytest.mark.parametrize(("flags", "audited", "period"), [
    (["--since", "7d"], 2, r"since 7d \(.* UTC\)"),
    (["--since", "yesterday"], 1, r"since yesterday \(\d{4}-\d\d-\d\d 00:00 UTC\)"),
    (["--since", "30d", "--until", "today"], 3, r"since 30d \(.*\) until today \(.* 00:00 UTC\)"),
    (["--until", "2d"], 2, r"until 2d \(.* UTC\)"),
])
def test_a_file_is_cut_to_the_period_said_and_the_cover_says_which(
        tmp_path: Path, flags: list[str], audited: int, period: str) -> None:
    result = _audited(tmp_path, _calls(1 * DAYS, 3 * DAYS, 10 * DAYS), *flags)
    assert result.exit_code == 0, result.output
    items = _cover(tmp_path)
    assert items["calls audited"] == str(audited)
    assert re.fullmatch(period, items["period asked"]), items["period asked"]


def test_a_period_that_is_none_is_refused_naming_the_option(tmp_path: Path) -> None:
    result = _audited(tmp_path, _calls(DAYS), "--since", "last week")
    assert result.exit_code == 2
    assert "--since 'last week': pass an ISO date or time" in result.output
    assert "'30d'" in result.output and "'yesterday'" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(("flags", "code"), [
    ([], 0), (["--fail-on", "law"], 1), (["--fail-on", "any"], 1),
    (["--fail-on", "law", "--allow-empty"], 0),
])
def test_an_audit_of_no_call_says_so_and_fails_a_gate(tmp_path: Path, flags: list[str],
                                                      code: int) -> None:
    result = _audited(tmp_path, _calls(3 * DAYS), "--since", "today", "--html",
                      str(tmp_path / "report.html"), *flags)
    assert result.exit_code == code, result.output
    assert result.output.startswith("0 CALLS AUDITED: no call in the data")
    assert ("0 calls audited, nothing was checked (pass --allow-empty" in result.output) == (
        code == 1)
    assert re.search(r"calling_hours .* 0 +outbound calls +– +unchecked", result.output)
    assert "proxy" not in result.output  # no word on how data it has not were read
    assert "abandonment: not judged: no call answered by a live person was audited" in (
        result.output)
    assert _cover(tmp_path)["calls audited"].startswith("0 CALLS AUDITED")
    assert "<b>0 CALLS AUDITED" in (tmp_path / "report.html").read_text()


def test_a_report_says_in_python_whether_it_audited_any_call() -> None:
    calls = _calls(DAYS).assign(created_at=lambda frame: pd.to_datetime(frame["created_at"]))
    nothing = audit(calls.iloc[:0])
    assert nothing.empty and nothing.calls_audited == 0
    assert nothing.to_text().startswith("0 CALLS AUDITED") and "0 CALLS AUDITED" in repr(
        nothing)
    some = audit(calls)
    assert not some.empty and some.calls_audited == 1
    assert "CALLS AUDITED" not in some.to_text() + repr(some)


@pytest.mark.parametrize("about", ["nothing", "=Acme", "account"])
def test_an_about_that_is_no_key_and_value_is_refused(tmp_path: Path, about: str) -> None:
    result = _audited(tmp_path, _calls(DAYS), "--about", about)
    assert result.exit_code == 2
    assert f"--about {about!r}: pass KEY=VALUE items" in result.output


@pytest.mark.parametrize("names", [
    {"cmp_1": "Spring renewals"},
    pd.Series({"cmp_1": "Spring renewals"}),  # campaigns.set_index("id")["name"], as documented
    pd.DataFrame({"id": ["cmp_1", "cmp_2"], "name": ["Spring renewals", None]}),
])
def test_campaigns_are_named_from_the_names_a_caller_has(tmp_path: Path, names: Any) -> None:
    late = _calls(DAYS).assign(created_at=pd.Timestamp("2026-11-24T02:30Z"))  # 21:30 there
    report = audit(late)
    assert report.findings["rule"].tolist() == ["calling_hours"]
    assert "<td>Spring renewals (cmp_1)</td>" in report.to_html(names=names)
    report.to_excel(tmp_path / "named.xlsx", names=names)
    sheet = pd.read_excel(tmp_path / "named.xlsx", sheet_name="calling_hours",
                          engine="calamine")
    assert sheet["campaign"].tolist() == ["Spring renewals (cmp_1)"]
