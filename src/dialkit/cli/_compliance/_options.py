"""What the compliance commands share: an option of each input of the audit a command is
given, made from the input's one declaration; the options of the law, the policy and
another tool's words and headers; and the library's refusals and notes told in the
command's flags (``error: ...``, exit status 2)."""

from __future__ import annotations

import functools
import inspect
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from dialkit._shown._words import counted
from dialkit._utils._base_error import InputError
from dialkit._utils._choices import (
    AUDIT_INPUTS,
    CALLS_ASKED,
    FRAME,
    GIVEN,
    IDS,
    POLICY_NAMES,
    PRESET_NAMES,
    RECORDS,
    SWITCH,
    AuditInput,
)
from dialkit.cli._shared import ACCOUNT_FLAGS, SANDBOX_FLAGS, cli_text, offering

INPUT_FLAGS = {spelling: each.in_command for each in AUDIT_INPUTS if each.flag is not None
               for spelling in (each.in_python, f"{each.name}=")}
"""Each input of the audit as the library's words ask for it (``texts=
(client.frames.sms_reports())``, ``audit(nonprofit=True)``, a bare ``leads=``) and as the
command's do (``--texts FILE``, ``--nonprofit``), from its one declaration."""
AUDIT_FLAGS = {**ACCOUNT_FLAGS, **SANDBOX_FLAGS, **INPUT_FLAGS, "calls=": "--calls FILE",
               CALLS_ASKED: "--calls FILE",
               "callbacks=": "--callbacks FILE", "fix=": "--fix",
               "blocked_countries holds": "--blocked-countries holds",
               "accept_unjudged holds": "--accept-unjudged holds", "at=": "--at",
               "horizon=": "--horizon", "tz=": "--tz", "phones_or_leads": "NUMBER",
               "preset=": "--preset", "policy_window=": "--policy-window",
               "fail_on=": "--fail-on", "accept_unjudged=": "--accept-unjudged",
               "apply= and strategy= go with fix=: add fix=True": "--apply and --strategy go "
               "with --fix: add --fix", "strategy=": "--strategy",
               "mapping={'<column>': '<header>'}": "--map COLUMN=HEADER", "mapping=": "--map",
               "values=": "--value", "state=": "--state",
               "the one a Monitor wrote": "one `dialkit compliance watch --state` wrote"}
"""The compliance commands' flags for the arguments the library's messages name."""
EXPORT = "an export, CSV or Parquet, or a dialkit.frames.export folder"
"""What a frame's option reads."""
Forms = dict[str, tuple[Any, str | None, Any, str]]
"""Each kind of input a command is given (:data:`GIVEN`) as its option takes it: the
value's type, its name in the help, the default, and what the help adds to the fact."""
FORMS: Forms = {
    FRAME: (Path | None, "FILE", None, f"Read from {EXPORT}, with --calls; on the "
            "account, the account's own are read."),
    RECORDS: (Path | None, "FILE", None, "A CSV or Parquet file."),
    IDS: (Path | None, "FILE", None, "A file of them, one per line (or a CSV's first column)."),
    SWITCH: (bool, None, False, ""),
}
"""The forms of the commands that read the account (``audit``, ``upcoming``)."""
OFF_THE_ACCOUNT: Forms = {**FORMS, FRAME: (Path | None, "FILE", None, f"Read from {EXPORT}.")}
"""The forms of ``compliance when`` and ``watch``, which reach no account: a frame is its
export."""


def _option(each: AuditInput, forms: Forms) -> inspect.Parameter:
    """The option of a compliance command that gives the input ``each``, made from its
    declaration: its flag, the fact it tells as the help, and its kind's form."""
    kind, metavar, default, form = forms[each.kind]
    option = typer.Option(each.flag, metavar=metavar, help=f"{each.fact} {form}".strip())
    return inspect.Parameter(each.name, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                             default=default, annotation=Annotated[kind, option])


def given_options(judge: str | None = None, forms: Forms = FORMS, *, after: str = "calls",
                  ) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """A command with an option of each input of the audit it is given rather than
    chooses (:data:`GIVEN`: a file, a fact), made from the input's declaration
    (:data:`AUDIT_INPUTS`) and placed after the parameter ``after`` (``--calls``; ``watch``:
    ``--events``): every one for the audit (``judge`` None), those the declaration says
    ``judge`` takes for a judge's command (``next_allowed``: ``when``; ``upcoming``;
    ``Monitor``: ``watch``). The command gets their values as one
    mapping, ``given``, by keyword, which its library call takes as they are. So an input
    declared later, or given to a judge later, has its option, its help and its place in
    the run from that one line (once, the audit had no ``--texts`` and no
    ``--nonprofit``, and ``when`` and ``upcoming`` none of the inputs their judges took)."""
    made = [_option(each, forms) for each in AUDIT_INPUTS
            if each.kind in GIVEN and (judge is None or judge in each.readers)]

    def given_options(command: Callable[..., None]) -> Callable[..., None]:
        signature = inspect.signature(command, eval_str=True)
        own = [parameter for parameter in signature.parameters.values()
               if parameter.name != "given"]
        at = [parameter.name for parameter in own].index(after) + 1

        @functools.wraps(command)
        def run(**values: Any) -> None:
            given = {parameter.name: values.pop(parameter.name) for parameter in made}
            command(**values, given=given)

        run.__signature__ = signature.replace(  # type: ignore[attr-defined]
            parameters=[*own[:at], *made, *own[at:]])
        return run

    return given_options


