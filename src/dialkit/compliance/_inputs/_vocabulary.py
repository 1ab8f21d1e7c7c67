"""The vocabulary of the audit's named columns: every value a named column of an input may
hold, each column read through it by one function, :func:`read` (STYLE.md
point 18).

A value is known where it is one of the column's words (the contract's enums,
:mod:`dialkit.contract`, or the law table's) written in any case, with spaces around it,
and with spaces, underscores and hyphens taken alike (``Do Not Call``, ``DO_NOT_CALL`` and
``do-not-call`` are the contract's ``do_not_call``; ``BUSY`` with a trailing space is
``busy``); where a standard or a dialer writes it for one (:attr:`Words.also`: the hangup
causes of Q.850, the switches and SIP, :mod:`._words._causes`, by name or number; the dialers'
statuses and dispositions, :mod:`._words._dialer_words`, with the facts they add beside the
contract's values, ``abandoned``, ``answering_machine``, ``canceled``, ...); or where the
user mapped it (``values={"disposition": {"Sale Made":
"sale"}}``, ``--value disposition:"Sale Made"=sale``). Any other value is never read as a
default: a dialer's ``Outbound`` audited no call, its own disposition words were taken as
a live conversation's (so abandonment passed), ``Do Not Call`` was no request, and a
``Busy`` call that rang 3 s was a ring breach.

What an unknown value does depends on what its rows are (:attr:`Words.held_out_of`):

- a **call's** column (direction, status, disposition, hangup cause) names the value and
  holds its rows out of the rules the column decides: a call is one event, and the other
  rules judge it as well without the word (its hour, its number's caps). A call of an
  unknown direction is audited as nothing, and named; one of an unknown status or
  disposition is no live answer to abandonment and no completed short call to
  ``short_ring``; an unknown hangup cause holds it out of ``short_ring``. The report's note
  lists each value with its column and count (:func:`values_note`).
- a **record's** column (a lead's status or line, a consent's kind or relationship, a
  reassigned answer, a DNC result's list) is refused, naming every value and how to map
  it: such a row lists, exempts or links a number, and held out it would change what
  every other rule answers (a consent left out makes an exempt call a finding; a DNC row
  left out, a listed number unscrubbed), so the frame as given cannot be used.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..._arrays._groups import Bools
from ..._arrays._kept import arrow_data, kept
from ..._law import _dnc_lists as lists
from ..._places._subdivisions import subdivision_of
from ..._shown._words import counted
from ..._utils._base_error import AuditInputError
from ...contract import CallDirection, CallDisposition, CallStatus, HangupCause, LeadStatus
from ._words import _causes as causes
from ._words import _dialer_words as dialer_words

Values = Mapping[str, Mapping[str, str | None]] | None
"""The user's mapping of values (``values=``): a column (``disposition``, or ``calls.status``
where a bare name would name several) to each word as the file writes it and the
vocabulary's value it means (None or ``""``: no value, an empty cell)."""
LINES = ("business", "residential", "wireless", "landline", "voip")
"""The leads' ``line`` values, each a fact a rule reads (docs/compliance.md, "A lead's
line"): ``business`` (the Do-Not-Call lists that protect residential lines do not judge
it, nor the rule of prerecorded calls), ``residential`` (they do), ``wireless`` (the
consent rule of autodialled calls judges it as of law), ``landline`` (that rule does not
judge it) and ``voip`` (whether the called party pays for the call is unknown: that rule
judges it as a risk)."""
LINE_WORDS = {"mobile": "wireless", "cell": "wireless", "cellular": "wireless",
              "mobile_phone": "wireless", "cell_phone": "wireless", "wireline": "landline",
              "land_line": "landline", "fixed": "landline", "fixed_line": "landline",
              "fixedvoip": "voip", "nonfixedvoip": "voip", "fixed_voip": "voip",
              "non_fixed_voip": "voip", "unknown": None}
