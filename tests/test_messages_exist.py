"""Messages name what exists (issue 78, item 5).

The audit's refusals of ``contracts=``, ``consents=`` and ``reassigned=`` told users to
pass ``client.frames.contracts``, ``.consents`` and ``.reassigned``, which do not exist:
an f-string built the name from the input's. Here every string of the source (each
literal, and each f-string with its placeholders as ``{}``) is read with ``ast``, and
every piece of advice it gives is gathered and looked up where it must exist:

| kind | said | exists when |
|---|---|---|
| client | ``client.frames.calls()``, ``Client.sandbox()`` | each attribute, on a client |
| module | ``dialkit.compliance.audit``, ``dialkit.cli._*`` | importable, or a logger's name |
| command | ``dialkit leads clean --out`` | a command of the CLI, with its options |
| flag | ``--fail-on`` | an option of some command (or another program's, named) |
| extra | ``pip install 'dialkit[sandbox]'`` | in pyproject.toml's optional-dependencies |
| doc | ``docs/frames.md`` | the file is there |
| variable | ``DIALKIT_CACHE_DIR``, ``DIALKIT_MAX_*`` | dialkit reads it |

Advice with a placeholder in it (``client.frames.{name}``) cannot be looked up as it
stands: it is written whole, or :data:`EXPANSIONS` says the values its placeholder takes.
The refusals that name where a frame comes from are also made, and what they say is
looked up as it is said.
"""

from __future__ import annotations

import ast
import functools
import importlib
import pkgutil
import re
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pandas as pd
import pytest
import typer.main
from typer.testing import CliRunner

import dialkit
from dialkit import analytics, compliance
from dialkit._utils import _extras
from dialkit._utils._choices import AUDIT_INPUTS, FRAME, RECORDS
from dialkit.cli import app

SRC = Path(dialkit.__file__).parent
ROOT = SRC.parents[1]
HOLE = "{}"
"""What a placeholder of an f-string reads as here."""
KINDS = ("client", "module", "command", "flag", "extra", "doc", "variable")
PATTERNS = {kind: re.compile(pattern) for kind, pattern in {
    # a client's attributes (Client's, the class's), not a module's (dialkit.client.X),
    # a file's (docs/client.md) or another object's (self.client, distributed.Client)
    "client": r"(?<![\w./])[Cc]lient(?:\.[A-Za-z_]\w*)+(?:\.\{\})?",
    "module": r"(?<![\w./-])dialkit(?:\.[A-Za-z_]\w*)+(?:\.\{\}|\*)?",
    # `dialkit ...` quoted or after "run", or unquoted when a command follows (else it is
    # prose: "dialkit writes"); options after a command are its own
    "command": r"(?P<lead>[`'\"]|\brun |\$ )?(?<![\w./\[-])dialkit(?P<words>(?: (?:--)?[a-z]"
               r"[\w|-]*)+)",
    "flag": r"(?<![\w-])--(?:[a-z][\w-]*(?:\{\})?|\{\})",
    "extra": r"(?<![\w./-])dialkit\[[^\]]*\]",
    "doc": r"(?<![\w/])docs/[\w/{}-]+(?:\.\w+)+",
    "variable": r"(?<!\w)\$?DIALKIT_[A-Z0-9_]*(?:\{\}|\*)?",
}.items()}
OTHER_PROGRAMS = {
    "--execute": "jupyter nbconvert's (analytics/_plots/_explore.py)",
    "--tricks": "benchmarks/bench_normalize.py's, a script of the repository",
    "--timeout-request-start": "uvicorn's, named as the setting it never made (_utils/_net.py)",
}
"""Flags the messages name of programs other than dialkit, and whose they are."""
EXPANSIONS: dict[tuple[str, str], Callable[[], list[str]]] = {
    # needs(extra) reads PACKAGES[extra]: no other extra can be named
    ("extra", "dialkit[{}]"): lambda: sorted(_extras.PACKAGES),
}
"""The advice built at run time, by kind and as the source says it, and the values its
placeholder can take."""
MINIMUM = {"client": 20, "module": 80, "command": 12, "flag": 35, "extra": 2, "doc": 5,
           "variable": 10}
