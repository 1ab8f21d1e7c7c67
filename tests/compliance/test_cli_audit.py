"""``dialkit compliance audit`` on CSV and Parquet exports, and against the emulator."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from typer.testing import CliRunner

from conftest import load_seeded
from dialkit import Client
from dialkit.cli import app
from dialkit.compliance import HOUSE_RULES, POLICY, audit, load
from dialkit.frames import export
from dialkit.sandbox import Sandbox

runner = CliRunner()


@pytest.fixture(scope="module")
def loaded(sandbox: Sandbox, tmp_path_factory: pytest.TempPathFactory
           ) -> dict[str, pd.DataFrame]:
    """The session emulator's seeded frames, loaded once for the module."""
    return load_seeded(sandbox, tmp_path_factory.mktemp("cache"), load)


@pytest.fixture
def exports(loaded: dict[str, pd.DataFrame]) -> dict[str, pd.DataFrame]:
    """The loaded frames, copies of the test's own."""
    return {name: frame.copy() for name, frame in loaded.items()}


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_exports_are_audited_like_the_account(exports: dict[str, pd.DataFrame], tmp_path: Path,
                                              suffix: str) -> None:
    paths = {}
    for name, frame in exports.items():
        paths[name] = tmp_path / f"{name}{suffix}"
        if suffix == ".csv":
            frame.to_csv(paths[name], index=False)
        else:
            frame.to_parquet(paths[name], index=False)
    ids = tmp_path / "verified.txt"
    ids.write_text("+14155550100\n")
    out = tmp_path / "findings.csv"
    result = runner.invoke(app, ["compliance", "audit", "--calls", str(paths["calls"]),
                                 "--leads", str(paths["leads"]), "--dnc", str(paths["dnc"]),
                                 "--verified-caller-ids", str(ids), "--blocked-countries",
                                 "KP,IR", "--out", str(out), "--mask-pii", "--workbook",
                                 str(tmp_path / "evidence.xlsx"), "--policy", "house-rules"])
    assert result.exit_code == 0, result.output
    findings = pd.read_csv(out, dtype=str)
    assert {"rule", "call_id", "lead_id", "phone", "at", "evidence"} <= set(findings.columns)
    assert {"calling_hours", "call_frequency", "unverified_caller_id"} <= set(findings["rule"])
    assert findings["phone"].str.contains(r"\*{5}").all()
    outbound = (exports["calls"]["direction"] == "outbound").sum()
    hours = findings[findings["rule"] == "calling_hours"]
    law = (hours["basis"] == "law").sum()
    assert re.search(rf"calling_hours +{len(hours)} +{law} +{len(hours) - law} +0 +{outbound:,} "
                     rf"+outbound calls +{len(hours) / outbound:.2%} +broken", result.output)
    listed = (findings["rule"] == "dnc_lead").sum()  # numbers listed after their callback
    assert (findings.loc[findings["rule"] == "dnc_lead", "basis"] == "risk").all()
    assert re.search(rf"dnc_lead +{listed} +0 +0 +{listed} +[\d,]+ +leads +\S+ +"
                     rf"{'risks' if listed else 'passed'}", result.output)
    assert "policy" in set(findings.loc[findings["rule"] == "call_frequency", "basis"])
    cover = pd.read_excel(tmp_path / "evidence.xlsx", sheet_name="cover", engine="calamine")
    data = dict(zip(cover["item"], cover["value"], strict=True))
    assert data["data: calls"].startswith(f"{len(exports['calls']):,} rows, created_at ")
    assert f"from {paths['calls']}, fetched " in data["data: calls"]
    audited = audit(**exports, verified_caller_ids=["+14155550100"],
                    blocked_countries=["KP", "IR"], policy=HOUSE_RULES)
    assert len(findings) == len(audited.findings)  # the export says what the account says


def test_a_file_missing_a_column_is_named(exports: dict[str, pd.DataFrame],
                                         tmp_path: Path) -> None:
    path = tmp_path / "calls.csv"
    exports["calls"].drop(columns="to_number").to_csv(path, index=False)
    result = runner.invoke(app, ["compliance", "audit", "--calls", str(path)])
    assert result.exit_code == 2
    assert f"{path}: calls has no column to_number" in result.output