"""The line types carriers' lookups and CRMs write, each as :func:`alike` reads it, and
the value it means (None: not known, an empty cell): ``Mobile``, ``Landline``, Twilio's
``nonFixedVoip``."""
ANSWERS = ("yes", "no", "no_data")
"""The reassigned numbers database's answers."""
LISTED = 14
"""How many of a column's values a message names (:func:`listed`)."""
HELD_OUT = "values"
"""The report's note of the calls' values not understood (:func:`values_note`)."""
_ALIKE = re.compile(r"[\s_\-]+")


@dataclass(frozen=True)
class Words:
    """A named column's values (``values``), and the rules an unknown value's rows are held
    out of (``held_out_of``; empty: the frame is refused, see the module)."""

    values: tuple[str, ...]
    held_out_of: tuple[str, ...] = ()
    also: Mapping[str, str | None] = field(default_factory=dict)
    """Other words for the values, as other tools write them (each as :func:`alike`
    reads it), known as the values are."""
    reads: Callable[[object], object] | None = None
    """How a value that is none of the words is read before it is looked up (a DNC
    result's list written as its state, ``TX``: :func:`list_named`)."""


def list_named(value: object) -> object:
    """A DNC result's ``list`` as a vendor writes a state whose list it is (``TX``,
    ``us-tx``, ``Texas``: the address states' reading,
    :func:`~dialkit._places._subdivisions.subdivision_of`), as its list's id (``US-TX``);
    any other value as written (the vocabulary reads ``National``; a state that keeps no
    list is refused by it)."""
    state = subdivision_of(value)
    return state if state is not None and lists.state_list(state) is not None else value


def _of(enum: type) -> tuple[str, ...]:
    return tuple(member.value for member in enum)  # type: ignore[attr-defined]


def alike(value: object) -> str:
    """``value`` as the vocabulary compares it: in lower case, its spaces, underscores and
    hyphens one underscore, none around it (``Do Not Call`` -> ``do_not_call``)."""
    return _ALIKE.sub("_", str(value).strip().casefold()).strip("_")


def _dialers(column: str) -> dict[str, str | None]:
    """The dialers' words for ``column`` (:func:`._words._dialer_words.words_of`), as
    :func:`alike` reads them."""
    return {alike(word): value for word, value in dialer_words.words_of(column).items()}


def _hangup_causes() -> Words:
    """The hangup causes (:mod:`._words._causes`): the contract's eight first, as they are, then
    every other cause the standards and the switches name, by name or number in any
    case."""
    contract = _of(HangupCause)
    others = tuple(name for name in causes.names() if name not in contract)
    return Words((*contract, *others), ("short_ring",),
                 also={alike(word): name for word, name in causes.other_words().items()},
                 reads=causes.numbered)


VOCABULARY: dict[str, dict[str, Words]] = {
    "calls": {"direction": Words(_of(CallDirection), ("every rule",)),
              "status": Words((*_of(CallStatus), *dialer_words.STATUS_FACTS),
                              ("abandonment", "short_ring"), also=_dialers("status")),
              "disposition": Words((*_of(CallDisposition), *dialer_words.DISPOSITION_FACTS),
                                   ("abandonment", "short_ring"),
                                   also=_dialers("disposition")),
              "hangup_cause": _hangup_causes()},
    "leads": {"status": Words(_of(LeadStatus)), "line": Words(LINES, also=LINE_WORDS)},
    "consents": {"kind": Words(lists.KINDS), "relationship": Words(lists.RELATIONSHIPS)},
    "reassigned": {"answer": Words(ANSWERS)},
    "dnc": {"list": Words(lists.frame_values(), reads=list_named)},
}
"""Every named column of every input of the audit, and its values."""


def read(column: pd.Series, frame: str, name: str, values: Values = None) -> pd.Series:
    """``column`` (``frame``'s column ``name``) with each value read through the vocabulary:
    a known value as the vocabulary writes it, a mapped one as the user mapped it, any
    other as written (:func:`unread` tells its rows). Each distinct value read once; a
    column already of the vocabulary's words is given back as it is.

    Raises:
        AuditInputError: A record's column (:attr:`Words.held_out_of` empty) holds a value
            not understood, or ``values`` maps a word to no value of the column; the
            message names each, with its count, and how to map it.
    """
    return _read(column, VOCABULARY[frame][name], frame, name, values)


