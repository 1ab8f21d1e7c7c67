"""The audit in parts, for Dask: the pandas path's functions over partitions of the frames.

Every rule but one looks at one number at a time (its calls, its leads, its DNC results),
so the audit of a partition that holds all rows of some numbers is those numbers' share
of the whole audit (:func:`numbers_part`, which is the pandas path's
:func:`.._part.audited`). The one exception is abandonment, whose rate is over a
campaign's answered calls: :func:`campaign_part` finds each abandoned call's window over
a partition that holds whole campaigns, and the report judges the windows, which are few,
with the abandoned calls each part made ready (:func:`.._run.report`), so that no part
waits for them. The functions here only prepare partitions (the pandas path's
``prepared_*`` functions, plus each row's place in the frame and the key it is shuffled
on) and hand them to the pandas path; :mod:`._dask` builds the Dask graph of them.

What goes through the shuffles is what the rules read, no more (the shuffles were most
of the Dask audit's time): the calls' other columns (status, duration, hangup cause)
only for the calls that may be abandoned, whose rows the report gives whole
(:func:`rest_part`); of the leads and DNC results, the columns the rules read (the
leads' others are not even read); text of few values (campaign, caller id, disposition)
as categories; the number as an integer, which Dask hashes for every row it shuffles.
:func:`numbers_part` gives the pandas path the frames as pandas has them again.

Rows are put back in the frame's order (:data:`ORDER`) before a part runs, so that what
depends on order (the first lead of a number, ties in time) is decided as on pandas.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ..._arrays._bools import arrow_bools
from ..._parallel._partitions import Plan, register
from ..._utils._base_error import AuditInputError
from .._checks import _abandonment as abandonment
from .._checks._lead_of import numbers_held, other_numbers, smallest_linked
from .._checks._ring import RING_COLUMNS
from .._checks._texts import CHANNEL, calls_only, refuse_shared_ids, texts_as_calls
from .._inputs._declared import declared
from .._inputs._once import ID, call_keys, kept, repeats
from .._inputs._prepared import prepared_calls, prepared_dnc, prepared_leads
from .._inputs._vocabulary import VOCABULARY, Values, read_named, unread_counts
from .._part import Options, Part, audited
from .._rows import FEW_VALUED, READ_COLUMNS, answered_calls, outbound_rows
from .._rules._rules import Rules
from .._run import report

NUMBER = "_number"
"""The column the calls, leads and DNC results are shuffled on: the number called
as an integer (:func:`number_key`)."""
CAMPAIGN = "_campaign"
"""The column the answered calls are shuffled on: their ``campaign_id``, no campaign as
``""`` (as abandonment groups it)."""
ORDER = "_order"
"""Each call's and lead's place in its frame: partition number, then row."""
_ROWS_PER_PARTITION = 2**32
CHANNELS = pd.CategoricalDtype(["call", "text"])
"""The type of :data:`._texts.CHANNEL` on Dask: a category, a byte a row through the
shuffle, of the same categories in the calls' partitions and the texts'."""


def outbound_part(calls: pd.DataFrame, *, campaigns: frozenset[str] | None,
                  links: pd.Series | None = None, found: pd.DataFrame | None = None,
                  values: Values = None,
                  partition_info: dict[str, Any] | None = None) -> pd.DataFrame:
    """A partition's outbound calls (of ``campaigns``, if given), prepared, with every
    column and their :data:`ORDER`: what :func:`calls_part`, :func:`rest_part` and
    :func:`answered_part` take their shares from. A call's repeated rows ``found``
    (:data:`REPEATS`) are read once, as :func:`._once.once_each` reads them on pandas;
    the named columns read with the user's ``values``."""
    prepared = prepared_calls(calls, values)
    rows = outbound_rows(prepared, campaigns)
    keep = None if found is None else kept(
        prepared, _ordinals(np.arange(len(prepared)), partition_info), found)
    rows = rows if keep is None else rows[keep[rows]]
    taken = prepared if len(rows) == len(prepared) else prepared.take(rows)
    return taken.assign(**{ORDER: _ordinals(rows, partition_info),
                           NUMBER: linked(number_key(taken["to_number"]), links)})


