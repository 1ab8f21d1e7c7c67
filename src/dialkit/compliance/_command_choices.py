"""The compliance commands' choices read as plain values, before a file is read or the
account reached: a preset and a policy by name (or as :class:`Rules`), a policy window as
``"HH:MM-HH:MM"``, a period in :func:`audit`'s words, another tool's words and headers
as the command writes them (``COLUMN:WORD=VALUE``, ``COLUMN=HEADER``), the inputs given
by keyword (a file of records, a file of caller ids, a fact), each refused as an
:class:`~dialkit.errors.InputError` naming the argument; and the client a command makes
where none is given.

What :mod:`._command_runs` decides from these is its own; reading them is one thing every
run does alike, so each run reads a choice as the others do.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from contextlib import ExitStack, contextmanager
from datetime import time
from typing import TYPE_CHECKING, Any

from .._files._file_limits import DELIMITERS
from .._files._text import read_text
from .._law._jurisdictions import hours_window
from .._utils._base_error import AuditInputError, InputError
from .._utils._choices import (
    AUDIT_INPUTS,
    FAIL_ON,
    FRAME,
    GIVEN,
    IDS,
    RECORDS,
    SWITCH,
    AuditInput,
)
from .._utils._moments import period_bound, utc_moment
from ._inputs._keywords import refusal
from ._rules._rules import POLICIES, POLICY, PRESETS, Rules

if TYPE_CHECKING:
    import pandas as pd

    from ..client import Client

Source = str | os.PathLike[str]
"""A file or folder an input is read from (:func:`read_source`)."""
_FIRST_CELL = re.compile(f"[{re.escape(''.join(DELIMITERS))}]")
"""What ends the first cell of a line of caller ids: a delimiter a spreadsheet writes."""


def given_to(judge: str | None) -> dict[str, AuditInput]:
    """The inputs of :func:`audit` a run takes by their keyword, as given (a file, the ids,
    a fact), each read by its kind: :func:`run_audit` every one (``judge`` None), a run of
    a judge before a call those its declaration says ``judge`` reads (its ``readers``), so
    that an input a judge is given later is its command's at once."""
    return {each.name: each for each in AUDIT_INPUTS
            if each.kind in GIVEN and (judge is None or judge in each.readers)}


GIVEN_INPUTS = given_to(None)
"""Every input of :func:`audit` a run may be given by its keyword, as given."""
FRAME_INPUTS = [name for name, each in GIVEN_INPUTS.items() if each.kind == FRAME]
RECORD_INPUTS = [name for name, each in GIVEN_INPUTS.items() if each.kind == RECORDS]
"""The account's frames whose exports go with the calls' (``leads``, ``dnc``, ``texts``)."""


def values_read(values: Mapping[str, Mapping[str, str | None]] | Iterable[str] | None,
                ) -> Mapping[str, Mapping[str, str | None]] | None:
    """``values`` as :func:`audit` takes them: a mapping as it is; the command's
    ``COLUMN:WORD=VALUE`` texts gathered by column (the column before the first ``:``, the
    value after the last ``=``: a word may hold either), an empty value as none; a text of
    another form refused, naming it."""
    if values is None or isinstance(values, Mapping):
        return values
    read: dict[str, dict[str, str | None]] = {}
    for text in values:
        column, _, rest = str(text).partition(":")
        word, sep, meant = rest.rpartition("=")
        if not column.strip() or not sep or not word.strip():
            raise AuditInputError(f"values= {text!r}: write COLUMN:WORD=VALUE, as in "
                                  "disposition:Sale Made=sale (VALUE empty: no value)")
        read.setdefault(column.strip(), {})[word.strip()] = meant.strip() or None
    return read


def mapping_read(mapping: Mapping[str, str] | Iterable[str] | None) -> Mapping[str, str] | None:
    """``mapping`` as :func:`audit` takes it: a mapping as it is; the command's
    ``COLUMN=HEADER`` texts as one (the column before the first ``=``: a header may hold
    one); a text of another form refused, naming it."""
    if mapping is None or isinstance(mapping, Mapping):
        return mapping
    read: dict[str, str] = {}
    for text in mapping:
        column, sep, header = str(text).partition("=")
        if not column.strip() or not sep or not header.strip():
            raise AuditInputError(f"mapping= {text!r}: write COLUMN=HEADER, as in "
                                  "to_number=Phone Number")
        read[column.strip()] = header.strip()
    return read


def given_read(given: Mapping[str, Any], where: str, judge: str) -> dict[str, Any]:
    """The inputs given by keyword to ``where``, a run of ``judge``, of those it takes
    (:func:`given_to`), as its judge takes them: records read from their files, caller ids
    from theirs, a fact ``True`` or ``False`` (else refused naming it: ``"no"`` is true to
    Python); a keyword that names no input it takes refused before anything is read, and
    before a fact is read, as the judge refuses it. The frames' exports are each run's own
    to read (with the calls'), so they are left out."""
    taken = given_to(judge)
    unknown = [name for name in given if name not in taken]
    if unknown:
        raise refusal(where, judge, unknown[0], taken)
    read: dict[str, Callable[[Any], Any]] = {RECORDS: read_whole_file, IDS: _caller_ids}
    found: dict[str, Any] = {}
    for name, value in given.items():
        each = taken[name]
        if value is not None and each.kind != FRAME:
            found[name] = (each.checked_switch(value, where) if each.kind == SWITCH
                           else read[each.kind](value))
    return found


