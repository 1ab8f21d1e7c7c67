"""The command line keeps its users' habits (issue 39, item 3): ``python -m dialkit``,
``-h``, shell completion, ``--json`` and ``--csv`` on every command that prints a table,
``-v`` to the standard logging output, and named profiles of an owner-only config file."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from conftest import KEYS
from dialkit import Client, samples
from dialkit.cli import app
from dialkit.client import profiles, save_profile
from dialkit.compliance import next_allowed
from dialkit.leads import campaigns, clean
from dialkit.sandbox import Sandbox

SAMPLES = Path(__file__).resolve().parents[1] / "data_samples"
DIALKIT = Path(sys.executable).parent / "dialkit"
runner = CliRunner()


@pytest.fixture(autouse=True)
def _own_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A config file of the test's own; no account in the environment. Each variable is
    set before it is removed, so that what a command sets (``--profile`` sets
    ``DIALKIT_PROFILE`` for the Client it makes) is undone after the test too."""
    for name in ("DIALKIT_API_KEY", "DIALKIT_BASE_URL", "DIALKIT_PROFILE"):
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)
    path = tmp_path / "config" / "config.toml"
    monkeypatch.setenv("DIALKIT_CONFIG", str(path))
    return path


@pytest.fixture
def account(sandbox: Sandbox, monkeypatch: pytest.MonkeyPatch) -> Sandbox:
    monkeypatch.setenv("DIALKIT_API_KEY", KEYS["full"])
    monkeypatch.setenv("DIALKIT_BASE_URL", sandbox.base_url)
    return sandbox


def _ok(arguments: list[str], **options: object) -> str:
    result = runner.invoke(app, arguments, **options)  # type: ignore[arg-type]
    assert result.exit_code == 0, result.output
    return result.stdout


def _frame(text: str) -> pd.DataFrame:
    return pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False)


def test_python_dash_m_dialkit_is_the_command() -> None:
    ran = subprocess.run([sys.executable, "-m", "dialkit", "--version"], capture_output=True,
                         text=True, check=False)
    assert (ran.returncode, ran.stdout) == (0, _ok(["--version"]))


@pytest.mark.parametrize("command", [[], ["leads", "clean"], ["compliance", "audit"],
                                     ["profiles", "add"]], ids=lambda c: " ".join(c) or "-")
def test_dash_h_is_help(command: list[str]) -> None:
    assert _ok([*command, "-h"]) == _ok([*command, "--help"])
    assert _ok([*command, "-h"]).startswith("Usage: ")


@pytest.mark.parametrize(("words", "expected"), [
    ("dialkit comp", "compliance"), ("dialkit compliance au", "audit"),
    ("dialkit compliance audit --fail", "--fail-on"), ("dialkit leads clean --js", "--json")])
def test_bash_completion_completes_commands_and_options(words: str, expected: str) -> None:
    """As bash asks it once ``dialkit --install-completion`` has run: through the
    console script, with typer's ``_DIALKIT_COMPLETE`` protocol."""
    env = {**os.environ, "_DIALKIT_COMPLETE": "complete_bash", "COMP_WORDS": words,
           "COMP_CWORD": str(len(words.split()) - 1)}
    ran = subprocess.run([DIALKIT], capture_output=True, text=True, env=env, check=False)
    assert ran.returncode == 0, ran.stderr
    assert expected in ran.stdout.split()


def test_the_completion_script_is_the_one_the_protocol_above_answers() -> None:
    """What ``--install-completion`` writes for bash (the shell is detected: here the
    test's bash, kept as the command's parent by a second command: ``bash -c`` with one
    command execs it, and the shell found is then whatever ran the tests, or none under
    ``nohup``)."""
    ran = subprocess.run(["bash", "-c", f"{DIALKIT} --show-completion; exit $?"],
                         capture_output=True, text=True, check=False)
    assert ran.returncode == 0, ran.stderr
    assert "_DIALKIT_COMPLETE=complete_bash" in ran.stdout
    assert ran.stdout.rstrip().endswith("dialkit")


def test_campaigns_list_as_json_and_csv_is_the_librarys_frame(account: Sandbox) -> None:
    with Client() as client:
        expected = campaigns(client, refresh="full")
    rows = json.loads(_ok(["campaigns", "list", "--json"]))
    assert [row["id"] for row in rows] == expected["id"].tolist()
    assert [row["leads"] for row in rows] == expected["leads"].tolist()
    table = _frame(_ok(["campaigns", "list", "--csv", "--importable"]))
    assert table["id"].tolist() == expected.loc[expected["importable"], "id"].tolist()
    assert list(table.columns) == list(expected.columns)