"""About half of what each kind's gathering found at issue 78 (42, 164, 26, 71, 3, 10, 19):
a gathering broken so that it finds nothing, or little, fails."""
EXAMPLES = {"client": "client.frames.sms_reports", "module": "dialkit.compliance.audit",
            "command": "dialkit compliance audit", "flag": "--fail-on",
            "extra": "dialkit[sandbox]", "doc": "docs/frames.md", "variable": "DIALKIT_API_KEY"}
"""Of each kind, a piece of advice the source gives that the gathering must find."""


class Advice(NamedTuple):
    """One piece of advice: its kind and what it says."""

    kind: str
    said: str


def texts_of(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """Every string of ``tree`` with its line: each literal (implicit concatenation is one),
    and each f-string whole, its placeholders as :data:`HOLE`."""
    parts = {id(part) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr)
             for part in ast.walk(node) if part is not node}
    for node in ast.walk(tree):
        if id(node) in parts:
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.lineno, node.value
        elif isinstance(node, ast.JoinedStr):
            yield node.lineno, "".join(part.value if isinstance(part, ast.Constant) else HOLE
                                       for part in node.values)


def advice_in(text: str) -> list[Advice]:
    """Every piece of advice ``text`` gives, by kind."""
    found = [Advice(kind, match[0].removeprefix("$")) for kind in KINDS if kind != "command"
             for match in PATTERNS[kind].finditer(text)
             if kind != "module" or " " in text.strip()]  # a name alone: a logger's, a key
    for match in PATTERNS["command"].finditer(text):
        words = match["words"].split()
        if match["lead"] or words[0].startswith("--") or words[0] in top_commands():
            found.append(Advice("command", f"dialkit {' '.join(words)}"))
    return found


@functools.cache
def gathered() -> dict[Advice, list[str]]:
    """Every piece of advice the source gives, with where (module and line) it says it."""
    where: dict[Advice, list[str]] = {}
    for path in sorted(SRC.rglob("*.py")):
        for line, text in texts_of(ast.parse(path.read_text(encoding="utf-8"))):
            for advice in advice_in(text):
                where.setdefault(advice, []).append(f"{path.relative_to(SRC)}:{line}")
    return where


def told(kind: str) -> list[str]:
    """What the source says of ``kind``, written whole, each once."""
    return sorted({advice.said for advice in gathered() if advice.kind == kind
                   and HOLE not in advice.said})


def built() -> list[Advice]:
    """The advice the source builds at run time (a placeholder in it)."""
    return sorted(advice for advice in gathered() if HOLE in advice.said)


def expanded() -> list[Advice]:
    """Each piece of advice built at run time, over each value :data:`EXPANSIONS` gives."""
    return [Advice(kind, said.replace(HOLE, value))
            for (kind, said), values in EXPANSIONS.items() for value in values()]


def where(advice: Advice) -> str:
    return ", ".join(gathered().get(advice, ["(made here)"]))


# What exists


# The commands are click's classes, which typer keeps private (typer._click from 0.26
# on): they are read by their attributes here, as dialkit.cli reads them.
Command = Any


def context(command: Command) -> Any:
    return command.context_class(command)


def is_group(command: Command) -> bool:
    return hasattr(command, "commands")


@functools.cache
def top_commands() -> frozenset[str]:
    """The commands of ``dialkit`` itself, listed without loading a group."""
    root = typer.main.get_command(app)
    return frozenset(root.list_commands(context(root)))


@functools.cache
def commands() -> Command:
    """The ``dialkit`` command, each group loaded."""
    root = typer.main.get_command(app)
    for name in top_commands():
        root.get_command(context(root), name)
    return root


def options_of(command: Command) -> dict[str, Any]:
    """The options of ``command`` by each of their flags, ``--help`` too."""
    return {flag: param for param in command.get_params(context(command))
            if param.param_type_name == "option" for flag in param.opts + param.secondary_opts}


def every_command() -> Iterator[Command]:
    pending: list[Command] = [commands()]
    while pending:
        command = pending.pop()
        yield command
        if is_group(command):
            pending += command.commands.values()


@functools.cache
def every_flag() -> frozenset[str]:
    return frozenset(flag for command in every_command() for flag in options_of(command))