def test_the_emulator_is_audited_with_sandbox(tmp_path: Path) -> None:
    """Against an account, the cover says who asked (``--about``) and the period asked for
    beside the data's own, and the campaigns are named (issue 48)."""
    result = runner.invoke(app, ["compliance", "audit", "--sandbox", "--workbook",
                                 str(tmp_path / "evidence.xlsx"), "--html",
                                 str(tmp_path / "report.html"), "--since", "30d",
                                 "--about", "account=Acme, Inc.,auditor=J. Smith"])
    assert result.exit_code == 0, result.output
    assert re.search(r"^\d+ findings: \d+ of law, 0 of policy, \d+ risks?(, in \d+ "
                     r"(leads?|calls?) [^(]+)? \(US federal", result.output)
    assert re.search(r"unverified_caller_id +0 .* passed", result.output)  # the emulator's ids
    cover = pd.read_excel(tmp_path / "evidence.xlsx", sheet_name="cover", engine="calamine")
    items = dict(zip(cover["item"], cover["value"].astype(str), strict=True))
    assert list(items)[:2] == ["account", "auditor"]
    assert (items["account"], items["auditor"]) == ("Acme, Inc.", "J. Smith")
    assert re.fullmatch(r"since 30d \(\d{4}-\d\d-\d\d \d\d:\d\d UTC\)", items["period asked"])
    assert list(items).index("period asked") + 1 == list(items).index("data: calls")
    assert int(items["calls audited"].replace(",", "")) > 0
    page = (tmp_path / "report.html").read_text().replace("<wbr>", "")  # ids' break points
    assert "<h2>Compliance audit" in page
    assert re.search(r"<td>[A-Z][\w ]+ \(cmp_[0-9a-f-]{36}\)</td>", page)  # name and id


def test_the_readme_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    readme = Path(__file__).parents[2] / "README.md"
    section = readme.read_text("utf-8").split("## Compliance audits", 1)[1].split("\n## ", 1)[0]
    (block,) = re.findall(r"```python\n(.*?)```", section, re.DOTALL)
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, Any] = {}
    exec(compile(block, str(readme), "exec"), namespace)  # noqa: S102 - our own docs
    try:
        report = namespace["report"]
        assert report.totals["passed"].to_dict() == report.passed.to_dict()
        assert "unverified_caller_id" in report.ran
        cover = pd.read_excel("evidence.xlsx", sheet_name="cover", engine="calamine")
        assert {"account", "period", "data: calls"} <= set(cover["item"])
    finally:
        namespace["client"].close()


def test_a_file_with_a_time_that_is_not_one_is_named(exports: dict[str, pd.DataFrame],
                                                    tmp_path: Path) -> None:
    path = tmp_path / "calls.csv"
    calls = exports["calls"].astype({"created_at": object})
    calls.loc[3, "created_at"] = "03/11/2026 14:00"
    calls.to_csv(path, index=False)
    result = runner.invoke(app, ["compliance", "audit", "--calls", str(path)])
    assert result.exit_code == 2
    assert (f"{path}: calls.created_at holds '03/11/2026 14:00' at row 3, which is not an "
            "ISO 8601 time") in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.filterwarnings("ignore:The inplace keyword in DataFrame.reset_index")
def test_an_exported_dataset_is_audited_from_its_folders(client: Client, tmp_path: Path) -> None:
    frames = load(client)
    path = export(client, tmp_path / "account")
    frames["dnc"].to_parquet(tmp_path / "dnc.parquet")
    out = tmp_path / "findings.csv"
    result = runner.invoke(app, ["compliance", "audit", "--calls", str(path / "calls"),
                                 "--leads", str(path / "leads"), "--dnc",
                                 str(tmp_path / "dnc.parquet"), "--out", str(out)])
    assert result.exit_code == 0, result.output
    found = pd.read_csv(out, dtype=str)
    expected = audit(**frames).findings
    assert sorted(zip(found["rule"], found["call_id"].fillna(""), strict=True)) == sorted(
        zip(expected["rule"], expected["call_id"].fillna(""), strict=True))
    assert len(found) > 0


def test_a_folder_that_is_no_dataset_is_named(client: Client, tmp_path: Path) -> None:
    (tmp_path / "calls").mkdir()
    (tmp_path / "calls" / "calls.csv").write_text("id,direction\ncall_1,outbound\n")
    result = runner.invoke(app, ["compliance", "audit", "--calls", str(tmp_path / "calls")])
    assert result.exit_code != 0
    assert f"{tmp_path / 'calls'}: is not a Parquet dataset" in result.output
    assert "Traceback" not in result.output