Words = Annotated[list[str] | None, typer.Option("--value", metavar="COLUMN:WORD=VALUE", help=(
    "What another tool's word means (repeat for several): --value "
    "disposition:'Sale Made'=sale, --value direction:OUT=outbound, --value "
    "disposition:Dropped= (no value). The contract's words are read in any case, with "
    "spaces, underscores and hyphens alike; a call's word understood neither way is "
    "named in the notes and held out of the rules it decides."))]
Maps = Annotated[list[str] | None, typer.Option("--map", metavar="COLUMN=HEADER", help=(
    "Read a column from the export's column HEADER (repeat for several): --map "
    "to_number='Dialed', --map dnc.checked_at='Scrub Date'. Without it, a column named "
    "as dialkit names it is read, in any case, else one named as dialers, CRMs and DNC "
    "vendors name it (Phone Number, Call Start, Line Type) where exactly one is; the "
    "notes say what was read as what."))]
AcceptUnjudged = Annotated[list[str] | None, typer.Option(
    "--accept-unjudged", metavar="COUNTRY|RULE", help=(
        "Let --fail-on pass what was not judged of this country (FR, France: dialkit holds "
        "no law of it) or rule (abandonment); repeat the option, or separate with commas. "
        "Still reported."))]
BlockedCountries = Annotated[str, typer.Option(metavar="CODES", help=(
    "Countries calls must not reach, codes or names, comma-separated: KP,IR."))]
AcceptCountries = Annotated[list[str] | None, typer.Option(
    "--accept-unjudged", metavar="CODES", help=(
        "Countries whose law the preset does not hold (it holds the US's, Canada's and the "
        "UK's) that the account calls on purpose, codes or names, comma-separated or the "
        "option repeated: FR,ES. Their numbers are judged by the policy alone; any other "
        "such number is not judged (no_law_held)."))]
Preset = Annotated[str, typer.Option(metavar="PRESET", autocompletion=offering(PRESET_NAMES),
                                     help=(
    "The law: us, uk, ca or us-federal, as for audit."))]
Policy = Annotated[str | None, typer.Option(metavar="POLICY", autocompletion=offering(
    POLICY_NAMES), help=(
    "Add the account's own stricter rule, reported as policy: house-rules."))]
PolicyWindow = Annotated[str | None, typer.Option(metavar="HH:MM-HH:MM", help=(
    "Add a policy calling window for every call, recipient local time."))]
PolicyCap = Annotated[int | None, typer.Option(metavar="N", min=1, help=(
    "Add a policy cap: at most N outbound calls per number in any 24 hours."))]


def in_words(text: str) -> str:
    """The library's words for its arguments in the command's (its flags)."""
    return cli_text(values_said(text), AUDIT_FLAGS)


_MAPPED = re.compile(r"values=\{'([\w.]+)': \{('(?:[^'\\]|\\.)*'|\"[^\"]*\"): '([^']*)'\}\}")
"""A mapping of one word as the library's notes say it (``values={'disposition':
{'Hung Up': 'sale'}}``, :func:`dialkit.compliance._inputs._vocabulary.mapping_hint`)."""
_COLUMN = re.compile(r"mapping=\{'([\w.]+)': ('(?:[^'\\]|\\.)*'|\"[^\"]*\")\}")
"""A mapping of one column as the library's messages say it (``mapping={'to_number':
'Phone Number'}``, :mod:`dialkit.compliance._inputs._headers`)."""


_ACCEPTED = re.compile(r"(\w+\()?accept_unjudged=\[([^\]]*)\](?(1)\))")
"""What may stay not judged as the library's words say it: ``accept_unjudged=['AU',
'FR']`` (:mod:`dialkit.compliance._checks._unread._unjudged`), or as a judge's argument,
``next_allowed(accept_unjudged=['FR'])`` (:mod:`dialkit.compliance._ahead._unjudged`)."""


def values_said(text: str) -> str:
    """``text`` with each mapping of a word or a column, and what may stay not judged, in
    the command's words: ``--value disposition:'Hung Up'=sale``, ``--map
    to_number='Phone Number'``, ``--accept-unjudged AU,FR``."""
    text = _MAPPED.sub(lambda m: f"--value {m[1]}:{m[2]}={m[3]}", text)
    text = _ACCEPTED.sub(lambda m: "--accept-unjudged " + ",".join(
        word.strip(" '\"") for word in m[2].split(",")), text)
    return _COLUMN.sub(lambda m: f"--map {m[1]}={m[2]}", text)


@contextmanager
def library_errors() -> Iterator[None]:
    """The library's refusal as ``error: ...`` in the command's flags: exit status 2 for
    bad input; 1 where the service refused or gave no answer in time, as docs/cli.md
    says."""
    from dialkit.errors import ApiError

    try:
        yield
    except ApiError as error:
        typer.echo(f"error: {cli_text(str(error), AUDIT_FLAGS)}", err=True)
        raise typer.Exit(1) from None
    except InputError as error:
        fail(str(error))


def fail(message: str) -> NoReturn:
    """The command's end on bad input: ``error: <message>`` in the command's flags, exit
    status 2."""
    typer.echo(f"error: {in_words(message)}", err=True)
    raise typer.Exit(2)


def found_said(found: Mapping[str, int]) -> str:
    """What ``--fail-on`` found, by basis: ``2 findings of law, 1 risk``."""
    return ", ".join(counted(n, "risk") if basis == "risk" else f"{counted(n, 'finding')} of "
                     f"{basis}" for basis, n in found.items())


def fail_on_told(fail_on: Iterable[str] | None, why: str) -> None:
    """Why ``--fail-on`` fails the run (``why``), on standard error after the names given,
    each once: ``--fail-on law risk: 2 findings of law``."""
    typer.echo(f"--fail-on {' '.join(dict.fromkeys(fail_on or ()))}: {why}", err=True)
