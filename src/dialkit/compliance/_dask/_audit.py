"""The audit on Dask: the pandas path's plans (:mod:`._parts`), run on partitions.

The graph: the calls' outbound rows (every column, their order); their answered rows
shuffled by campaign into the abandoned calls' windows (``PLANS["audit:abandonment"]``),
stacked into one frame; the outbound calls' columns the rules read, the other columns of
the calls that may be abandoned, the leads and DNC results shuffled by number into one
audit per partition (``PLANS["audit"]``), joined with the windows into the report on the
client. The windows are not shuffled to the numbers' parts: a part that waited for them
held its shuffled rows in memory until every campaign's were found. Whether the calls
hold agent join times is one Dask scalar that both shuffles' parts are given, so that
every partition tells abandonment one way. Each frame's rows and period for the
report's sources are summed from its partitions. The texts, where given, are call rows
in a partition after the calls' (:func:`_with_texts`), shuffled with them.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from ..._parallel._partitions import PLANS, is_dask, is_dataset
from ..._parallel._partitions_dask import combined, dd, delayed, frame, meta_of, run
from .._checks._lead_of import OTHER_PHONES
from .._checks._texts import CHANNEL
from .._inputs._population import source_words, sources_of, span_of
from .._inputs._prepared import prepared_calls, prepared_dnc, prepared_leads
from .._inputs._vocabulary import summed_counts
from .._part import Options
from ._parts import (
    CHANNELS,
    NUMBER,
    ORDER,
    answered_part,
    called_part,
    calls_part,
    dnc_part,
    held_part,
    keys_part,
    leads_part,
    links_part,
    opened_part,
    outbound_part,
    person_links,
    read_columns,
    rest_part,
    texts_part,
    unread_part,
)


def audit(calls: Any, leads: Any, dnc: Any, options: Options, *, compute: bool) -> Any:
    """:func:`dialkit.compliance.audit` with some of its frames on Dask: the report, or
    with ``compute=False`` the ``dask.delayed`` object that computes to it."""
    given = {"calls": frame(calls, None, "calls", prepared_calls)}
    if leads is not None:
        whole = frame(leads, None, "leads", lambda m: prepared_leads(m, None))
        given["leads"] = frame(whole, read_columns(whole.columns, "leads"), "leads")
    if dnc is not None:
        given["dnc"] = frame(dnc, None, "dnc", prepared_dnc)
    links = None if leads is None else _links(given["leads"])
    texted = _with_texts(given["calls"], given.get("leads"), options)
    found = _repeats(given["calls"], options)
    outbound = _keyed(texted, outbound_part, links, campaigns=options.campaigns,
                      found=found, values=options.values)
    answered = outbound.map_partitions(answered_part, rules=options.rules)
    joined = (answered["agent_joined_at"].notnull().any() if "agent_joined_at" in answered
              else False)
    windows = combined(PLANS["audit:abandonment"], (answered,), rules=options.rules,
                       joined=joined, opened=outbound.map_partitions(opened_part))
    audited_leads = None if leads is None else _keyed(given["leads"], leads_part, links,
                                                      campaigns=options.campaigns,
                                                      values=options.values)
    audited_dnc = None if dnc is None else _keyed(given["dnc"], dnc_part, links,
                                                  values=options.values)
    metas = {"calls": _channel_as_text(outbound._meta.drop(columns=[ORDER, NUMBER])),
             "leads": None if leads is None else prepared_leads(given["leads"]._meta, None),
             "dnc": None if dnc is None else prepared_dnc(given["dnc"]._meta)}
    # each frame's columns and types as pandas has them, for the parts to give them back so
    shapes = {name: None if meta is None else meta.dtypes for name, meta in metas.items()}
    originals = {"calls": calls, "leads": leads, "dnc": dnc}
    sources = {name: _source(name, data, originals[name]) for name, data in given.items()}
    sources.update(sources_of({"texts": options.texts}))
    return run(PLANS["audit"], (outbound.map_partitions(calls_part),
                                outbound.map_partitions(rest_part, rules=options.rules),
                                audited_leads, audited_dnc),
               compute=compute, finish={"sources": sources, "windows": windows,
                                        "repeated": delayed(_again)(found),
                                        "unread": _unread(given["calls"], options)},
               options=options, joined=joined,
               to_parts={"shapes": shapes})


def _channel_as_text(calls: pd.DataFrame) -> pd.DataFrame:
    """The calls' meta with the texts' :data:`CHANNEL` as pandas has it, text of its
    categories' type, for the parts to give it back so (:func:`._parts.numbers_part`): a
    category through the shuffles (:data:`._parts.CHANNELS`), it stayed one in the
    abandoned calls, where pandas' are text (as the two engines compared showed)."""
    if CHANNEL not in calls:
        return calls
    return calls.astype({CHANNEL: CHANNELS.categories.dtype})


