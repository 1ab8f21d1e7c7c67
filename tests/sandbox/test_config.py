"""The emulator's configuration file: every refusal names the field and the reason.

Each bad document is tried three ways (already-parsed data, a TOML file, and
``dialkit sandbox serve --config``) because a user meets the error through any
of them, and a message that only says "invalid" leaves them guessing.
"""

from __future__ import annotations

import codecs
import re
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dialkit.cli import app
from dialkit.contract import Scope, Switch
from dialkit.sandbox import ConfigError, ServerConfig, default_config, load_config, parse_config

KEY = "svc_test_cfgkey0001_AAAAbbbbCCCCddddEEEEffff0001"
OTHER = "svc_test_cfgkey0002_AAAAbbbbCCCCddddEEEEffff0002"

GOOD = f"""
[server]
rate_limit_scale = 0.5
clock = "manual"
start_time = 2026-11-02T15:00:00Z

[[accounts]]
name = "acme"
switches = ["tier2_campaign_resume_enabled"]
ip_allow_list = ["127.0.0.0/8", "::1/128"]

[[accounts.clients]]
name = "crm"
scopes = ["campaigns:read", "campaigns:pause"]
ip_allow_list = ["10.0.0.0/8"]
keys = [{{ key = "{KEY}" }}]
"""

CLIENT = f'[[accounts.clients]]\nname = "c"\nkeys = [{{ key = "{KEY}" }}]\n'

BAD = [
    ("bad key format",
     '[[accounts]]\nname = "a"\n[[accounts.clients]]\nname = "c"\nkeys = [{ key = "svc_test_x" }]',
     "accounts[0].clients[0].keys[0].key", "pattern"),
    ("unknown server field", '[server]\ncolour = 1\n[[accounts]]\nname = "a"',
     "server.colour", "not permitted"),
    ("unknown account field", '[[accounts]]\nname = "a"\ncolour = 1',
     "accounts[0].colour", "not permitted"),
    ("unknown key field",
     f'[[accounts]]\nname = "a"\n[[accounts.clients]]\nname = "c"\n'
     f'keys = [{{ key = "{KEY}", colour = 1 }}]',
     "accounts[0].clients[0].keys[0].colour", "not permitted"),
    ("duplicate client name", f'[[accounts]]\nname = "a"\n{CLIENT}{CLIENT.replace(KEY, OTHER)}',
     "accounts[0].clients[1].name", "duplicate client name"),
    ("duplicate account name", '[[accounts]]\nname = "a"\n[[accounts]]\nname = "a"',
     "accounts[1].name", "duplicate account name"),
    ("duplicate credential id",
     f'[[accounts]]\nname = "a"\n{CLIENT}[[accounts]]\nname = "b"\n{CLIENT}',
     "accounts[1].clients[0].keys[0].key", "credential id"),
    ("bad account CIDR", '[[accounts]]\nname = "a"\nip_allow_list = ["10.0.0.0/33"]',
     "accounts[0].ip_allow_list[0]", "network"),
    ("bad client CIDR",
     '[[accounts]]\nname = "a"\n[[accounts.clients]]\nname = "c"\nip_allow_list = ["nope"]',
     "accounts[0].clients[0].ip_allow_list[0]", "network"),
    ("negative rate limit scale", '[server]\nrate_limit_scale = -1\n[[accounts]]\nname = "a"',
     "server.rate_limit_scale", "greater than or equal to 0"),
    ("rate limit scale not a number",
     '[server]\nrate_limit_scale = "fast"\n[[accounts]]\nname = "a"',
     "server.rate_limit_scale", "number"),
    ("bad world scale", '[[accounts]]\nname = "a"\nscale = "huge"',
     "accounts[0].scale", "'small', 'medium' or 'large'"),
    ("bad switch name", '[[accounts]]\nname = "a"\nswitches = ["tier2_everything"]',
     "accounts[0].switches[0]", Switch.TIER2_CAMPAIGN_RESUME_ENABLED.value),
    ("bad scope name",
     '[[accounts]]\nname = "a"\n[[accounts.clients]]\nname = "c"\nscopes = ["campaigns:all"]',
     "accounts[0].clients[0].scopes[0]", Scope.CAMPAIGNS_PAUSE.value),
    ("bad account name", '[[accounts]]\nname = "Acme Corp"', "accounts[0].name", "pattern"),
    ("no account", "accounts = []", "accounts", "at least 1"),
    ("start time without zone", '[server]\nstart_time = 2026-11-02T15:00:00\n[[accounts]]\n'
     'name = "a"', "server.start_time", "timezone"),
    ("bad clock", '[server]\nclock = "fast"\n[[accounts]]\nname = "a"',
     "server.clock", "'real' or 'manual'"),
]
"""(case, TOML document, the field path the message must name, words of the reason)."""