def keys_part(calls: pd.DataFrame, values: Values = None,
              partition_info: dict[str, Any] | None = None) -> pd.DataFrame:
    """A partition's calls as hashes of their ids and rows (:func:`._once.call_keys`),
    each row's place its :data:`ORDER`: shuffled on the id, every row of a call meets in
    one part of :data:`REPEATS`."""
    prepared = prepared_calls(calls, values)
    return call_keys(prepared, _ordinals(np.arange(len(prepared)), partition_info))


def unread_part(calls: pd.DataFrame, values: Values = None) -> pd.DataFrame:
    """A partition's calls' values not understood, counted
    (:func:`.._inputs._vocabulary.unread_counts`): its named columns alone read, each by
    its distinct values (the rest of the calls is prepared by :func:`outbound_part`)."""
    named = calls[[c for c in VOCABULARY["calls"] if c in calls]].copy()
    return unread_counts(read_named(named, "calls", values), "calls")


def every_repeat(found: pd.DataFrame) -> pd.DataFrame:
    """The repeats every part of :data:`REPEATS` found, stacked (a few rows: those of
    calls held more than once)."""
    return found


def called_part(calls: pd.DataFrame, *, texts: pd.DataFrame) -> pd.DataFrame:
    """A partition of the calls with their :data:`._texts.CHANNEL`, ``call``, for the
    texts' rows (:func:`texts_part`) to follow them; a call that shares its id with one
    of the ``texts`` is refused, as the pandas path refuses it."""
    try:
        refuse_shared_ids(calls["id"], texts)
    except ValueError as error:
        raise AuditInputError(str(error), frame="texts") from None
    return calls.assign(**{CHANNEL: pd.Categorical.from_codes(
        np.zeros(len(calls), np.int8), dtype=CHANNELS)})


def held_part(leads: pd.DataFrame, *, numbers: list[str],
              campaigns: frozenset[str] | None, values: Values = None) -> pd.DataFrame:
    """The ``phone`` and ``campaign_id`` of each of ``numbers`` (the texts') a partition's
    leads (of ``campaigns``, if given) hold, as their own or a person's other number
    (:func:`._lead_of.numbers_held`): every partition's, stacked, tell each text's
    campaign (:func:`texts_part`)."""
    prepared = prepared_leads(leads.reset_index(drop=True), campaigns, values)
    assert prepared is not None
    return numbers_held(prepared, numbers)


def texts_part(texts: pd.DataFrame, like: pd.DataFrame,
               held: list[pd.DataFrame] | None) -> pd.DataFrame:
    """The texts as outbound calls (:func:`._texts.texts_as_calls`), typed as the calls'
    ``like`` (their prepared meta), their campaigns told by the leads ``held``
    (:func:`held_part` of every partition; None: no leads given): the partition that
    follows the calls', so that each text's :data:`ORDER` follows theirs, as its row
    follows them on pandas."""
    leads = None if held is None else pd.concat(held, ignore_index=True)
    rows = texts_as_calls(texts, like, leads)
    return rows.astype({CHANNEL: CHANNELS})


def links_part(leads: pd.DataFrame) -> pd.DataFrame:
    """A partition's pairs of numbers of one person: each lead's other numbers
    (:func:`._lead_of.other_numbers`) and its own, as :func:`number_key` keys."""
    others = other_numbers(leads.reset_index(drop=True))
    return pd.DataFrame({"number": number_key(others["number"]),
                         "own": number_key(others["phone"])})


