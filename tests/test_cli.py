"""The command line: its reference in docs/cli.md matches --help, and the demo runs."""

from __future__ import annotations

import gc
import importlib
import re
import sys
import types
from importlib.metadata import version
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dialkit import Client, samples
from dialkit._utils._choices import AUDIT_INPUTS, SWITCH
from dialkit.cli import _imported, app
from dialkit.frames import cache_info

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
    assert documented == {(), ("demo",), ("sandbox", "serve"), ("cache", "info"),
                          ("cache", "clear"), ("leads", "clean"), ("leads", "import"),
                          ("compliance", "audit"), ("compliance", "upcoming"),
                          ("compliance", "when"), ("compliance", "watch"),
                          ("webhooks", "listen"), ("mcp", "serve"),
                          ("campaigns", "list"), ("samples",), ("profiles", "list"),
                          ("profiles", "add")}


@pytest.mark.parametrize("command", _documented_commands(), ids=" ".join)
def test_documented_options_are_the_real_ones(command: list[str]) -> None:
    result = runner.invoke(app, [*command, "--help"])
    assert result.exit_code == 0, result.output
    real = set(re.findall(r"(--[a-z][a-z-]+)", result.output)) - {"--help"}
    assert _documented_options(command) == real


def test_version_is_the_installed_packages() -> None:
    result = runner.invoke(app, ["--version"])
    assert (result.exit_code, result.output) == (0, f"dialkit {version('dialkit')}\n")


@pytest.mark.parametrize("command", [[], ["sandbox"], ["sandbox", "serve"], ["demo"],
                                     ["cache"], ["cache", "info"], ["cache", "clear"],
                                     ["leads"], ["leads", "clean"], ["leads", "import"],
                                     ["compliance"], ["compliance", "audit"],
                                     ["compliance", "watch"],
                                     ["campaigns"], ["campaigns", "list"], ["samples"],
                                     ["profiles"], ["profiles", "list"], ["profiles", "add"]],
                         ids=lambda c: " ".join(c) or "dialkit")
def test_help_names_values_and_says_what_each_option_does(command: list[str]) -> None:
    result = runner.invoke(app, [*command, "--help"])
    assert result.exit_code == 0, result.output
    assert not re.search(r"^  --[a-z-]+ <(?:bool|str|int|path)>", result.output, re.MULTILINE)
    options = re.findall(r"^  (?:-[a-z], )?(--[a-z-]+)(?: ([A-Z_=]+))?  +(\S.*)$",
                         result.output, re.MULTILINE)
    assert {name for name, _, _ in options} >= {"--help"}
    for name, value, text in options:
        assert text.strip(), name
        assert value or name in ("--help", "--version", "--yes", "--mask-pii", "--sandbox",
                                 "--raw-csv", "--importable", "--json", "--csv",
                                 "--screen", "--no-header",
                                 "--install-completion", "--show-completion", "--verbose",
                                 "--allow-remote", "--count-leads", "--allow-empty", "--follow",
                                 *(each.flag for each in AUDIT_INPUTS if each.kind == SWITCH)), \
            f"{name} has no value name"


def test_cache_info_and_clear_cover_every_service(tmp_path: Path) -> None:
    with Client.sandbox(db=tmp_path / "a.sqlite", cache_dir=tmp_path / "cache") as kept:
        kept.frames.campaigns(progress=False)
        kept.frames.calls(direction="inbound", progress=False)
        service = kept.service_identity
    with Client.sandbox(db=tmp_path / "b.sqlite", cache_dir=tmp_path / "cache") as other:
        other.frames.campaigns(progress=False)
    listed = runner.invoke(app, ["cache", "info", "--dir", str(tmp_path / "cache")])
    assert listed.exit_code == 0, listed.output
    assert listed.output.count("campaigns-") == 2 and service in listed.output
    assert "svc_" not in listed.output

    refused = runner.invoke(app, ["cache", "clear", "--dir", str(tmp_path / "cache")], input="n\n")
    assert refused.exit_code == 1 and len(cache_info(tmp_path / "cache")) == 3
    cleared = runner.invoke(app, ["cache", "clear", "--dir", str(tmp_path / "cache"), "--yes"])
    assert cleared.exit_code == 0 and "removed 3 cached frames" in cleared.output
    assert cache_info(tmp_path / "cache").empty and not list((tmp_path / "cache").iterdir())
    empty = runner.invoke(app, ["cache", "info", "--dir", str(tmp_path / "cache")])
    assert "no cached frames" in empty.output


@pytest.mark.parametrize(("typed", "meant"), [(["lead"], "leads"), (["sandbx"], "sandbox"),
                                              (["leads", "clen"], "clean")])
def test_a_mistyped_command_is_offered_the_right_one(typed: list[str], meant: str) -> None:
    result = runner.invoke(app, typed)
    assert result.exit_code == 2
    assert f"Did you mean '{meant}'?" in result.output


def test_samples_lists_the_packaged_files_and_copies_them(tmp_path: Path) -> None:
    listed = runner.invoke(app, ["samples"])
    assert listed.exit_code == 0, listed.output
    assert listed.output.splitlines() == samples.names() and "messy_us.csv" in listed.output
    copied = runner.invoke(app, ["samples", "--copy", str(tmp_path / "mine")])
    assert copied.exit_code == 0, copied.output
    written = [tmp_path / "mine" / name for name in samples.names()]
    assert copied.output.splitlines() == [str(path) for path in written]
    assert all(path.read_bytes() == samples.path(path.name).read_bytes() for path in written)


def test_samples_never_overwrite_a_different_file(tmp_path: Path) -> None:
    (tmp_path / "messy_us.csv").write_text("mine", encoding="utf-8")
    refused = runner.invoke(app, ["samples", "--copy", str(tmp_path)])
    assert refused.exit_code == 2 and refused.output.startswith("error: not copying the samples")
    assert (tmp_path / "messy_us.csv").read_text(encoding="utf-8") == "mine"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["messy_us.csv"]


def test_a_group_is_imported_then_frozen(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a command group's import made is frozen once the module is imported (not
    before), and only by its first import."""
    events = []

    def import_module(name: str) -> types.ModuleType:
        events.append("import")
        module = types.ModuleType(name)
        monkeypatch.setitem(sys.modules, name, module)
        return module

    monkeypatch.setattr(importlib, "import_module", import_module)
    monkeypatch.setattr(gc, "freeze", lambda: events.append("freeze"))
    first = _imported("dialkit.cli._no_such_group")
    assert _imported("dialkit.cli._no_such_group") is first
    assert events == ["import", "freeze"]