def test_compliance_when_and_audit_as_json_and_csv(tmp_path: Path) -> None:
    numbers = ["+14155550123", "+12125550142", "+442079460000"]
    at = "2026-11-25T06:00:00Z"  # 22:00 in San Francisco, 01:00 in New York
    expected = next_allowed(numbers, pd.Timestamp(at))
    rows = json.loads(_ok(["compliance", "when", *numbers, "--at", at, "--json"]))
    assert [row["allowed"] for row in rows] == expected["allowed"].tolist()
    assert [row["timezone"] for row in rows] == expected["timezone"].tolist()
    assert rows[0]["next_allowed_at"].startswith("2026-11-25T16:00:00")
    calls = tmp_path / "calls.csv"
    hostile = '=HYPERLINK("http://evil.example","x")'  # a spreadsheet would run it
    pd.DataFrame({"id": [hostile, "call_2"], "direction": ["outbound"] * 2,
                  "to_number": ["+14155550123"] * 2, "from_number": ["+14155550100"] * 2,
                  "created_at": ["2026-11-25T06:30:00Z", "2026-11-25T18:00:00Z"],
                  "answered_at": "", "ended_at": "", "campaign_id": "cmp_x",
                  "disposition": "no_answer"}).to_csv(calls, index=False)
    found = _frame(_ok(["compliance", "audit", "--calls", str(calls), "--csv"]))
    assert found["call_id"].tolist() == ["'" + hostile]  # text in a spreadsheet
    assert found["rule"].tolist() == ["calling_hours"]
    masked = json.loads(_ok(["compliance", "audit", "--calls", str(calls), "--json",
                             "--mask-pii"]))
    assert "+14155550123" not in json.dumps(masked) and masked[0]["call_id"] == hostile