def person_links(pairs: list[pd.DataFrame]) -> pd.Series:
    """Each number linked to another as one person's (:func:`links_part`'s pairs of every
    partition), mapped to the smallest key of all the numbers so linked, directly or
    through others (:func:`._lead_of.smallest_linked`, over keys sorted as numbers):
    shuffled on it (:func:`linked`), every call, lead and DNC result of a person's
    numbers meets in one part, so that a state's cap counts the person's calls
    (:func:`._frequency.call_frequency`) and the policy's the number's, as on pandas."""
    both = pd.concat(pairs)
    ends = np.r_[both["number"].to_numpy(np.int64), both["own"].to_numpy(np.int64)]
    node, keys = pd.factorize(ends, sort=True)
    person = smallest_linked(node[:len(both)], node[len(both):], len(keys))
    return pd.Series(keys[person], index=keys, dtype=np.int64)


def linked(key: Any, links: pd.Series | None) -> Any:
    """The :data:`NUMBER` of each number key: its person's smallest key (``links``:
    :func:`person_links`), itself where it is linked to none."""
    if links is None or not len(links):
        return key
    at = links.index.get_indexer(key)
    return np.where(at >= 0, links.to_numpy()[at], key)


def calls_part(outbound: pd.DataFrame) -> pd.DataFrame:
    """The columns of :func:`outbound_part`'s calls the rules read, with their
    :data:`ORDER` and :data:`NUMBER`."""
    return _compact(outbound[[c for c in outbound.columns if c in (*READ_COLUMNS, ORDER, NUMBER)]])


def rest_part(outbound: pd.DataFrame, *, rules: Rules) -> pd.DataFrame:
    """The columns the rules do not read of :func:`outbound_part`'s calls that may be
    abandoned, told either way (whether the calls hold join times is known only once
    every partition is read), with their :data:`ORDER` and :data:`NUMBER`: the report
    lists every abandoned call whole."""
    answered = answered_calls(outbound, np.arange(len(outbound)), rules)
    maybe = abandonment.dropped(answered, rules, False)
    if "agent_joined_at" in answered:
        maybe = maybe | abandonment.dropped(answered, rules, True)
    return outbound[[c for c in outbound.columns if c not in READ_COLUMNS]].iloc[
        answered.index.to_numpy()[maybe]]


def read_columns(columns: Collection[str], name: str) -> list[str]:
    """Of the frame ``name``'s ``columns``, those its declaration says the audit reads
    (:data:`._declared.INPUTS`, which the pandas path checks them by): a column the Dask
    path chose apart (the leads' ``line``, the DNC results' ``list``) was judged on pandas
    and dropped here."""
    read = declared(name)
    return [c for c in columns if c in read]


def leads_part(leads: pd.DataFrame, *, campaigns: frozenset[str] | None,
               links: pd.Series | None = None, values: Values = None,
               partition_info: dict[str, Any] | None = None) -> pd.DataFrame:
    """A partition's leads (of ``campaigns``, if given; the columns of
    :func:`read_columns`), prepared, with their :data:`ORDER` and :data:`NUMBER`."""
    prepared = prepared_leads(leads.reset_index(drop=True), campaigns, values)
    assert prepared is not None
    return _compact(prepared.reset_index(drop=True).assign(**{
        ORDER: _ordinals(prepared.index.to_numpy(), partition_info),
        NUMBER: linked(number_key(prepared["phone"]), links)}))


def dnc_part(dnc: pd.DataFrame, *, links: pd.Series | None = None,
             values: Values = None) -> pd.DataFrame:
    """A partition's DNC results, prepared, the columns the rules read, with their
    :data:`NUMBER`."""
    prepared = prepared_dnc(dnc, values)
    assert prepared is not None
    return prepared[read_columns(prepared.columns, "dnc")].assign(
        **{NUMBER: linked(number_key(prepared["phone"]), links)})