CASES = pytest.mark.parametrize(("document", "field", "reason"),
                                [case[1:] for case in BAD], ids=[case[0] for case in BAD])


def assert_names(message: str, field: str, reason: str) -> None:
    """The message has a line ``<field>: <reason>`` and shows no API key."""
    line = re.compile(rf"(^|\s){re.escape(field)}: .*{re.escape(reason)}", re.MULTILINE)
    assert line.search(message), message
    assert "svc_test_" not in message and "svc_live_" not in message


@CASES
def test_parse_config_names_field_and_reason(document: str, field: str, reason: str) -> None:
    with pytest.raises(ConfigError) as raised:
        parse_config(tomllib.loads(document))
    assert_names(str(raised.value), field, reason)


@CASES
def test_load_config_names_file_field_and_reason(tmp_path: Path, document: str, field: str,
                                                 reason: str) -> None:
    path = tmp_path / "sandbox.toml"
    path.write_text(document, encoding="utf-8")
    with pytest.raises(ConfigError) as raised:
        load_config(path)
    assert str(path) in str(raised.value)
    assert_names(str(raised.value), field, reason)


@CASES
def test_cli_refuses_bad_config(tmp_path: Path, document: str, field: str, reason: str) -> None:
    path = tmp_path / "sandbox.toml"
    path.write_text(document, encoding="utf-8")
    result = CliRunner().invoke(app, ["sandbox", "serve", "--port", "0", "--config", str(path)])
    assert result.exit_code != 0
    assert "listening on" not in result.stdout
    assert_names(result.stderr, field, reason)


def test_toml_syntax_error_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text('[[accounts]]\nname = "a\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"not valid TOML.*line 2") as raised:
        load_config(path)
    assert str(path) in str(raised.value)


def test_cli_refuses_toml_syntax_error(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text("[server\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["sandbox", "serve", "--port", "0", "--config", str(path)])
    assert result.exit_code != 0
    assert "not valid TOML" in result.stderr and str(path) in result.stderr


def test_missing_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"absent\.toml: there is no such file: check the "
                                          r"path$"):
        load_config(tmp_path / "absent.toml")


@pytest.mark.parametrize(("bom", "encoding"), [(codecs.BOM_UTF8, "utf-8"),
                                               (codecs.BOM_UTF16_LE, "utf-16-le")],
                         ids=["utf-8 with a byte order mark", "utf-16"])
def test_a_config_saved_by_an_editor_reads_as_written(tmp_path: Path, bom: bytes,
                                                      encoding: str) -> None:
    """Notepad saved UTF-8 with a byte order mark, which TOML refuses at line 1 (issue 78)."""
    plain, saved = tmp_path / "plain.toml", tmp_path / "saved.toml"
    plain.write_text(GOOD, encoding="utf-8")
    saved.write_bytes(bom + GOOD.encode(encoding))
    assert load_config(saved) == load_config(plain)


def test_good_config_is_read_with_its_values(tmp_path: Path) -> None:
    path = tmp_path / "good.toml"
    path.write_text(GOOD, encoding="utf-8")
    config = load_config(path)
    assert config.server.rate_limit_scale == 0.5 and config.server.clock == "manual"
    account = config.accounts[0]
    assert [str(n) for n in account.ip_allow_list] == ["127.0.0.0/8", "::1/128"]
    assert account.switches == [Switch.TIER2_CAMPAIGN_RESUME_ENABLED]
    client = account.clients[0]
    assert client.scopes == [Scope.CAMPAIGNS_READ, Scope.CAMPAIGNS_PAUSE]
    assert client.keys[0].key == KEY and client.keys[0].is_test
    assert client.keys[0].credential_id == "cfgkey0001"


def test_omitted_fields_take_documented_defaults() -> None:
    config = parse_config({"accounts": [{"name": "a"}]})
    assert config.server.rate_limit_scale == 1.0 and config.server.clock == "real"
    account = config.accounts[0]
    assert account.sandbox_enabled and account.api_access_enabled and account.switches == []
    assert account.clients == [] and account.ip_allow_list == []


def test_default_config_holds_every_scope_and_switch() -> None:
    config = default_config()
    account = config.accounts[0]
    assert set(account.switches) == set(Switch)
    client = account.clients[0]
    assert set(client.scopes) == set(Scope)
    assert [k.sending for k in client.keys] == [False, True]
    assert all(k.is_test for k in client.keys)
    assert default_config().accounts[0].clients[0].keys[0].key != client.keys[0].key
    assert config.server == ServerConfig()


def test_default_config_takes_the_server_tables_settings() -> None:
    server = default_config(clock="manual", allow_loopback_webhooks=True,
                            rate_limit_scale=0).server
    assert (server.clock, server.allow_loopback_webhooks, server.rate_limit_scale) == (
        "manual", True, 0)
