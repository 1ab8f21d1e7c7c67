"""The command line: its reference in docs/cli.md matches --help, and the demo runs."""

from __future__ import annotations

import re
from importlib.metadata import version
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dialkit.cli import app

DOCS = Path(__file__).parents[1] / "docs" / "cli.md"
runner = CliRunner()


def _documented_commands() -> list[list[str]]:
    return [heading.split()[1:] for heading in
            re.findall(r"^## `(dialkit[^`]*)`", DOCS.read_text(), re.MULTILINE)]


def _documented_options(command: list[str]) -> set[str]:
    heading = " ".join(["dialkit", *command])
    section = DOCS.read_text().split(f"## `{heading}`\n")[1].split("\n## ")[0]
    return set(re.findall(r"^\| `(--[a-z-]+)`", section, re.MULTILINE))


def test_every_command_is_documented() -> None:
    documented = {tuple(c) for c in _documented_commands()}
    assert documented == {(), ("demo",), ("sandbox", "serve")}


@pytest.mark.parametrize("command", _documented_commands(), ids=" ".join)
def test_documented_options_are_the_real_ones(command: list[str]) -> None:
    result = runner.invoke(app, [*command, "--help"])
    assert result.exit_code == 0, result.output
    real = set(re.findall(r"(--[a-z][a-z-]+)", result.output)) - {"--help"}
    assert _documented_options(command) == real


def test_version_is_the_installed_packages() -> None:
    result = runner.invoke(app, ["--version"])
    assert (result.exit_code, result.output) == (0, f"dialkit {version('dialkit')}\n")


@pytest.mark.parametrize("command", [[], ["sandbox"], ["sandbox", "serve"], ["demo"]],
                         ids=lambda c: " ".join(c) or "dialkit")
def test_help_names_values_and_says_what_each_option_does(command: list[str]) -> None:
    result = runner.invoke(app, [*command, "--help"])
    assert result.exit_code == 0, result.output
    assert not re.search(r"<(?:bool|str|int|path)>", result.output)
    options = re.findall(r"^  (--[a-z-]+)(?: ([A-Z]+))?  +(\S.*)$", result.output, re.MULTILINE)
    assert {name for name, _, _ in options} >= {"--help"}
    for name, value, text in options:
        assert text.strip(), name
        assert value or name in ("--help", "--version"), f"{name} has no value name"


def test_demo_shows_the_emulator_answering() -> None:
    result = runner.invoke(app, ["demo"])
    assert result.exit_code == 0, result.output
    assert "client.me() -> account 'demo'" in result.output
    assert re.search(r"client.campaigns.list\(\) -> \d+ campaigns", result.output)
    assert len(re.findall(r"\+\d+ +\S+ +(?:not )?on DNC", result.output)) == 5
    assert "svc_" not in result.output