def of_kind(given: Mapping[str, Any], kind: str) -> dict[str, Any]:
    """The inputs of ``kind`` given (a file each); a keyword of no input is none of them
    (:func:`given_read` refuses it)."""
    return {name: value for name, value in given.items()
            if name in GIVEN_INPUTS and GIVEN_INPUTS[name].kind == kind and value is not None}


@contextmanager
def named_by_path(paths: Mapping[str, Source | None]) -> Iterator[None]:
    """A frame refused while judged (:attr:`AuditInputError.frame`) named by the file it
    was read from, where it was read from one: the user fixes the file, not the keyword."""
    try:
        yield
    except AuditInputError as error:
        path = paths.get(error.frame) if error.frame else None
        if path is None:
            raise
        raise AuditInputError(f"{path}: {error}", frame=error.frame) from None


def client_of(stack: ExitStack, client: Client | None, sandbox: bool) -> Client:
    """``client``, or the one a command makes: ``Client.sandbox()`` with ``sandbox``, else
    ``Client()`` (``DIALKIT_API_KEY``), closed when ``stack`` closes."""
    if client is not None:
        return client
    from ..client import Client

    made: Client = stack.enter_context(Client.sandbox() if sandbox else Client())
    return made


def check_bounds(period: Mapping[str, Any]) -> None:
    """``since`` and ``until`` read as :func:`load` and :func:`audit` read them, so a bad
    one is refused before anything is read (the audit reads the whole history and
    reports the period's)."""
    for name in ("since", "until"):
        if period[name] is not None:
            period_bound(period[name], name)


def fail_on_read(fail_on: Iterable[str]) -> tuple[str, ...]:
    """The names of ``fail_on`` (``--fail-on``), each one of :data:`FAIL_ON`; another is
    refused, naming it."""
    named = tuple(fail_on)
    for name in named:
        if name not in FAIL_ON:
            raise AuditInputError(f"fail_on={name!r}: pass law, any or risk")
    return named


def found_on(by_basis: Mapping[str, int], fail_on: Iterable[str]) -> dict[str, int]:
    """Each basis the names of ``fail_on`` stop on that the findings counted ``by_basis``
    hold, with its count, in ``fail_on``'s order: what fails a run, the audit's or a
    monitor's alike."""
    bases = dict.fromkeys(basis for name in fail_on for basis in FAIL_ON[name])
    return {basis: int(by_basis.get(basis, 0)) for basis in bases if by_basis.get(basis, 0)}


def preset_rules(preset: str | Rules) -> Rules:
    """The law named (a name of :data:`PRESETS`, as the command's ``--preset`` writes it),
    or the :class:`Rules` given; another name refused, naming those it may be."""
    if isinstance(preset, Rules):
        return preset
    if preset not in PRESETS:
        raise AuditInputError(f"preset={preset!r}: pass one of {', '.join(PRESETS)}")
    return PRESETS[preset]


def policy_rules(name: str | Rules | None, window: str | None, cap: int | None) -> Rules | None:
    """The policy named, or made of ``policy_window`` and ``policy_cap`` (both kinds
    together: the stricter of each)."""
    named = name if name is None or isinstance(name, Rules) else POLICIES.get(name)
    if named is None and name is not None:
        raise AuditInputError(f"policy={name!r}: pass one of {', '.join(POLICIES)}")
    if window is None and cap is None:
        return named
    made = POLICY("command line: " + ", ".join(
        ([f"window {window}"] if window else []) + ([f"at most {cap} calls a day"] if cap else [])),
        window=_window(window) if window else None, max_calls_per_24h=cap)
    return made if named is None else named.with_policy(made)


def _window(text: str) -> tuple[time, time]:
    """``"HH:MM-HH:MM"`` as the window's start and end, the start before the end."""
    try:
        return hours_window(text)
    except ValueError:
        raise AuditInputError(f"policy_window={text!r}: pass the allowed hours as "
                              "HH:MM-HH:MM, e.g. 09:00-20:00") from None


def _caller_ids(given: Source | Collection[str]) -> Collection[str]:
    """The caller ids given, or read from a file as a spreadsheet or an editor saved it
    (:func:`read_text`: a byte order mark is no part of the first id): each line's first
    cell, up to a comma, ``;``, tab or ``|``, that is a number (``+...``)."""
    if not isinstance(given, str | os.PathLike):
        return given
    cells = (_FIRST_CELL.split(line, maxsplit=1)[0].strip()
             for line in read_text(given, AuditInputError).splitlines())
    return [cell for cell in cells if cell.startswith("+")]


def read_whole_file(path: Source) -> Any:
    """A file of records (consents, reassigned answers, contracts, emergencies), or for a
    judge before a call an export of a frame, read as the audit reads an export and whole
    (a dataset's folder too: these judges read pandas); one that cannot be read is
    refused naming it, once."""
    from .._parallel._partitions import read_whole
    from ._inputs._read import read_source

    try:
        return read_whole(read_source(path))
    except (OSError, InputError) as error:
        said = str(error)
        raise AuditInputError(said if said.startswith(f"{path}:")
                              else f"{path}: {said}") from None


def as_of_moment(as_of: str | None) -> pd.Timestamp | None:
    """``as_of`` as a moment, refused before anything is read where it is none."""
    return None if as_of is None else utc_moment(as_of, "as_of")
