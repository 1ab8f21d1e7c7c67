"""Shell completion offers the values an option takes, and answers a TAB without the
heavy imports (issue 48, item 15).

A TAB completed commands and options but no option's value, and took 0.9-2.7 s (4 s
after ``dialkit``) against 0.07 s for ``--help``: each one imported the command groups,
pandas, ``phonenumbers`` and typer's pydantic checks. The offers are read here from what
each command checks its value against, so a value added in one place only fails; the
speed is held by what a completion imports (a fresh process's ``sys.modules``), the
time itself is measured in ``benchmarks/bench_completion.py``.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from dialkit.cli import GROUPS, DemoScale, app
from dialkit.cli._compliance import FAIL_ON
from dialkit.cli._webhooks import SyncMode
from dialkit.compliance import POLICIES, PRESETS

runner = CliRunner()

HEAVY = {"pandas", "numpy", "pyarrow", "phonenumbers", "pydantic", "httpx", "uvicorn"}
"""What a TAB must not import: each costs 0.05-0.5 s, and a TAB runs the command anew."""


def _protocol(words: str) -> dict[str, str]:
    """The variables bash's completion function sets (typer's ``_DIALKIT_COMPLETE``
    protocol, as ``dialkit --install-completion`` installs it): the words so far, and
    the index of the one being completed (an empty one after a trailing space)."""
    index = len(words.split()) - (0 if words.endswith(" ") else 1)
    return {"_DIALKIT_COMPLETE": "complete_bash", "COMP_WORDS": words,
            "COMP_CWORD": str(index)}


def offered(words: str) -> list[str]:
    """What a TAB after ``words`` offers, asked in this process."""
    result = runner.invoke(app, [], env=_protocol(words), prog_name="dialkit")
    assert result.exit_code == 0, result.output
    return result.stdout.split()


@pytest.mark.parametrize(("words", "accepted"), [
    ("dialkit compliance audit --preset ", list(PRESETS)),
    ("dialkit compliance upcoming --preset ", list(PRESETS)),
    ("dialkit compliance when +14155550123 --preset ", list(PRESETS)),
    ("dialkit compliance audit --policy ", list(POLICIES)),
    ("dialkit compliance upcoming --policy ", list(POLICIES)),
    ("dialkit compliance when +14155550123 --policy ", list(POLICIES)),
    ("dialkit compliance audit --fail-on ", list(FAIL_ON)),
    ("dialkit compliance audit --fail-on law --fail-on ", list(FAIL_ON)),
    ("dialkit compliance watch --fail-on ", list(FAIL_ON)),
    ("dialkit compliance watch --preset ", list(PRESETS)),
    ("dialkit demo --scale ", [scale.value for scale in DemoScale]),
    ("dialkit webhooks listen --synchronous ", [mode.value for mode in SyncMode]),
], ids=lambda value: value.strip() if isinstance(value, str) else None)
def test_a_tab_after_an_option_offers_the_values_its_command_accepts(
        words: str, accepted: list[str]) -> None:
    assert offered(words) == accepted


@pytest.mark.parametrize(("words", "expected"), [
    ("dialkit compliance audit --preset us", ["us", "us-federal"]),
    ("dialkit compliance audit --fail-on r", ["risk"]),
    ("dialkit compliance audit --preset xx", []),
])
def test_a_started_value_is_completed_from_its_start(words: str, expected: list[str]) -> None:
    assert offered(words) == expected


@pytest.mark.parametrize("option", ["--preset", "--policy"])
def test_every_value_offered_is_taken_and_no_other(option: str) -> None:
    """``compliance upcoming`` reads its --preset and --policy before its --horizon: an
    offered value gets as far as the horizon, a value not offered is refused by name."""
    for value in offered(f"dialkit compliance upcoming {option} "):
        result = runner.invoke(app, ["compliance", "upcoming", option, value,
                                     "--horizon", "7"])
        assert result.exit_code == 2
        assert "--horizon '7'" in result.stderr, (value, result.stderr)
    refused = runner.invoke(app, ["compliance", "upcoming", option, "xx", "--horizon", "7"])
    assert refused.exit_code == 2
    assert f"{option} 'xx': pass one of" in refused.stderr


TABS = ["dialkit ", "dialkit compliance ", "dialkit compliance audit --preset ",
        "dialkit compliance audit --", "dialkit compliance when +14155550123 --",
        "dialkit compliance watch --",
        "dialkit leads clean --", "dialkit leads import leads.csv --campaign cmp_1 --",
        "dialkit campaigns list --", "dialkit cache info --", "dialkit profiles add --",
        "dialkit samples --", "dialkit webhooks listen --synchronous ", "dialkit mcp serve --",
        "dialkit sandbox serve --", "dialkit demo --scale "]
"""A TAB in each command group, after an option's name and after a command's."""

PROBE = """
import contextlib, io, json, os, sys
from dialkit.cli import main
found, tabs, sys.argv = {}, json.loads(sys.argv[1]), ["dialkit"]
for words, variables in tabs:
    os.environ.update(variables)
    before, out = set(sys.modules), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
        main()
    found[words] = [out.getvalue().split(), sorted(set(sys.modules) - before)]
print(json.dumps(found))
"""
"""The ``dialkit`` command asked each TAB in turn, in one fresh interpreter: what each
offered and the modules it imported."""


def tabs_in_a_fresh_process(tabs: list[str]) -> dict[str, tuple[list[str], set[str]]]:
    """Each TAB of ``tabs`` as bash asks it: what it offers, and the modules it imported
    beyond those of the TABs before it (a fresh process each would take 15 times as
    long, and import the same)."""
    asked = json.dumps([(words, _protocol(words)) for words in tabs])
    done = subprocess.run([sys.executable, "-c", PROBE, asked], capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    return {words: (offers, set(modules)) for words, (offers, modules) in found.items()}


def test_no_tab_imports_a_heavy_module() -> None:
    found = tabs_in_a_fresh_process(TABS)
    assert [words for words, (offers, _) in found.items() if not offers] == []
    assert {words: modules & HEAVY for words, (_, modules) in found.items()
            if modules & HEAVY} == {}


def test_a_tab_after_dialkit_imports_no_command_group() -> None:
    offers, modules = tabs_in_a_fresh_process(["dialkit "])["dialkit "]
    assert offers == ["demo", *GROUPS]
    assert modules & {group.module for group in GROUPS.values()} == set()