def _audited_file(tmp_path: Path, calls: pd.DataFrame, *flags: str) -> Any:
    path = tmp_path / "calls.csv"
    calls.to_csv(path, index=False)
    return runner.invoke(app, ["compliance", "audit", "--calls", str(path), *flags])


def _calls(*rows: tuple[str, str]) -> pd.DataFrame:
    """Unanswered calls that rang 30 s (an end time: without one, ``short_ring`` could not
    judge them, and ``--fail-on law`` would stop on it)."""
    return pd.DataFrame([{
        "id": f"call_{n}", "direction": "outbound", "from_number": "+14155550100",
        "to_number": number, "created_at": at, "answered_at": None,
        "ended_at": (pd.Timestamp(at) + pd.Timedelta(seconds=30)).isoformat(),
        "campaign_id": "cmp_1", "disposition": None} for n, (number, at) in enumerate(rows)])


LATE_IN_NEW_YORK = ("+12125550123", "2026-11-24T02:30:00Z")  # Mon 21:30: the law forbids
LATE_IN_LONDON = ("+442079460000", "2026-11-24T21:30:00Z")   # 21:30: only a policy does


@pytest.mark.parametrize(("rows", "flags", "code"), [
    ([LATE_IN_NEW_YORK], ["--fail-on", "law"], 1),
    ([LATE_IN_NEW_YORK], ["--fail-on", "any"], 1),
    ([LATE_IN_NEW_YORK], [], 0),                                        # a finding is no error
    ([LATE_IN_LONDON], ["--fail-on", "law"], 0),                        # UK law: no hours
    ([LATE_IN_LONDON], ["--fail-on", "law", "--policy", "house-rules"], 0),
    ([LATE_IN_LONDON], ["--fail-on", "any", "--policy", "house-rules"], 1),
    ([LATE_IN_LONDON], ["--fail-on", "any", "--policy-window", "08:00-21:00"], 1),
    ([LATE_IN_LONDON], ["--fail-on", "any", "--policy-window", "08:00-22:00"], 0),
    ([LATE_IN_LONDON], ["--fail-on", "any"], 0),
])
def test_fail_on_exits_1_when_it_finds_what_is_named(tmp_path: Path, rows: list[tuple[str, str]],
                                                     flags: list[str], code: int) -> None:
    result = _audited_file(tmp_path, _calls(*rows), *flags)
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output


HELD_LEADS = pd.DataFrame({"id": ["lead_listed", "lead_unscreened"], "campaign_id": "cmp_1",
                           "phone": ["+12125550199", "+12125550198"], "status": "new"})
"""Two leads still to be called: one at a number on the Do-Not-Call list, one at a number
never screened. Neither has been called: holding them breaks no law, they are risks."""
DAYTIME_IN_NEW_YORK = ("+12125550123", "2026-11-24T15:00:00Z")  # Tue 10:00: allowed


def _audited_with_leads(tmp_path: Path, calls: pd.DataFrame, *flags: str) -> Any:
    """The CLI on calls, :data:`HELD_LEADS` and the DNC check of the listed lead's number
    (a day old: recent enough under every scrub age), as files, as a user runs it."""
    paths = {name: tmp_path / f"{name}.csv" for name in ("leads", "dnc")}
    HELD_LEADS.to_csv(paths["leads"], index=False)
    checked = (pd.Timestamp.now(tz="UTC") - pd.Timedelta(days=1)).isoformat()
    pd.DataFrame({"phone": ["+12125550199"], "listed": [True], "checked_at": [checked]}
                 ).to_csv(paths["dnc"], index=False)
    return _audited_file(tmp_path, calls, "--leads", str(paths["leads"]), "--dnc",
                         str(paths["dnc"]), *flags)


