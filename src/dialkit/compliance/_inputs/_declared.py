"""Each input frame of the audit as its one declaration gives it (STYLE.md point 17): the
columns, their kinds, which it must have and what reads each, declared with the input
itself (:data:`dialkit._utils._choices.AUDIT_INPUTS`, and the calls':
:data:`~dialkit._utils._choices.CALLS_COLUMNS`) and read here by the frame's name.

The pandas path checks a frame by this declaration (:func:`._columns.typed`, the audit's
``prepared_*``), and the Dask path takes from it which columns go through its shuffles
(:mod:`.._dask._parts`), so that no column is read on one path and dropped on the other:
the Dask path kept its own lists, dropped the leads' ``line`` and the DNC results' ``list``,
and judged a call to a business line, and a number on the account's own list, otherwise
than pandas did. Polars' and Arrow's frames are read as pandas'
(:func:`dialkit.frames.as_pandas`), the command line's files by :mod:`._read`, the
guard's calls by :func:`required` of ``calls``: each through the same checks.
"""

from __future__ import annotations

import pandas as pd

from ..._utils._choices import AUDIT_INPUTS, CALLS_COLUMNS, REPORT, Column

TIME_TYPE = pd.DatetimeTZDtype(unit="us", tz="UTC")
"""Every time the audit reads, as ``client.frames`` types it: text read by pandas came in
the resolution its text suggested (seconds for ``2026-06-01T00:00:00Z``), and a Dask part
given another frame's resolution (the calls' microseconds) ended in ``MergeError``."""
INPUTS: dict[str, tuple[Column, ...]] = {
    "calls": CALLS_COLUMNS, **{each.name: each.columns for each in AUDIT_INPUTS if each.columns}}
"""Every input frame's columns the audit reads (docs/compliance.md, docs/frames.md)."""


def declared(frame: str, *kinds: str) -> tuple[str, ...]:
    """The names of ``frame``'s columns (of ``kinds``, where given), in declared order."""
    return tuple(c.name for c in INPUTS[frame] if not kinds or c.kind in kinds)


def required(frame: str) -> tuple[str, ...]:
    """The columns ``frame`` must have: one lacking any is refused, naming it."""
    return tuple(c.name for c in INPUTS[frame] if c.required)


def read_by_rules(frame: str) -> tuple[str, ...]:
    """``frame``'s columns a rule reads, not the report alone: what the Dask audit shuffles
    for every row (the others go only with the rows the report lists whole)."""
    return tuple(c.name for c in INPUTS[frame] if c.read_by != (REPORT,))