def _read(column: pd.Series, words: Words, frame: str, name: str,
          values: Values) -> pd.Series:
    """:func:`read` of ``column`` by ``words``."""
    codes = _codes(column)
    if set(map(str, codes)) <= set(words.values):
        return column
    meaning: dict[str, str | None] = _known(words)
    meaning.update(_mapped(values, frame, name, words))
    read_as = {code: _meant(code, meaning, words) for code in codes}
    if not words.held_out_of:
        _refuse_unknown(column, read_as, words, frame, name)
    return _rewritten(column, read_as)


def _meant(code: object, meaning: Mapping[str, str | None], words: Words) -> str | None:
    """What ``code`` means by ``meaning`` (the words known and mapped, as :func:`alike`
    reads them): itself, or as ``words`` reads it first; as written where neither tells."""
    if alike(code) in meaning or words.reads is None:
        return meaning.get(alike(code), str(code))
    read = words.reads(code)
    return meaning.get(alike(read), str(code))


def read_named(prepared: pd.DataFrame, frame: str, values: Values = None) -> pd.DataFrame:
    """``prepared`` (a copy the caller owns) with each of ``frame``'s named columns it has
    read by :func:`read`: what every path reads an input by (:func:`._columns.typed`)."""
    for name in (n for n in VOCABULARY.get(frame, {}) if n in prepared):
        prepared[name] = read(prepared[name], frame, name, values)
    return prepared


def unread(column: pd.Series, frame: str, name: str) -> Bools:
    """Which rows of ``column`` (read by :func:`read`) hold a value not understood: neither
    empty nor one of the vocabulary's."""
    known = set(VOCABULARY[frame][name].values)
    unknown = [code for code in _codes(column) if str(code) not in known]
    if not unknown:  # the distinct values alone: no pass over the rows' text
        return np.zeros(len(column), bool)
    held: Bools = pd.Series(column.array, copy=False).isin(unknown).to_numpy(dtype=bool)
    return held


def unread_counts(prepared: pd.DataFrame, frame: str) -> pd.DataFrame:
    """Each value not understood of ``frame``'s named columns in ``prepared`` (read by
    :func:`read`): ``column`` (``calls.disposition``), ``value`` and ``rows``."""
    found = []
    for name in (n for n in VOCABULARY[frame] if n in prepared):
        held = unread(prepared[name], frame, name)
        if held.any():
            counts = pd.Series(prepared[name].array[held]).astype(str).value_counts()
            found.append(pd.DataFrame({"column": f"{frame}.{name}", "value": counts.index,
                                       "rows": counts.to_numpy(np.int64)}))
    return summed_counts(found)


def summed_counts(counts: list[pd.DataFrame]) -> pd.DataFrame:
    """Several :func:`unread_counts` (of a Dask frame's partitions) as one, summed."""
    every = [c for c in counts if len(c)]
    if not every:
        return pd.DataFrame({"column": pd.Series(dtype=object), "value": pd.Series(
            dtype=object), "rows": pd.Series(dtype=np.int64)})
    whole = pd.concat(every).groupby(["column", "value"], sort=True)["rows"].sum()
    return whole.astype(np.int64).reset_index()


def held_out(counts: pd.DataFrame) -> int:
    """How many calls an unknown ``direction`` held out of the whole audit."""
    return int(counts.loc[counts["column"] == "calls.direction", "rows"].sum())


