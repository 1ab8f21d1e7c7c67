"""The user's mistakes are told as the user's, never as dialkit's bug (issue 72, item 1).

Issue 61 split dialkit's bugs (exit 70, "internal error", a traceback in a file) from bad
input (exit 2, ``error: ...``). A port past 65535, a ``DIALKIT_PROGRESS_SECONDS`` that is
no number, a ``DIALKIT_CACHE_DIR`` that names a file, a horizon or a time pandas cannot
hold still reached the user as dialkit's bug. Each runs here through the console script's
entry point (:func:`dialkit.cli.main`, so an exception no command answers is told as a
bug, exit 70, as the shell shows it): exit 2, a message naming the input and the way out,
no traceback, and nothing written.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import KEYS
from dialkit import Client
from dialkit.cli import main
from dialkit.sandbox import Sandbox

SAMPLES = Path(__file__).resolve().parents[1] / "data_samples"
PORT_REFUSED = "is no port: pass one from 0 to 65535 (0 picks a free one)"


def run(args: list[str], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> str:
    """``dialkit ARGS`` as the shell runs it: its standard error, once it is known that it
    ended with exit status 2 (bad input) and told no traceback."""
    monkeypatch.setattr(sys, "argv", ["dialkit", *args])
    with pytest.raises(SystemExit) as ended:
        main()
    err = capsys.readouterr().err
    assert ended.value.code == 2, err
    assert "Traceback" not in err and "internal error" not in err, err
    assert err.startswith("error: "), err
    return err


def nothing_in(folder: Path) -> bool:
    """Whether ``folder`` holds no file (folders made on the way are not data)."""
    return not folder.exists() or not any(p.is_file() for p in folder.rglob("*"))


def leads_of(client: Client, campaign_id: str) -> int:
    return sum(1 for _ in client.leads.list(campaign_id=campaign_id))


@pytest.fixture
def account(sandbox: Sandbox, monkeypatch: pytest.MonkeyPatch) -> Iterator[Sandbox]:
    """The session emulator's account, as the environment names it for a command."""
    monkeypatch.setenv("DIALKIT_API_KEY", KEYS["full"])
    monkeypatch.setenv("DIALKIT_BASE_URL", sandbox.base_url)
    yield sandbox


@pytest.fixture
def a_file(tmp_path: Path) -> Path:
    path = tmp_path / "notes.txt"
    path.write_text("not a folder\n", encoding="utf-8")
    return path


# --- ports -------------------------------------------------------------------------------

