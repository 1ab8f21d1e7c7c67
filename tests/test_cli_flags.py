"""Every refusal a command prints names the command's flags, never the library's Python
arguments (issue 20, item 12), and counts agree with their nouns (item 13)."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from conftest import KEYS
from dialkit import Client
from dialkit.cli import app
from dialkit.sandbox import Sandbox

SAMPLES = Path(__file__).resolve().parents[1] / "data_samples"
PYTHON = re.compile(r"(?<![\w-])(mapping|region|encoding|api_key|country_column|sheet|"
                    r"blocked_countries|verified_caller_ids|leads|dnc|calls|client|"
                    r"campaign_id|journal)=|Client\.sandbox\(\)|blocked_countries(:| holds)")
runner = CliRunner()


@pytest.fixture
def nophone(tmp_path: Path) -> Path:
    path = tmp_path / "nophone.csv"
    path.write_text("Name,Notes\nAda,x\n", encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def _no_account(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DIALKIT_API_KEY", raising=False)
    monkeypatch.delenv("DIALKIT_BASE_URL", raising=False)


def refused(arguments: list[str]) -> str:
    result = runner.invoke(app, arguments)
    assert result.exit_code in (1, 2), result.output
    assert "Traceback" not in result.output
    return result.output


LEAD_FILE_REFUSALS = [
    ([], "nophone", "or pass --map phone=COLUMN"),
    (["--map", "nickname=Name"], "messy", "--map names fields a lead does not have"),
    (["--map", "phone=Nope"], "messy", "--map names columns the file does not have"),
    (["--region", "XX"], "messy", "--region 'XX' is not a region"),
    (["--encoding", "no-such-codec"], "messy", "leave --encoding out"),
    (["--country-column", "Nope"], "messy", "--country-column 'Nope' is not a column"),
    (["--blocked-countries", "Atlantis"], "messy", "--blocked-countries holds 'Atlantis'"),
]


@pytest.mark.parametrize("command", ["clean", "import"])
@pytest.mark.parametrize(("options", "file", "flag"), LEAD_FILE_REFUSALS,
                         ids=["no-phone", "map-field", "map-column", "region", "encoding",
                              "country-column", "blocked-countries"])
def test_lead_file_refusals_name_the_flags(command: str, options: list[str], file: str,
                                           flag: str, nophone: Path, client: Client,
                                           monkeypatch: pytest.MonkeyPatch,
                                           sandbox: Sandbox) -> None:
    arguments = ["leads", command]
    if command == "import":
        monkeypatch.setenv("DIALKIT_API_KEY", KEYS["full"])
        monkeypatch.setenv("DIALKIT_BASE_URL", sandbox.base_url)
        arguments += ["--campaign", next(client.campaigns.list(status="paused")).id]
    source = nophone if file == "nophone" else SAMPLES / "messy_us.csv"
    output = refused([*arguments, str(source), *options])
    assert flag in output and not PYTHON.search(output), output


@pytest.mark.parametrize("command", [["leads", "clean", "--campaign", "cmp_x"],
                                     ["leads", "import", "--campaign", "cmp_x"]],
                         ids=" ".join)
def test_a_missing_key_names_the_variable(command: list[str]) -> None:
    output = refused([*command, str(SAMPLES / "messy_us.csv")])
    assert "no API key: set DIALKIT_API_KEY" in output and "dialkit sandbox serve" in output
    assert not PYTHON.search(output), output


@pytest.mark.parametrize("command", [["leads", "clean", "--campaign", "cmp_x"],
                                     ["campaigns", "list"]], ids=" ".join)
def test_a_revoked_key_names_the_variable(command: list[str], sandbox: Sandbox,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DIALKIT_API_KEY", KEYS["revoked"])
    monkeypatch.setenv("DIALKIT_BASE_URL", sandbox.base_url)
    arguments = [*command, str(SAMPLES / "messy_us.csv")] if command[0] == "leads" else command
    output = refused(arguments)
    assert "invalid_api_key" in output and "(DIALKIT_API_KEY)" in output
    assert not PYTHON.search(output), output


@pytest.mark.parametrize("command", [["campaigns", "list"], ["compliance", "audit"]],
                         ids=" ".join)
def test_a_command_with_sandbox_offers_it_for_a_missing_key(command: list[str]) -> None:
    output = refused(command)
    assert "set DIALKIT_API_KEY (or pass --sandbox" in output
    assert not PYTHON.search(output), output


def test_the_audits_notes_name_its_flags(client: Client, tmp_path: Path) -> None:
    calls = tmp_path / "calls.csv"
    client.frames.calls(progress=False).to_csv(calls, index=False)
    result = runner.invoke(app, ["compliance", "audit", "--calls", str(calls)])
    assert result.exit_code == 0, result.output
    assert "not run: pass --verified-caller-ids FILE" in result.output
    assert "not run: pass --dnc FILE" in result.output
    dnc = tmp_path / "dnc.csv"
    dnc.write_text("phone,listed,checked_at\n+13125550000,false,2026-11-01T00:00:00Z\n")
    with_dnc = runner.invoke(app, ["compliance", "audit", "--calls", str(calls), "--dnc",
                                   str(dnc)])
    assert "not run: pass --leads FILE" in with_dnc.output, with_dnc.output
    assert not PYTHON.search(with_dnc.output), with_dnc.output
    assert not PYTHON.search(result.output), result.output


def test_an_unknown_campaign_is_refused_with_the_campaigns_to_choose(
        sandbox: Sandbox, client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DIALKIT_API_KEY", KEYS["full"])
    monkeypatch.setenv("DIALKIT_BASE_URL", sandbox.base_url)
    unknown = "cmp_00000000-0000-4000-8000-000000000000"
    result = runner.invoke(app, ["leads", "clean", str(SAMPLES / "messy_us.csv"),
                                 "--campaign", unknown])
    assert result.exit_code == 2 and unknown in result.output
    draft = next(client.campaigns.list(status="draft"))
    assert f"{draft.id}  {draft.name} (draft)" in result.output
    running = next(client.campaigns.list(status="running")).id
    result = runner.invoke(app, ["leads", "clean", str(SAMPLES / "messy_us.csv"),
                                 "--campaign", running])
    assert result.exit_code == 1 and f"campaign {running} is running" in result.output


def test_campaigns_list_shows_each_campaign_with_its_leads(
        sandbox: Sandbox, client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DIALKIT_API_KEY", KEYS["full"])
    monkeypatch.setenv("DIALKIT_BASE_URL", sandbox.base_url)
    result = runner.invoke(app, ["campaigns", "list"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].split() == ["id", "name", "status", "leads"]
    leads = client.frames.leads(refresh="full", progress=False)["campaign_id"].value_counts()
    for campaign in client.campaigns.list():
        line = next(line for line in lines if line.strip().startswith(campaign.id))
        assert campaign.name in line
        assert line.split()[-2:] == [campaign.status.value, str(leads.get(campaign.id, 0))]
    importable = runner.invoke(app, ["campaigns", "list", "--importable"])
    assert importable.exit_code == 0
    shown = {line.split()[-2] for line in importable.output.splitlines()[1:]}
    assert shown == {"draft", "ready", "paused"}


def test_one_batch_is_one_batch(sandbox: Sandbox, client: Client, tmp_path: Path,
                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DIALKIT_API_KEY", KEYS["full"])
    monkeypatch.setenv("DIALKIT_BASE_URL", sandbox.base_url)
    source = tmp_path / "three.csv"
    pd.DataFrame({"phone": [f"+1312555{n:04d}" for n in range(3)]}).to_csv(source, index=False)
    campaign = next(client.campaigns.list(status="paused")).id
    result = runner.invoke(app, ["leads", "import", str(source), "--campaign", campaign,
                                 "--journal", str(tmp_path / "journal")])
    assert result.exit_code == 0, result.output
    assert "3 rows in 1 batch (0 done by an earlier run)" in result.output


def test_a_region_hint_names_the_flags(tmp_path: Path) -> None:
    source = tmp_path / "gb.csv"
    source.write_text("Name,Phone\nA,020 7946 0958\nB,020 7946 0959\nC,+44 20 7946 0960\n"
                      "D,+44 20 7946 0961\n", encoding="utf-8")
    result = runner.invoke(app, ["leads", "clean", str(source)])
    assert result.exit_code == 0, result.output
    assert ("note: 2 rows look like GB numbers: pass --region 'GB' (no valid row's number "
            "changes), or write them with +44") in result.output
    assert not PYTHON.search(result.output), result.output