def answered_part(outbound: pd.DataFrame, *, rules: Rules) -> pd.DataFrame:
    """The calls answered by a live person of a partition of :func:`outbound_part`, with
    the columns abandonment reads (the number's law row, not the number),
    ``campaign_id`` as :data:`CAMPAIGN`, their :data:`ORDER` and :data:`NUMBER`."""
    answered = answered_calls(outbound, np.arange(len(outbound)), rules)
    at = answered.index.to_numpy()
    campaign = answered["campaign_id"].fillna("")
    return _compact(answered.drop(columns=["campaign_id", "to_number"])).reset_index(
        drop=True).assign(**{
        ORDER: outbound[ORDER].to_numpy()[at], NUMBER: outbound[NUMBER].to_numpy()[at],
        CAMPAIGN: campaign.array})


def opened_part(outbound: pd.DataFrame) -> pd.DataFrame:
    """Each campaign's first call in a partition of :func:`outbound_part`
    (:func:`._abandonment.first_calls`), not text: every part's, stacked, start the law's
    periods."""
    return abandonment.first_calls(calls_only(outbound))  # a text starts no period


def campaign_part(answered: pd.DataFrame, *, rules: Rules, joined: bool,
                  opened: list[pd.DataFrame]) -> pd.DataFrame:
    """The windows of the abandoned calls among ``answered`` (:func:`answered_part`'s rows
    of whole campaigns), with their :data:`ORDER`; ``opened``: every partition's
    :func:`opened_part`."""
    answered = _in_order(answered).rename(columns={CAMPAIGN: "campaign_id"})
    windows = abandonment.abandonment_windows(answered, rules, bool(joined),
                                              pd.concat(opened, ignore_index=True))
    return windows.reset_index(drop=True).assign(
        **{ORDER: answered[ORDER].to_numpy()[windows.index.to_numpy()]})


def numbers_part(calls: pd.DataFrame, rest: pd.DataFrame, leads: pd.DataFrame | None,
                 dnc: pd.DataFrame | None, *, options: Options, joined: bool,
                 shapes: Mapping[str, pd.Series]) -> Part:
    """The audit of the numbers of a partition: all their outbound calls
    (:func:`calls_part`, with :func:`rest_part`'s columns where it has them), leads and
    DNC results, each as pandas has them (``shapes``: each frame's columns and their
    types, in order); the dropped calls indexed by their :data:`ORDER`, as the windows
    are (:func:`every_window`). It needs no window: it starts as soon as its numbers'
    rows are shuffled here, so that they do not wait in memory for every campaign's."""
    calls = _in_order(calls)
    order = calls[ORDER].to_numpy()
    whole = pd.Index(rest[ORDER]).get_indexer(order)
    calls = _as_given(calls.assign(**{c: rest[c].array.take(whole, allow_fill=True)
                                      for c in shapes["calls"].index if c not in calls}),
                      shapes["calls"])
    maybe = np.flatnonzero(whole >= 0)
    dropped = maybe[abandonment.dropped(calls.iloc[maybe], options.rules, bool(joined))]
    part = audited(calls, np.arange(len(calls)),
                   None if leads is None else _as_given(_in_order(leads), shapes["leads"]),
                   None if dnc is None else _as_given(dnc, shapes["dnc"]), dropped,
                   options=options, joined=bool(joined))
    return Part(part.findings, part.dropped.set_axis(order[part.dropped.index.to_numpy()]),
                part.population, part.reached, part.banned, part.unjudged)


