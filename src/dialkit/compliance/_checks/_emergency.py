"""The declared states of emergency an audit is given (``emergencies=``), read by their
declaration, and what a report says of the states whose law bans calls during one.

The frame is read once, here, by the audit's declaration of it
(:data:`.._inputs._declared.INPUTS` ``emergencies``: ``area``, ``starts_at``, optionally
``ends_at`` and ``declaration``), into the rules' :class:`.._rules._emergencies.Emergency`
values, which every judge of a call then reads from the rules: the audit on pandas and
on Dask, ``next_allowed``, ``upcoming`` and the client's guard (issue 73). The calls are
judged by :mod:`._hours`, the ban being one of the law of the place called.

Without the frame, an emergency cannot be judged: a report whose calls reached a state
whose law bans them during one says so in its notes (:func:`emergency_note`), naming
the states, rather than passing those calls as if no emergency had been declared.
"""

from __future__ import annotations

import numpy as np

from ..._arrays._groups import Bools
from ..._law import _jurisdictions as table
from ..._utils._base_error import AuditInputError, ColumnError, InputError
from ...frames import maybe_pandas
from .._inputs._columns import typed
from .._inputs._declared import declared, required
from .._inputs._options import spelled
from .._rules._emergencies import Emergency, emergency
from .._rules._rules import Rules
from ._hours import Clock

FRAME = "emergencies"
"""The input's name: its keyword, its declaration's and its errors' frame."""


def with_emergencies(rules: Rules, emergencies: object) -> Rules:
    """``rules`` carrying the emergencies of the frame ``emergencies`` (pandas, Polars or
    Arrow; None: ``rules`` as they are, none given), each row read by the declaration.

    Raises:
        AuditInputError: The frame lacks ``area`` or ``starts_at``, holds a value that is
            not of its column's kind, an area that names no state, or an end not after
            its start; the message names the column and the row (``frame`` is
            ``emergencies``).
    """
    if emergencies is None:
        return rules
    return rules.with_emergencies(declared_emergencies(emergencies))


def declared_emergencies(emergencies: object) -> tuple[Emergency, ...]:
    """The frame's declared emergencies, each row checked (:func:`with_emergencies`)."""
    frame = maybe_pandas(emergencies, FRAME)
    assert frame is not None
    missing = [column for column in required(FRAME) if column not in frame.columns]
    if missing:
        raise AuditInputError(f"{FRAME} has no column {', '.join(missing)}: give each "
                              "declared emergency's area (a state: US-LA, LA, Louisiana) and "
                              "starts_at, and ends_at where it has ended "
                              f"({', '.join(declared(FRAME))})", frame=FRAME)
    try:
        read = typed(frame[[c for c in declared(FRAME) if c in frame]].copy(), FRAME)
        return tuple(emergency(**{column: row.get(column) for column in declared(FRAME)},
                               where=f"{FRAME} row {n}")  # the columns are its arguments
                     for n, row in enumerate(read.to_dict("records")))
    except (ColumnError, InputError) as error:
        raise AuditInputError(str(error), frame=FRAME) from None


def banned_states(times: Clock, inside: Bools | None = None) -> frozenset[str]:
    """The states whose law bans calls during a declared emergency (``emergency_ban``)
    that the calls reached (``inside``: those reported; None: every call), by each call's
    number's state and lead's address state, as the hours judge them."""
    law, own = times.judged.law, times.judged.own
    reached = np.r_[own[1], own[2]] if inside is None else np.r_[own[1][inside],
                                                                  own[2][inside]]
    return frozenset(str(law.ids[n]) for n in np.unique(reached[reached >= 0])
                     if law.banned[n])


def emergency_note(rules: Rules, reached: frozenset[str]) -> dict[str, str]:
    """The report's note on declared emergencies: where none were given and the calls
    reached a state whose law bans calls during one, that they were not judged, naming
    the states; where some were given for a state whose law bans none, that they forbid
    nothing there; nothing otherwise."""
    if rules.emergencies is None:
        if not reached:
            return {}
        return {FRAME: f"not judged: calls reached {_named(reached)}, whose law forbids "
                       "telephone solicitation during a declared state of emergency, and no "
                       f"declared emergencies were given: pass {spelled(FRAME)}"}
    idle = sorted({each.area for each in rules.emergencies} - _banning(rules))
    if not idle:
        return {}
    return {FRAME: f"{', '.join(idle)}: no row of the law applied forbids calls there during "
                   "a declared emergency, so the emergencies given there forbid nothing"}


def _banning(rules: Rules) -> set[str]:
    """The states whose row the ``rules`` apply (confirmed, of their countries, a state's
    where they apply states') bans calls during a declared emergency."""
    return {row.id for row in table.all() if row.emergency_ban and row.confirmed
            and row.country in rules.jurisdictions and (rules.states or not row.subdivision)}


def _named(states: frozenset[str]) -> str:
    return " and ".join(f"{table.get(state).name} ({state})" for state in sorted(states))