@functools.cache
def loggers() -> frozenset[str]:
    """The loggers' names the source gives: ``getLogger("dialkit.client.guard")``, and the
    constants named ``*LOGGER``."""
    names = set()
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(
                    node.func, "id", None)) == "getLogger" and node.args:
                value = node.args[0]
            elif isinstance(node, ast.Assign) and any(
                    isinstance(target, ast.Name) and target.id.endswith("LOGGER")
                    for target in node.targets):
                value = node.value
            else:
                continue
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                names.add(value.value)
    return frozenset(names)


@functools.cache
def whole_constants() -> frozenset[str]:
    """Every string of the source that is one name alone (``"DIALKIT_CACHE_DIR"``): how
    the code that reads a variable names it (``os.environ.get``, ``envvar=``)."""
    return frozenset(text for path in SRC.rglob("*.py")
                     for _, text in texts_of(ast.parse(path.read_text(encoding="utf-8")))
                     if re.fullmatch(r"[\w.]+", text))


def missing_attribute(said: str, client: dialkit.Client) -> str | None:
    """Why ``client.a.b`` (or ``Client.a.b``) does not resolve, attribute by attribute on
    a client (a method's call, ``()``, ends what can be looked up); None when it does."""
    found: Any = client
    for name in said.split(".")[1:]:
        if not hasattr(found, name):
            return f"{type(found).__name__} has no attribute {name}"
        found = getattr(found, name)
    return None


def missing_module(said: str) -> str | None:
    """Why ``dialkit.a.b`` names nothing: neither importable nor an attribute of what is,
    nor a logger's name; ``dialkit.cli._*`` names some module of ``dialkit.cli``."""
    if said in loggers():
        return None
    path, wildcard = said.removesuffix("*"), said.endswith("*")
    parts = path.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        rest = parts[cut:]
        for at, name in enumerate(rest):
            if wildcard and at == len(rest) - 1:
                within = {each.name for each in pkgutil.iter_modules(
                    getattr(found, "__path__", []))} | set(dir(found))
                return None if any(each.startswith(name) for each in within) else (
                    f"nothing of {found.__name__} starts with {name}")
            if not hasattr(found, name):
                return f"{getattr(found, '__name__', found)!s} has no {name}"
            found = getattr(found, name)
        return None
    return "not importable"


def missing_command(said: str) -> str | None:
    """Why ``dialkit group command --option`` is no command line of the CLI: each word a
    command of the group before it, each ``--option`` one of its command (or of a group
    above it), until a word of neither (an argument); None when it is."""
    words = said.split()[1:]
    path = [commands()]
    skip = False
    for word in words:
        if skip:
            skip = False
        elif word.startswith("--"):
            option = next((options_of(each)[word] for each in reversed(path)
                           if word in options_of(each)), None)
            if option is None:
                return f"{' '.join(c.name or 'dialkit' for c in path)} has no option {word}"
            skip = not option.is_flag and option.nargs > 0
        elif is_group(path[-1]):
            unknown = [name for name in word.split("|") if name not in path[-1].commands]
            if unknown:
                return f"{path[-1].name or 'dialkit'} has no command {', '.join(unknown)}"
            path.append(path[-1].commands[word.split("|")[0]])
        else:
            break  # an argument
    return None


def unknown_flag(said: str) -> str | None:
    if said in every_flag() or said in OTHER_PROGRAMS:
        return None
    return "no command has this option (nor is it another program's, OTHER_PROGRAMS)"


def unknown_extra(said: str) -> str | None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))[
        "project"]["optional-dependencies"]
    unknown = [name for name in said.removeprefix("dialkit[").removesuffix("]").split(",")
               if name.strip() not in extras]
    return f"pyproject.toml has no extra {', '.join(unknown)}" if unknown else None


def missing_doc(said: str) -> str | None:
    return None if (ROOT / said).is_file() else "no such file"


def unread_variable(said: str) -> str | None:
    name = said.removesuffix("*")
    read = [each for each in whole_constants() if each == name
            or said.endswith("*") and each.startswith(name)]
    return None if read else "no code of dialkit reads it"