def values_note(counts: pd.DataFrame) -> dict[str, str]:
    """The report's note on the values not understood (:func:`unread_counts`): each with
    its column, its count and the rules its rows were held out of; none where every value
    was understood."""
    if not len(counts):
        return {}
    said = []
    for row in counts.itertuples(index=False):
        frame, name = str(row.column).split(".", 1)
        rules = VOCABULARY[frame][name].held_out_of
        out = "not audited" if rules == ("every rule",) else "held out of " + " and ".join(
            rules)
        said.append(f"{row.column} {row.value!r} ({counted(int(row.rows), 'call')}: {out})")
    first = counts.iloc[0]
    return {HELD_OUT: "not understood, never read as a default: " + "; ".join(said)
            + "; map each to the value it means, e.g. "
            + mapping_hint(str(first["column"]), str(first["value"]))}


def mapping_hint(column: str, word: str, meaning: str | None = None) -> str:
    """How to map ``word`` of ``column`` (``calls.disposition``) to ``meaning`` (default:
    the column's first value, with the others named): ``values={'disposition':
    {'Hung Up': 'sale'}}``, the column by its bare name where that names it alone. The
    command line says it as ``--value disposition:'Hung Up'=sale``."""
    frame, name = column.split(".", 1)
    words = VOCABULARY[frame][name].values
    key = name if _bare_names(name) == [frame] else column
    said = f"values={{{key!r}: {{{word!r}: {meaning or words[0]!r}}}}}"
    return said if meaning else f"{said} ({name} one of {listed(words)})"


def listed(values: tuple[str, ...]) -> str:
    """``values`` as a message names them: the first :data:`LISTED` (the contract's come
    first), and how many more (the hangup causes are a hundred: docs/compliance.md
    names their sources)."""
    more = len(values) - LISTED
    return ", ".join(values[:LISTED]) + (f", and {more} more" if more > 0 else "")


def values_said(counts: pd.DataFrame) -> str:
    """What a report of no call says first where an unknown ``direction`` held calls out
    (:func:`held_out`): which values, and how to map them, not the period asked for."""
    of = counts[counts["column"] == "calls.direction"]
    words = ", ".join(f"{row.value!r} ({counted(int(row.rows), 'call')})"
                      for row in of.itertuples(index=False))
    return (f"0 CALLS AUDITED: the direction of {counted(held_out(counts), 'call')} was "
            f"not understood ({words}), so none was audited as outbound: map each, e.g. "
            + mapping_hint("calls.direction", str(of["value"].iloc[0]), "outbound"))


def _codes(column: pd.Series) -> list[object]:
    """The distinct values of ``column`` (:func:`_distinct`), kept while its Arrow data live
    (:func:`dialkit._arrays._kept.kept`): an audit asks them of each named column three
    or four times (read, held out, the live answers, the values not understood), 0.1 s of
    a million calls each time."""
    source = arrow_data(column)
    if source is None:
        return _distinct(column)
    return list(kept("distinct values", source, lambda: _distinct(column)))