@pytest.mark.parametrize(("rows", "flags", "code", "said"), [
    ([DAYTIME_IN_NEW_YORK], [], 0, None),
    ([DAYTIME_IN_NEW_YORK], ["--fail-on", "law"], 0, None),       # a risk is no violation
    ([DAYTIME_IN_NEW_YORK], ["--fail-on", "any"], 0, None),
    ([DAYTIME_IN_NEW_YORK], ["--fail-on", "risk"], 1, "--fail-on risk: 2 risks"),
    ([DAYTIME_IN_NEW_YORK], ["--fail-on", "law", "--fail-on", "risk"], 1,
     "--fail-on law risk: 2 risks"),
    ([LATE_IN_NEW_YORK], ["--fail-on", "law"], 1, "--fail-on law: 1 finding of law"),
    ([LATE_IN_NEW_YORK], ["--fail-on", "any", "--fail-on", "risk"], 1,
     "--fail-on any risk: 1 finding of law, 2 risks"),
])
def test_risks_fail_only_a_fail_on_that_names_them(tmp_path: Path, rows: list[tuple[str, str]],
                                                   flags: list[str], code: int,
                                                   said: str | None) -> None:
    """A listed or unscreened lead that was not called is a risk: counted apart from the
    violations in the summary (and out of its rate, of violations: issue 79), and
    stopping CI only under ``--fail-on risk``."""
    result = _audited_with_leads(tmp_path, _calls(*rows), *flags)
    assert result.exit_code == code, result.output
    law = int(rows == [LATE_IN_NEW_YORK])
    assert (f"{law + 2} findings: {law} of law, 0 of policy, 2 risks, in 2 leads that could be "
            "called wrongly (") in result.output
    assert re.search(r"dnc_lead +1 +0 +0 +1 +2 +leads +0\.00% +risks", result.output)
    assert re.search(r"unscreened_lead +1 +0 +0 +1 +2 +leads +0\.00% +risks", result.output)
    assert (said in result.output) if said else "--fail-on" not in result.output


def test_a_policy_from_flags_is_reported_as_policy(tmp_path: Path) -> None:
    four = _calls(*((LATE_IN_LONDON[0], f"2026-11-24T{h}:00:00Z") for h in (10, 11, 12, 13)))
    out = tmp_path / "found.csv"
    result = _audited_file(tmp_path, four, "--policy-cap", "3", "--out", str(out))
    assert result.exit_code == 0, result.output
    found = pd.read_csv(out, dtype=str)
    assert found[["rule", "call_id", "basis", "policy"]].values.tolist() == [
        ["call_frequency", "call_3", "policy", "command line: at most 3 calls a day"]]
    assert "1 finding: 0 of law, 1 of policy, 0 risks" in result.output
    expected = audit(four.assign(created_at=pd.to_datetime(four["created_at"])),
                     policy=POLICY("command line: at most 3 calls a day", max_calls_per_24h=3))
    assert expected.findings["call_id"].tolist() == ["call_3"]
    assert audit(four.assign(created_at=pd.to_datetime(four["created_at"])),
                 policy=HOUSE_RULES).findings["call_id"].tolist() == ["call_3"]


@pytest.mark.parametrize(("flags", "message"), [
    (["--fail-on", "some"], "--fail-on 'some': pass law, any or risk"),
    (["--fail-on", "law", "--fail-on", "policy"], "--fail-on 'policy': pass law, any or risk"),
    (["--policy", "strict"], "--policy 'strict': pass one of house-rules"),
    (["--policy-window", "9-20"], "--policy-window '9-20': pass the allowed hours as HH:MM-HH:MM"),
    (["--policy-window", "20:00-09:00"], "--policy-window '20:00-09:00': pass the allowed"),
    (["--preset", "eu"], "--preset 'eu': pass one of us, uk, ca, us-federal"),
])
def test_bad_policy_and_fail_on_flags_are_named(tmp_path: Path, flags: list[str],
                                                message: str) -> None:
    result = _audited_file(tmp_path, _calls(LATE_IN_LONDON), *flags)
    assert result.exit_code == 2 and message in result.output


def test_fail_on_risks_help_names_the_risks_of_calls_too() -> None:
    """Issue 79: ``--fail-on risk`` fails on a call that may have broken a law (a campaign
    call without written consent to a number that may be wireless) as on a lead; its help
    spoke of leads alone. The help and docs/cli.md's row say both."""
    result = runner.invoke(app, ["compliance", "audit", "--help"])
    option = re.search(r"^  --fail-on(.*?)(?=^  --)", result.output, re.MULTILINE | re.DOTALL)
    assert result.exit_code == 0 and option is not None, result.output
    said = " ".join(option.group(1).split())
    assert ("risk (a call that may have broken a law, which the data cannot tell, or a lead "
            "that could be called wrongly: listed, unscreened or of an unread address state)"
            ) in said
    row = next(line for line in (Path(__file__).parents[2] / "docs" / "cli.md").read_text()
               .splitlines() if line.startswith("| `--fail-on` |"))
    assert "`risk` (a call that may have broken a law, or a lead that could be called " in row