def test_lead_clean_summary_as_json_with_notes_on_stderr() -> None:
    source = SAMPLES / "messy_us.csv"
    expected = clean(source).summary
    result = runner.invoke(app, ["leads", "clean", str(source), "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert len(rows) == len(expected) and set(rows[0]) == set(expected.columns)
    assert "note:" not in result.stdout


def test_samples_and_cache_info_as_json(tmp_path: Path) -> None:
    listed = json.loads(_ok(["samples", "--json"]))
    assert [row["name"] for row in listed] == samples.names()
    assert all(Path(row["path"]).is_file() for row in listed)
    assert json.loads(_ok(["cache", "info", "--dir", str(tmp_path), "--json"])) == []
    assert _ok(["cache", "info", "--dir", str(tmp_path), "--csv"]).startswith("service,")


def test_json_and_csv_together_are_refused() -> None:
    result = runner.invoke(app, ["samples", "--json", "--csv"])
    assert result.exit_code == 2 and "--json and --csv: pass one of them" in result.output


def test_verbose_logs_each_request_to_stderr_with_the_key_masked(sandbox: Sandbox) -> None:
    env = {**os.environ, "DIALKIT_API_KEY": KEYS["full"], "DIALKIT_BASE_URL": sandbox.base_url}
    quiet = subprocess.run([DIALKIT, "campaigns", "list"], env=env, capture_output=True,
                           text=True, check=False)
    ran = subprocess.run([DIALKIT, "-vv", "campaigns", "list"], env=env, capture_output=True,
                         text=True, check=False)
    assert ran.returncode == quiet.returncode == 0, ran.stderr
    assert quiet.stderr == "" and ran.stdout == quiet.stdout
    assert "httpx: HTTP Request: GET" in ran.stderr and "DEBUG" in ran.stderr
    assert KEYS["full"] not in ran.stderr and KEYS["full"][-20:] not in ran.stderr
    once = subprocess.run([DIALKIT, "-v", "campaigns", "list"], env=env, capture_output=True,
                          text=True, check=False)
    assert "HTTP Request: GET" in once.stderr and "DEBUG" not in once.stderr


def test_profiles_keep_accounts_apart(sandbox: Sandbox, _own_config: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    save_profile("acme", base_url=sandbox.base_url, api_key=KEYS["full"])
    save_profile("other", base_url=sandbox.base_url, api_key=KEYS["noswitch"])
    assert oct(_own_config.stat().st_mode & 0o777) == "0o600"
    ids = {}
    for name, key in (("acme", KEYS["full"]), ("other", KEYS["noswitch"])):
        with Client(key, base_url=sandbox.base_url) as client:
            ids[name] = campaigns(client, refresh="full")["id"].tolist()
        listed = json.loads(_ok(["--profile", name, "campaigns", "list", "--json"]))
        assert [row["id"] for row in listed] == ids[name]
    assert ids["acme"] != ids["other"]
    monkeypatch.setenv("DIALKIT_PROFILE", "other")
    with Client() as client:
        assert "…0009" in repr(client) and KEYS["noswitch"] not in repr(client)
    assert [r["id"] for r in json.loads(_ok(["campaigns", "list", "--json"]))] == ids["other"]


def test_profiles_add_asks_for_the_key_and_list_masks_it(sandbox: Sandbox,
                                                         _own_config: Path) -> None:
    said = _ok(["profiles", "add", "acme", "--base-url", sandbox.base_url],
               input=KEYS["full"] + "\n")
    assert KEYS["full"] not in said and "…0001" in said
    assert profiles()["acme"].api_key == KEYS["full"]
    assert oct(_own_config.stat().st_mode & 0o777) == "0o600"
    listed = _ok(["profiles", "list", "--json"])
    assert json.loads(listed) == [{"profile": "acme", "base_url": sandbox.base_url,
                                   "api_key": "…0001"}]
    assert "--api-key" not in _ok(["profiles", "add", "-h"])


def test_a_missing_profile_or_a_file_others_may_read_is_refused(sandbox: Sandbox,
                                                                _own_config: Path) -> None:
    save_profile("acme", base_url=sandbox.base_url, api_key=KEYS["full"])
    result = runner.invoke(app, ["--profile", "nope", "campaigns", "list"])
    assert result.exit_code == 2
    assert "no profile 'nope'" in result.output and "profiles there: acme" in result.output
    _own_config.chmod(0o644)
    result = runner.invoke(app, ["--profile", "acme", "campaigns", "list"])
    assert result.exit_code == 2 and f"chmod 600 {_own_config}" in result.output
    assert KEYS["full"] not in result.output
    _own_config.write_text("[profiles.acme]\nbase_url = 3\n")
    _own_config.chmod(0o600)
    with pytest.raises(ValueError, match="profile 'acme' takes only the texts"):
        profiles()
    _own_config.write_text("[profiles.acme\n")
    with pytest.raises(ValueError, match="is not valid TOML"):
        Client(profile="acme")


def test_a_profile_may_name_the_variable_that_holds_its_key(
        sandbox: Sandbox, _own_config: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _own_config.parent.mkdir(parents=True)
    _own_config.write_text(f'[profiles.ci]\nbase_url = "{sandbox.base_url}"\n'
                           'api_key_env = "ACME_DIALER_KEY"\n')
    _own_config.chmod(0o644)  # no key in it: others may read it
    monkeypatch.setenv("ACME_DIALER_KEY", KEYS["full"])
    with Client(profile="ci") as client:
        assert client.base_url == sandbox.base_url.rstrip("/")
        assert next(client.campaigns.list()).id.startswith("cmp_")
    save_profile("acme", base_url=sandbox.base_url, api_key=KEYS["other"])
    assert "ACME_DIALER_KEY" in _own_config.read_text()  # kept as written, not the key
    assert KEYS["full"] not in _own_config.read_text()


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16"])
def test_a_config_file_saved_by_an_editor_reads_as_written(
        sandbox: Sandbox, _own_config: Path, monkeypatch: pytest.MonkeyPatch,
        encoding: str) -> None:
    """Notepad saves with a byte order mark, or as UTF-16 ("Unicode"): the profiles read
    as written (issue 78), not "not valid TOML"; a folder where the file should be is
    named so, never a raw ``[Errno 21]``."""
    _own_config.parent.mkdir(parents=True)
    _own_config.write_text(f'[profiles.ci]\nbase_url = "{sandbox.base_url}"\n'
                           'api_key_env = "ACME_DIALER_KEY"\n', encoding=encoding)
    monkeypatch.setenv("ACME_DIALER_KEY", KEYS["full"])
    assert profiles()["ci"].base_url == sandbox.base_url
    _own_config.unlink()
    _own_config.mkdir()
    with pytest.raises(ValueError, match=rf"^the config file {_own_config}: is a folder, "
                                         "where a file is wanted") as refused:
        profiles()
    assert "Errno" not in str(refused.value)