def number_key(numbers: pd.Series) -> Any:
    """Each number as an integer to shuffle on, equal for equal texts: an E.164 number's
    digits (Dask hashes the key of every row it shuffles, an integer some fifteen times
    faster than a text); another text's hash; 0 for none. Two numbers may share a key
    (``+0123`` and ``+123``): they then share a partition, which is all a key decides."""
    text = pa.array(numbers.array, pa.string(), from_pandas=True)
    digits = pc.utf8_slice_codeunits(text, 1)
    plain = pc.and_kleene(pc.and_kleene(pc.starts_with(text, "+"), pc.ascii_is_decimal(digits)),
                          pc.less_equal(pc.utf8_length(digits), 18))
    plain = arrow_bools(plain)
    key = np.zeros(len(text), np.int64)
    key[plain] = np.asarray(pc.cast(digits.filter(pa.array(plain)), pa.int64()))
    other = np.flatnonzero(~plain & arrow_bools(text.is_valid()))
    if len(other):
        key[other] = pd.util.hash_array(np.asarray(text.take(pa.array(other)), object)
                                        ).view(np.int64)
    return key


def _compact(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with its text columns of few values (:data:`.._rows.FEW_VALUED`) as
    categories: a byte or two a row through the shuffles instead of the text."""
    return frame.astype({c: "category" for c in (*FEW_VALUED, *RING_COLUMNS) if c in frame
                         and not isinstance(frame[c].dtype, pd.CategoricalDtype)})


def _as_given(frame: pd.DataFrame, dtypes: pd.Series) -> pd.DataFrame:
    """A shuffled frame as pandas has it: its columns of ``dtypes`` in their order, a
    category back as its text. A frame's ``astype`` and ``assign`` copy it even where
    nothing changes (the leads' and DNC results' as given: 4 against 2 ms a part, every
    part), so they run only where something does."""
    kept = [c for c in dtypes.index if c in frame]
    changed = {c: dtypes[c] for c in kept if frame[c].dtype != dtypes[c]
               and not isinstance(dtypes[c], pd.CategoricalDtype)}
    texts = {c: _text_of(frame[c], changed.pop(c)) for c in list(changed)
             if isinstance(changed[c], pd.StringDtype)
             and isinstance(frame[c].dtype, pd.CategoricalDtype)}
    given = frame[kept]
    given = given.astype(changed) if changed else given
    return given.assign(**texts) if texts else given


def _text_of(column: pd.Series, dtype: pd.StringDtype) -> pd.Series:
    """A category column as text of ``dtype``: its categories' text taken by its codes, where
    ``astype`` made a Python object of every row first (0.17 of a part's 0.7 s at
    210,000 calls)."""
    text = pd.array(column.cat.categories, dtype=dtype).take(column.cat.codes.to_numpy(),
                                                              allow_fill=True)
    return pd.Series(text, index=column.index, name=column.name)


def _in_order(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame``'s rows in their frame's order (:data:`ORDER`), indexed by position; a
    shuffle mostly keeps them so, and then nothing is copied."""
    if frame[ORDER].is_monotonic_increasing:
        return frame.reset_index(drop=True)
    return frame.sort_values(ORDER, kind="stable", ignore_index=True)


def _ordinals(rows: np.ndarray[Any, Any], partition_info: dict[str, Any] | None) -> Any:
    """The :data:`ORDER` of a partition's ``rows``."""
    number = 0 if partition_info is None else int(partition_info["number"])
    return rows.astype(np.int64) + number * _ROWS_PER_PARTITION


def every_window(windows: pd.DataFrame, *, rules: Rules, joined: bool,
                 opened: list[pd.DataFrame]) -> pd.DataFrame:
    """The windows of every campaign (the parts' stacked; each campaign's are in one
    part), indexed by their calls' :data:`ORDER`, as :func:`numbers_part`'s dropped calls
    are: the report judges them together."""
    return windows.set_index(ORDER)[list(abandonment.WINDOW_COLUMNS)]


REPEATS = register(Plan("audit:repeats", repeats, every_repeat, key=ID))
"""The calls' repeated rows (:mod:`._once`), call id by call id."""
WINDOWS = register(Plan("audit:abandonment", campaign_part, every_window, key=CAMPAIGN))
"""The abandoned calls' windows, campaign by campaign."""
AUDIT = register(Plan("audit", numbers_part, report, key=NUMBER, stacked=False))
"""The audit, number by number."""