def missing(advice: Advice, client: dialkit.Client) -> str | None:
    """Why ``advice`` names nothing that exists; None when what it names exists."""
    if advice.kind == "client":
        return missing_attribute(advice.said, client)
    check: dict[str, Callable[[str], str | None]] = {
        "module": missing_module, "command": missing_command, "flag": unknown_flag,
        "extra": unknown_extra, "doc": missing_doc, "variable": unread_variable}
    return check[advice.kind](advice.said)


@pytest.fixture(scope="module")
def client() -> Iterator[dialkit.Client]:
    """A client of an emulator: the attributes are looked up on it (``frames`` is made
    when first looked up, as a user's is)."""
    with dialkit.Client.sandbox() as made:
        yield made


def failed(advice: Advice, client: dialkit.Client) -> str:
    return f"{advice.said} ({where(advice)}): {missing(advice, client)}"


@pytest.mark.parametrize(("kind", "said"), [(kind, said) for kind in KINDS
                                             for said in told(kind)],
                         ids=lambda value: value)
def test_each_piece_of_advice_a_message_gives_exists(kind: str, said: str,
                                                     client: dialkit.Client) -> None:
    """Each attribute of a client, name of dialkit, command, option, extra, page and
    variable a message tells a user to use."""
    advice = Advice(kind, said)
    assert missing(advice, client) is None, failed(advice, client)


@pytest.mark.parametrize("kind", KINDS)
def test_the_gathering_finds_each_kind(kind: str) -> None:
    assert len(told(kind)) >= MINIMUM[kind], told(kind)
    assert EXAMPLES[kind] in told(kind)


def test_advice_built_at_run_time_says_what_values_it_takes() -> None:
    unexpanded = [f"{said} ({where(Advice(kind, said))})" for kind, said in built()
                  if (kind, said) not in EXPANSIONS]
    assert not unexpanded, ("write the advice whole (a table of the names, as "
                            "analytics' SOURCES), or add it to EXPANSIONS", unexpanded)
    assert set(EXPANSIONS) <= set(built())  # an expansion of advice no longer said goes


@pytest.mark.parametrize("advice", expanded(), ids=lambda advice: advice.said)
def test_each_value_of_advice_built_at_run_time_exists(advice: Advice,
                                                       client: dialkit.Client) -> None:
    assert missing(advice, client) is None, failed(advice, client)


PLANTED = ("pass client.frames.contracts, dialkit.compliance.contracts or "
           "dialkit.cli._nothing*; run `dialkit contracts`, `dialkit leads contract` or "
           "`dialkit leads clean --contract`, or --contract-file; pip install "
           "'dialkit[contracts]'; see docs/contracts.md; set DIALKIT_CONTRACTS or "
           "DIALKIT_CONTRACT_*")
"""A message that names, of each kind, what does not exist."""


def test_a_planted_message_naming_what_does_not_exist_is_caught(
        client: dialkit.Client) -> None:
    found = advice_in(PLANTED)
    assert {advice.kind for advice in found} == set(KINDS)
    assert len(found) == 12, found
    assert [advice for advice in found if missing(advice, client) is None] == []


def test_a_planted_message_naming_what_exists_passes(client: dialkit.Client) -> None:
    found = advice_in("pass client.frames.calls() or Client.sandbox(), see "
                      "dialkit.compliance.audit and dialkit.cli._*, run `dialkit --profile "
                      "acme leads clean --out FILE` or `dialkit cache info|clear`, "
                      "pip install 'dialkit[dask,sandbox]', docs/frames.md, $DIALKIT_MAX_*")
    assert len(found) == 11, found
    assert [failed(advice, client) for advice in found if missing(advice, client)] == []


def test_a_placeholder_in_advice_is_gathered_as_built() -> None:
    tree = ast.parse('f"pass client.frames.{name} or pip install \'dialkit[{extra}]\'"')
    said = [advice_in(text) for _, text in texts_of(tree)]
    assert said == [[Advice("client", "client.frames.{}"), Advice("extra", "dialkit[{}]")]]
    assert ("client", "client.frames.{}") not in EXPANSIONS


# The refusals that name where a frame comes from, made


CALLS = pd.DataFrame({
    "id": ["call_1"], "direction": "outbound", "from_number": "+14155550100",
    "to_number": "+12125550142", "created_at": pd.Timestamp("2026-06-01T15:00Z"),
    "answered_at": pd.NaT, "ended_at": pd.NaT, "disposition": None, "campaign_id": "cmp_1"})