def _distinct(column: pd.Series) -> list[object]:
    """The distinct values of ``column`` (a category's categories it holds: a Dask meta's
    placeholder category, or one no row holds, is none), no empty one."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        codes = column.cat.codes.to_numpy()
        return list(column.cat.categories[np.unique(codes[codes >= 0])])
    return list(pd.unique(column.dropna()))


def _known(words: Words) -> dict[str, str | None]:
    """Each word ``words`` knows, as :func:`alike` reads it, to the value it means."""
    return {**words.also, **{alike(word): word for word in words.values}}


def _mapped(values: Values, frame: str, name: str, words: Words) -> dict[str, str | None]:
    """The user's words for ``frame.name`` (:data:`Values`), each as :func:`alike` compares
    it, to the value it means; a meaning that is no value of the column refused."""
    given = {} if values is None else dict(values.get(f"{frame}.{name}") or {})
    if values is not None and _bare_names(name) == [frame]:
        given = {**(values.get(name) or {}), **given}
    return {alike(word): _meaning(meant, words, f"{frame}.{name}", word)
            for word, meant in given.items()}


def _meaning(meant: str | None, words: Words, column: str, word: object) -> str | None:
    """The value ``meant`` names of ``words`` (None: no value, an empty cell); refused
    where it names none."""
    if meant is None or not str(meant).strip():
        return None
    known = _known(words)
    if alike(meant) not in known:
        raise AuditInputError(f"values= maps {column} {word!r} to {meant!r}, no value of "
                              f"it: map it to one of {listed(words.values)} (or to "
                              "nothing: an empty cell)")
    return known[alike(meant)]


def _bare_names(name: str) -> list[str]:
    """The frames whose named column ``name`` is: a bare name means the column where one
    frame has it (``disposition``), and must be written whole where several do
    (``status``: ``calls.status`` or ``leads.status``)."""
    return [frame for frame, columns in VOCABULARY.items() if name in columns]


def checked_values(values: Values) -> Values:
    """``values`` as given, each key checked to name one named column (``disposition``,
    ``calls.status``); refused, naming the key, where it names none or several."""
    for key, words in (values or {}).items():
        frame, _, name = key.rpartition(".")
        frames = _bare_names(name)
        if (frame and frame not in frames) or not frames:
            raise AuditInputError(f"values= names {key!r}, no named column of the audit's "
                                  f"inputs: pass one of {', '.join(_every_column())}")
        if not frame and len(frames) > 1:
            raise AuditInputError(f"values= names {key!r}, a column of "
                                  f"{' and '.join(frames)}: write which, "
                                  f"{' or '.join(f'{f}.{name}' for f in frames)}")
        if not isinstance(words, Mapping):
            raise AuditInputError(f"values={{{key!r}: ...}} is no mapping: pass each word "
                                  "as written and its meaning, {'Sale Made': 'sale'}")
        for each in [frame] if frame else frames:
            for word, meant in words.items():
                _meaning(meant, VOCABULARY[each][name], f"{each}.{name}", word)
    return values


def _every_column() -> list[str]:
    return [f"{frame}.{name}" for frame, columns in VOCABULARY.items() for name in columns]


def _refuse_unknown(column: pd.Series, read_as: Mapping[object, str | None], words: Words,
                    frame: str, name: str) -> None:
    """Refuse a record's column holding values not understood, naming each with its rows
    (the first few) and how to map it."""
    wrong = [code for code, meant in read_as.items() if meant is not None
             and meant not in words.values]
    if not wrong:
        return
    counts = pd.Series(column.astype(object)).dropna().map(read_as).value_counts()
    said = ", ".join(f"{code!r} ({counted(int(counts.get(read_as[code], 0)), 'row')})"
                     for code in wrong[:5])
    hint = (mapping_hint(f"{frame}.{name}", str(wrong[0]), words.values[0])
            if frame in VOCABULARY and name in VOCABULARY[frame] else "")
    raise AuditInputError(f"{frame}.{name} holds {wrong[0]!r}: pass one of "
                          f"{', '.join(words.values)} (in any case)"
                          + (f", or map each, e.g. {hint}" if hint else "")
                          + f" (not understood: {said})", frame=frame)


def _rewritten(column: pd.Series, read_as: Mapping[object, str | None]) -> pd.Series:
    """``column`` with each value rewritten as ``read_as`` reads it, of its own type where
    it can keep it (a category's categories renamed, text kept text)."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        renamed = [read_as.get(code, code) for code in column.cat.categories]
        if None not in renamed and len(set(renamed)) == len(renamed):
            return column.cat.rename_categories(renamed)
        return column.astype(object).map(read_as).astype("category")
    mapped = column.astype(object).map(lambda value: value if pd.isna(value)
                                       else read_as[value])
    if isinstance(column.dtype, pd.StringDtype):
        return mapped.astype(column.dtype)
    return mapped


def named(column: pd.Series, allowed: tuple[str, ...], frame: str, name: str) -> pd.Series:
    """A column of named values outside :data:`VOCABULARY` (a callback's ``status``): read
    as :func:`read` reads a record's column, of the values ``allowed``."""
    return _read(column, Words(allowed), frame, name, None)