def _with_texts(calls: Any, leads: Any, options: Options) -> Any:
    """The calls with the texts after them as outbound calls, in a partition of their own
    (:func:`._parts.texts_part`), every row's channel a category, so that a text is
    shuffled to the calls of its person and audited with them; the calls as they are
    where no text was given. Each text's campaign is told by the leads that hold its
    number, searched in every partition of the leads (:func:`._parts.held_part`)."""
    texts = options.texts
    if texts is None or not len(texts):
        return calls
    called = calls.map_partitions(called_part, texts=texts,
                                  meta=called_part(meta_of(calls), texts=texts))
    held = None if leads is None else leads.map_partitions(
        held_part, numbers=texts["to"].dropna().astype(str).unique().tolist(),
        campaigns=options.campaigns, values=options.values,
        meta=held_part(meta_of(leads), numbers=[], campaigns=None)).to_delayed(
        optimize_graph=False)
    like = prepared_calls(meta_of(calls))
    rows = delayed(texts_part)(texts, like, held)
    return dd.concat([called, dd.from_delayed([rows], meta=texts_part(texts.head(0), like,
                                                                      None))])


def _links(leads: Any) -> Any:
    """The numbers the leads link as one person's (:func:`._parts.person_links`), as a
    ``dask.delayed`` Series; None where the leads' columns can name no other number."""
    if OTHER_PHONES not in leads.columns and "custom_fields" not in leads.columns:
        return None
    pairs = leads.map_partitions(links_part, meta=links_part(meta_of(leads)))
    return delayed(person_links)(pairs.to_delayed(optimize_graph=False))


def _keyed(data: Any, part: Any, links: Any, found: Any = None, **options: Any) -> Any:
    """``part`` mapped over ``data``'s partitions, its rows keyed by person (``links``,
    computed before the parts run) and the calls' repeats ``found`` read once; its meta
    from ``data``'s, for Dask cannot call it with ``links`` unknown."""
    meta = part(meta_of(data), **options)
    more = {} if found is None else {"found": found}
    return data.map_partitions(part, **options, links=links, **more, meta=meta)


def _repeats(calls: Any, options: Options) -> Any:
    """The calls' repeated rows (:data:`._parts.REPEATS`: each call's rows hashed and
    shuffled on its id, read as the pandas path reads them), as a ``dask.delayed``
    frame."""
    keys = calls.map_partitions(keys_part, values=options.values,
                                meta=keys_part(meta_of(calls)))
    return combined(PLANS["audit:repeats"], (keys,))


def _unread(calls: Any, options: Options) -> Any:
    """The calls' values not understood (:func:`.._inputs._vocabulary.unread_counts`),
    counted in each partition and summed, as a ``dask.delayed`` frame: the same rows the
    pandas path counts (every row given, before repeats are read once)."""
    counts = calls.map_partitions(unread_part, values=options.values,
                                  meta=unread_part(meta_of(calls)))
    return delayed(summed_counts)(counts.to_delayed(optimize_graph=False))


def _again(found: pd.DataFrame) -> int:
    """How many rows the repeats ``found`` read once."""
    return int(found["again"].sum())


def _source(name: str, data: Any, original: Any) -> Any:
    """The frame ``name`` in words (a ``dask.delayed`` text): its rows and period summed
    from its partitions, and where it came from (the dataset's path, or the pandas
    frame's ``attrs``)."""
    spans = data.map_partitions(span_of, name, meta=span_of(meta_of(data), name))
    attrs = ({"source": str(original)} if is_dataset(original)
             else {} if is_dask(original) else dict(original.attrs))
    return delayed(_words)(name, spans.to_delayed(optimize_graph=False), attrs)


def _words(name: str, spans: list[pd.DataFrame], attrs: dict[str, object]) -> str:
    """:func:`._population.source_words` over the partitions' ``spans``."""
    return source_words(name, pd.concat(spans), attrs)
