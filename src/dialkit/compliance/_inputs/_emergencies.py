"""The declared states of emergency an audit is given (``emergencies=``), read by their
declaration (:data:`._declared.INPUTS` ``emergencies``) into the rules'
:class:`.._rules._emergencies.Emergency` values.

They are read here, with the other inputs, and carried by the rules, so that every judge
of a call reads them from the rules alike: the audit on pandas and on Dask,
``next_allowed``, ``upcoming``, ``repair`` and the client's guard. The check of the hours
(:mod:`.._checks._hours`) judges the calls against them, and says in the report's notes
where none were given.
"""

from __future__ import annotations

from ..._utils._base_error import AuditInputError, ColumnError, InputError
from ...frames import maybe_pandas
from .._rules._emergencies import Emergency, emergency
from .._rules._rules import Rules
from ._columns import typed
from ._declared import declared, required

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