LEADS = pd.DataFrame({"id": ["lead_1"], "campaign_id": "cmp_1", "phone": "+12125550142",
                      "status": "new"})
NOTHING = pd.DataFrame({"nothing": [1]})
"""A frame with none of the columns any input needs."""
INPUTS = {each.name: each for each in AUDIT_INPUTS if each.kind in (FRAME, RECORDS)}


def refused(run: Callable[[], object]) -> str:
    with pytest.raises(ValueError) as raised:
        run()
    return str(raised.value)


def assert_names_what_exists(message: str, client: dialkit.Client) -> None:
    found = advice_in(message)
    assert [failed(advice, client) for advice in found if missing(advice, client)] == [], (
        message)
    assert re.search(r"\(\w+(, \w+)*\)$", message), message  # the columns to give


@pytest.mark.parametrize("name", ["calls", *INPUTS])
def test_an_audit_input_without_its_columns_is_refused_naming_what_exists(
        name: str, client: dialkit.Client) -> None:
    given = {"calls": NOTHING} if name == "calls" else {"calls": CALLS, name: NOTHING}
    message = refused(lambda: compliance.audit(**given))
    assert message.startswith(f"{name} has no column"), message
    assert_names_what_exists(message, client)
    of_the_account = name == "calls" or INPUTS[name].kind == FRAME
    named = [advice for advice in advice_in(message) if advice.kind == "client"]
    assert bool(named) == of_the_account, message  # records: never a frame of client.frames
    if not of_the_account:
        assert INPUTS[name].hint in message or "declared emergency" in message, message


@pytest.mark.parametrize("name", ["leads", "callbacks"])
def test_upcoming_refuses_a_frame_without_a_status_naming_its_method(
        name: str, client: dialkit.Client) -> None:
    frames = {"calls": CALLS, "leads": LEADS,
              "callbacks": pd.DataFrame({"id": ["cb_1"], "lead_id": "lead_1",
                                         "campaign_id": "cmp_1", "status": "pending",
                                         "scheduled_at": pd.Timestamp("2026-06-02T15:00Z")})}
    frames[name] = frames[name].drop(columns="status")
    message = refused(lambda: compliance.upcoming(frames, as_of="2026-06-01T16:00Z"))
    named = [advice.said for advice in advice_in(message) if advice.kind == "client"]
    assert named == [f"client.frames.{name}"], message
    assert missing(Advice("client", named[0]), client) is None


@pytest.mark.parametrize("name", ["calls", "leads", "callbacks", "appointments"])
def test_the_analytics_refuse_a_frame_naming_its_method(name: str,
                                                       client: dialkit.Client) -> None:
    frames = {"leads": LEADS, "calls": CALLS, "callbacks": None, "appointments": None,
              name: NOTHING}
    message = refused(lambda: analytics.funnel(**frames))
    assert message.startswith(f"{name} has no column"), message
    named = [advice.said for advice in advice_in(message) if advice.kind == "client"]
    assert named == [f"client.frames.{name}"], message
    assert_names_what_exists(message, client)


runner = CliRunner()


@pytest.mark.parametrize("name", ["calls", *INPUTS])
def test_the_command_refuses_a_file_without_its_columns_in_its_flags(
        name: str, tmp_path: Path, client: dialkit.Client) -> None:
    calls, nothing = tmp_path / "calls.csv", tmp_path / "nothing.csv"
    CALLS.to_csv(calls, index=False)
    NOTHING.to_csv(nothing, index=False)
    given = ["--calls", nothing] if name == "calls" else [
        "--calls", calls, str(INPUTS[name].flag), nothing]
    result = runner.invoke(app, ["compliance", "audit", *map(str, given)])
    assert result.exit_code == 2, result.output
    message = result.output.strip().splitlines()[-1]
    assert f"{name} has no column" in message, message
    assert not [advice for advice in advice_in(message) if advice.kind == "client"], message
    assert "=" not in message, message  # no keyword of Python: the command's flags
    assert [failed(advice, client) for advice in advice_in(message)
            if missing(advice, client)] == [], message