@pytest.mark.parametrize("port", ["70000", "-1", "65536"])
def test_sandbox_serve_refuses_a_port_out_of_range(port: str, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "world.sqlite"
    err = run(["sandbox", "serve", "--port", port, "--db", str(db)], monkeypatch, capsys)
    assert err == f"error: --port {port} {PORT_REFUSED}\n"
    assert not db.exists()


def test_webhooks_listen_refuses_a_port_out_of_range_before_its_store(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("DIALKIT_WEBHOOK_SECRETS", "whsec_0123456789abcdef0123")
    db = tmp_path / "events.sqlite"
    err = run(["webhooks", "listen", "--port", "70000", "--db", str(db)], monkeypatch, capsys)
    assert err == f"error: --port 70000 {PORT_REFUSED}\n"
    assert not db.exists()  # the store was made before the port was refused


def test_mcp_serve_refuses_a_port_out_of_range_before_asking_about_the_key(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("DIALKIT_API_KEY", KEYS["full"])
    monkeypatch.setenv("DIALKIT_BASE_URL", "http://127.0.0.1:9")  # nothing answers there
    log = tmp_path / "audit.jsonl"
    err = run(["mcp", "serve", "--http", "70000", "--audit-log", str(log)], monkeypatch, capsys)
    assert err == f"error: --http 70000 {PORT_REFUSED}\n"
    assert not log.exists()


# --- DIALKIT_PROGRESS_SECONDS ---------------------------------------------------------------

SECONDS_REFUSED = ("DIALKIT_PROGRESS_SECONDS={!r}: write the seconds between two progress "
                   "lines, a number such as 10, or unset it for 10")


@pytest.fixture
def progress_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    """Progress shown as log lines (no one watches a test's standard error)."""
    monkeypatch.delenv("DIALKIT_PROGRESS", raising=False)


@pytest.mark.parametrize("seconds", ["abc", "-1", "inf", "nan"])
def test_a_clean_refuses_progress_seconds_that_are_none(
        seconds: str, tmp_path: Path, progress_lines: None, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("DIALKIT_PROGRESS_SECONDS", seconds)
    out = tmp_path / "out" / "cleaned.csv"
    err = run(["leads", "clean", str(SAMPLES / "messy_us.csv"), "--out", str(out)],
              monkeypatch, capsys)
    assert err.startswith("error: " + SECONDS_REFUSED.format(seconds)), err
    assert nothing_in(tmp_path / "out")


def test_an_import_refuses_them_before_anything_is_sent_or_journaled(
        account: Sandbox, client: Client, tmp_path: Path, progress_lines: None,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("DIALKIT_PROGRESS_SECONDS", "abc")
    campaign = next(client.campaigns.list(status="paused"))
    before = leads_of(client, campaign.id)
    journal = tmp_path / "journals"
    err = run(["leads", "import", str(SAMPLES / "messy_us.csv"), "--campaign", campaign.id,
               "--journal", str(journal)], monkeypatch, capsys)
    assert err.startswith("error: " + SECONDS_REFUSED.format("abc")), err
    assert nothing_in(journal)
    assert leads_of(client, campaign.id) == before


@pytest.mark.parametrize("command", [["compliance", "audit"], ["compliance", "upcoming"]],
                         ids=" ".join)
def test_an_audit_refuses_them_before_a_page_is_cached(
        command: list[str], account: Sandbox, tmp_path: Path, progress_lines: None,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("DIALKIT_PROGRESS_SECONDS", "abc")
    monkeypatch.setenv("DIALKIT_CACHE_DIR", str(tmp_path / "cache"))
    findings = tmp_path / "findings.csv"
    err = run([*command, "--out", str(findings)], monkeypatch, capsys)
    assert err.startswith("error: " + SECONDS_REFUSED.format("abc")), err
    assert nothing_in(tmp_path / "cache") and not findings.exists()


# --- folders that are files -----------------------------------------------------------------

@pytest.mark.parametrize("command", [["compliance", "audit"], ["compliance", "upcoming"]],
                         ids=" ".join)
def test_a_cache_dir_that_names_a_file_is_refused_naming_it(
        command: list[str], account: Sandbox, a_file: Path, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("DIALKIT_CACHE_DIR", str(a_file))
    findings = tmp_path / "findings.csv"
    err = run([*command, "--out", str(findings)], monkeypatch, capsys)
    assert err.startswith(f"error: {a_file}: Not a directory: it is a file, where dialkit "
                          f"needs a folder to keep {a_file}/"), err
    assert err.endswith(": name a folder instead (it is made if missing), or move the file "
                        "away\n"), err
    assert a_file.read_text(encoding="utf-8") == "not a folder\n" and not findings.exists()


def test_an_import_journal_that_names_a_file_is_refused_naming_it(
        account: Sandbox, client: Client, a_file: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    campaign = next(client.campaigns.list(status="paused"))
    before = leads_of(client, campaign.id)
    err = run(["leads", "import", str(SAMPLES / "messy_us.csv"), "--campaign", campaign.id,
               "--journal", str(a_file)], monkeypatch, capsys)
    assert err.startswith(f"error: {a_file}: Not a directory: it is a file, where dialkit "
                          "needs a folder"), err
    assert leads_of(client, campaign.id) == before


def test_an_output_under_a_file_names_the_output_not_its_hidden_part(
        a_file: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    out = a_file / "cleaned.csv"
    err = run(["leads", "clean", str(SAMPLES / "messy_us.csv"), "--out", str(out)],
              monkeypatch, capsys)
    assert err == (f"error: {out}: not a directory, so it was not written: a part of its path "
                   "is a file, not a folder: name a path in a folder\n")  # was ….partial


# --- files that are not there, or are folders (issue 78) -------------------------------------

GONE = "there is no such file: check the path"
FOLDER = "is a folder, where a file is wanted: name a file in it"
GIVEN_FILES = {
    "audit --calls": ["compliance", "audit", "--calls", "GIVEN"],
    "audit --verified-caller-ids": ["compliance", "audit", "--calls", "CALLS",
                                    "--verified-caller-ids", "GIVEN"],
    "audit --consents": ["compliance", "audit", "--calls", "CALLS", "--consents", "GIVEN"],
    "sandbox serve --config": ["sandbox", "serve", "--port", "0", "--config", "GIVEN"],
}
"""A command for each of the ways a user's file is read, ``GIVEN`` the file at fault."""


@pytest.mark.parametrize(("command", "given", "said"), [
    *[(command, "gone.csv", GONE) for command in GIVEN_FILES.values()],
    (GIVEN_FILES["audit --verified-caller-ids"], "a_folder", FOLDER),
    (GIVEN_FILES["sandbox serve --config"], "a_folder", FOLDER),
], ids=[*(f"{name} missing" for name in GIVEN_FILES), "ids folder", "config folder"])
def test_a_file_that_cannot_be_opened_is_refused_naming_it(
        command: list[str], given: str, said: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 72 promised "there is no such file" where a file of caller ids said
    ``cannot be read ([Errno 2] No such file or directory: ...)``: one reader says it
    for every file a command reads."""
    calls = tmp_path / "calls.csv"
    calls.write_text("id,direction,from_number,to_number,created_at\ncall_1,outbound,"
                     "+14155550100,+12125550123,2026-11-24T15:00:00Z\n", encoding="utf-8")
    (tmp_path / "a_folder").mkdir()
    at = {"GIVEN": str(tmp_path / given), "CALLS": str(calls)}
    err = run([at.get(arg, arg) for arg in command], monkeypatch, capsys)
    assert err == f"error: {tmp_path / given}: {said}\n"


# --- times and lengths of time pandas cannot hold ------------------------------------------

HELD = "1677-09-21 00:12:43 to 2262-04-11 23:47:16 UTC"


@pytest.mark.parametrize(("args", "said"), [
    (["compliance", "when", "+14155550123", "--at", "0206-11-03T15:00Z"],
     f"--at '0206-11-03T15:00Z' is outside the times pandas holds, {HELD}: pass a time "
     "between them"),  # answered for another moment, exit 0, before issue 72
    (["compliance", "when", "+14155550123", "--at", "9999-11-03T15:00Z"],
     f"--at '9999-11-03T15:00Z' is outside the times pandas holds, {HELD}"),
    (["compliance", "when", "+14155550123", "--at", "0206-11-03 15:00", "--tz",
      "America/New_York"], "--at '0206-11-03 15:00' is outside the times pandas holds"),
    (["compliance", "audit", "--since", "0206-01-01"],
     "--since '0206-01-01' is outside the times pandas holds"),
    (["compliance", "audit", "--until", "9999-01-01"],
     "--until '9999-01-01' is outside the times pandas holds"),
    (["compliance", "upcoming", "--horizon", "99999999d"],
     "--horizon '99999999d' is longer than pandas holds, 106,751 days (about 292 years): "
     "pass a shorter length of time"),  # pandas' OutOfBoundsTimedelta, exit 70, before
], ids=["when-0206", "when-9999", "when-tz", "since", "until", "horizon"])
def test_a_time_pandas_cannot_hold_is_refused_not_wrapped(
        args: list[str], said: str, account: Sandbox, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("DIALKIT_CACHE_DIR", str(tmp_path / "cache"))
    err = run(args, monkeypatch, capsys)
    assert err.startswith(f"error: {said}"), err
    assert nothing_in(tmp_path / "cache")


def test_a_calls_file_holding_such_a_time_is_refused_naming_its_row(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    calls = tmp_path / "calls.csv"
    calls.write_text("id,direction,from_number,to_number,created_at,answered_at,ended_at,"
                     "campaign_id,disposition\ncall_1,outbound,+14155550100,+12125550123,"
                     "0206-11-02T15:00:00Z,,2026-11-02T15:00:30Z,cmp_1,\n", encoding="utf-8")
    findings = tmp_path / "findings.csv"
    err = run(["compliance", "audit", "--calls", str(calls), "--out", str(findings)],
              monkeypatch, capsys)
    assert err == (f"error: {calls}: calls.created_at holds '0206-11-02T15:00:00Z' at row 0, "
                   f"which is outside the times pandas holds, {HELD}: correct it (is its year "
                   "mistyped?)\n")
    assert not findings.exists()


# --- secrets --------------------------------------------------------------------------------

@pytest.mark.parametrize(("pasted", "said"), [
    ("\u200b", "a zero width space (U+200B) at character 18 of 47"),
    ("\u2013", "an en dash (U+2013) at character 18 of 47"),
], ids=["zero-width-space", "en-dash"])
def test_a_key_with_a_character_no_header_carries_is_refused_unshown(
        pasted: str, said: str, account: Sandbox, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    key = KEYS["full"][:17] + pasted + KEYS["full"][18:]
    monkeypatch.setenv("DIALKIT_API_KEY", key)
    monkeypatch.setenv("DIALKIT_CACHE_DIR", str(tmp_path / "cache"))
    err = run(["campaigns", "list"], monkeypatch, capsys)
    assert err.startswith(f"error: the API key '…{key[-4:]}' holds {said}, which no HTTP "
                          "header can carry: copy it again as plain text"), err
    assert key[:-4] not in err and KEYS["full"][8:-4] not in err  # the secret is not shown
    assert nothing_in(tmp_path / "cache")


def test_profiles_add_refuses_such_a_key_before_saving_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Saved, it would fail every command of the profile later."""
    config = tmp_path / "config.toml"
    monkeypatch.setenv("DIALKIT_CONFIG", str(config))
    monkeypatch.setattr(sys, "stdin", io.StringIO("svc_test_abc\u2013def_0123456789\n"))
    err = run(["profiles", "add", "acme", "--base-url", "https://api.example.com"],
              monkeypatch, capsys)
    assert err == ("error: the API key '…6789' holds an en dash (U+2013) at character 13 of "
                   "27, which no HTTP header can carry: copy it again as plain text, without "
                   "spaces, line breaks or typographic characters\n")
    assert not config.exists()


@pytest.mark.parametrize("how", ["option", "variable"])
def test_a_timeout_that_is_no_number_of_seconds_names_the_option(
        how: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """``--timeout inf`` passed click's range and was refused by the client as
    ``DIALKIT_TIMEOUT='inf'``, a variable the user never set."""
    if how == "variable":
        monkeypatch.setenv("DIALKIT_TIMEOUT", "inf")
    monkeypatch.setattr(sys, "argv", ["dialkit", *(["--timeout", "inf"] if how == "option"
                                                   else []), "campaigns", "list"])
    with pytest.raises(SystemExit) as ended:
        main()
    err = capsys.readouterr().err
    assert ended.value.code == 2 and "Traceback" not in err
    assert err.endswith("Error: Invalid value for '--timeout' (or DIALKIT_TIMEOUT): pass a "
                        "number of seconds, such as 300\n"), err


@pytest.mark.parametrize("seconds", ["inf", "nan"])
def test_webhooks_listen_refuses_a_request_timeout_that_is_no_limit(
        seconds: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """``inf`` passed click's ``min=0.1`` and left a slow sender's connection open for good."""
    monkeypatch.setenv("DIALKIT_WEBHOOK_SECRETS", "whsec_0123456789abcdef0123")
    db = tmp_path / "events.sqlite"
    monkeypatch.setattr(sys, "argv", ["dialkit", "webhooks", "listen", "--request-timeout",
                                      seconds, "--port", "0", "--db", str(db)])
    with pytest.raises(SystemExit) as ended:
        main()
    err = capsys.readouterr().err
    assert ended.value.code == 2 and "Traceback" not in err
    assert "Error: Invalid value for '--request-timeout': " in err
    assert not db.exists()
