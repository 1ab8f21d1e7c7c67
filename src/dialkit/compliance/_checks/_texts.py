"""The account's texts, audited as the calls they are in law.

A marketing text is a call under the TCPA: the FCC has held since 2003 that its rules on
calls to wireless numbers "apply to any type of call, including both voice and text
calls" (FCC 04-194), and 47 CFR 64.1200(e) applies the calling hours and the Do-Not-Call
rules of 64.1200(c) and (d) to telephone solicitations to wireless numbers. So each text
of the SMS frame (``client.frames.sms_reports()``) becomes an outbound call row the
audit's rules read: to ``to``, at ``created_at``, never answered, from no caller id the
data show, of the campaign of the leads that hold its number where one campaign's do.

The rules of a contact apply to it (calling hours and days, the caps, Do-Not-Call, a
blocked country, consent); the rules of a voice call do not: a text shows a sender, not
a caller line (``caller_id``), is never answered or abandoned (``abandonment``) and does
not ring (``short_ring``). A text the service refused never left and is not in the
frame; one that failed at the carrier was still initiated, which is what the rules
forbid, so it is audited, its evidence saying it failed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from ..._arrays._groups import isin
from ..._shown._words import counted
from .._inputs._load import UNREAD
from .._inputs._options import spelled
from ._lead_of import numbers_held

if TYPE_CHECKING:
    pass

CHANNEL = "channel"
"""The findings' column that says whether a finding's contact was a ``call`` or a
``text`` (missing for a lead's finding, which is of no contact)."""
TEXTED = ("; a text message, judged as a call (47 CFR 64.1200(e); FCC 04-194: the rules "
          "apply 'to any type of call, including both voice and text calls'; a state's "
          "row is applied to texts as to calls)")
"""What every finding of a text adds to its evidence."""
COUNTED_TEXTS = ("; the contacts counted include {} (a text is a call: 47 CFR 64.1200(e); "
                 "FCC 04-194)")
"""What the guard's refusal by a cap adds where the contacts it counted include texts
(:mod:`._guard`), the number of them in its place."""
NOT_GIVEN = f"not audited: pass {spelled('texts')}"


def texts_as_calls(texts: pd.DataFrame, calls: pd.DataFrame,
                   leads: pd.DataFrame | None) -> pd.DataFrame:
    """``calls`` (prepared: times in UTC) with a row after them per text (prepared
    likewise): outbound, to ``to`` at ``created_at``, its ``id`` the message's, its
    campaign told by the leads (:func:`_campaigns`), every other column empty; and
    :data:`CHANNEL` (``call``, ``text``). Each column keeps the calls' type (a
    categorical's categories joined), so the rules read the rows as they read calls."""
    ids = texts["message_id"]
    refuse_shared_ids(calls["id"], texts)
    said = {"id": ids, "direction": "outbound", "to_number": texts["to"],
            "created_at": texts["created_at"], "campaign_id": _campaigns(texts["to"], leads)}
    rows = pd.DataFrame({column: _typed(said.get(column), calls[column], len(texts))
                         for column in calls.columns})
    stacked = {column: _stacked(calls[column], rows[column]) for column in calls.columns}
    channel = np.repeat(np.array(["call", "text"], object), [len(calls), len(texts)])
    return pd.DataFrame({**stacked, CHANNEL: channel}, copy=False)


def refuse_shared_ids(ids: pd.Series, texts: pd.DataFrame) -> None:
    """Refuse calls (their ``ids``) that share an id with a text: each finding names its
    contact by id, and its channel by whether the id is a text's (:func:`with_channel`).

    Raises:
        ValueError: One of ``ids`` is a text's ``message_id``.
    """
    if isin(ids, texts["message_id"].dropna().astype(str).tolist()).any():
        raise ValueError("texts.message_id holds an id of calls.id: a text and a call "
                         "cannot share an id; pass the texts of client.frames.sms_reports()")


def _typed(values: pd.Series | str | None, like: pd.Series, size: int) -> pd.Series:
    """A text row column: ``values`` (one text, a column, or none) as ``like``'s type."""
    if values is None or isinstance(values, str):
        column = pd.Series([values] * size, dtype=object)
    else:
        column = values.reset_index(drop=True)
    if isinstance(like.dtype, pd.CategoricalDtype):  # categories of the calls' kind, to join
        kind = like.dtype.categories.dtype  # (text: an empty or all-null column infers none)
        return column.astype(pd.CategoricalDtype(pd.Index(column.dropna().unique()).astype(kind)))
    return column.astype(like.dtype)


def _stacked(calls: pd.Series, rows: pd.Series) -> pd.Series:
    """A column of the calls and of the text rows as one, of the calls' type (a
    categorical's categories joined, not turned into text)."""
    if isinstance(calls.dtype, pd.CategoricalDtype):
        joined = pd.api.types.union_categoricals([calls.array, rows.array],
                                                 ignore_order=True)
        return pd.Series(joined, name=calls.name)
    return pd.concat([calls, rows], ignore_index=True)


def _campaigns(to: pd.Series, leads: pd.DataFrame | None) -> pd.Series:
    """Each text's campaign: that of the leads holding its number (as their own or as one
    of the person's other numbers: :func:`._lead_of.numbers_held`) where they are of one
    campaign (a text carries none; its lead's campaign is the subject a cap counts it
    under and where its lead, and so the person's address, is found); else none."""
    if leads is None:
        return pd.Series(None, index=to.index, dtype=object)
    held = numbers_held(leads, to.dropna().astype(str).unique().tolist()).drop_duplicates()
    by_number = held.groupby("phone")["campaign_id"]
    one = by_number.first()[by_number.size() == 1]
    return to.astype(object).map(one).astype(object).where(lambda c: c.notna(), None)


def texts_counted(population: pd.DataFrame, outbound: pd.DataFrame) -> pd.DataFrame:
    """The population of the calls (:func:`._population.population_of` of the calls
    alone) with ``texts``: per campaign, the texts among ``outbound``; where no text was
    audited (no :data:`CHANNEL` column), as it is."""
    if CHANNEL not in outbound:
        return population
    texted = outbound.loc[outbound[CHANNEL].to_numpy(object) == "text", "campaign_id"]
    counts = texted.astype(object).value_counts(dropna=False).rename("texts")
    counts.index = counts.index.astype(population.index.dtype)  # one kind of key, as the calls'
    whole = population.join(counts.rename_axis("campaign_id"), how="outer")
    return whole.fillna(0).astype("int64").rename_axis("campaign_id").sort_index()


def calls_only(outbound: pd.DataFrame) -> pd.DataFrame:
    """The calls among the outbound rows, without the texts (for the rules of a voice
    call), their index kept: each finding names its row by position among them all."""
    if CHANNEL not in outbound:
        return outbound
    return outbound[outbound[CHANNEL].to_numpy(object) != "text"]


def with_channel(findings: pd.DataFrame, texts: pd.DataFrame | None) -> pd.DataFrame:
    """The findings with :data:`CHANNEL` after ``call_id``: ``text`` where the finding's
    ``call_id`` is a text's message id (its evidence saying it was a text, and how its
    delivery ended where it failed), ``call`` for another contact, missing for a lead's
    finding; ``texts`` as the audit prepared them (None: none were given)."""
    texted = np.zeros(len(findings), bool)
    if texts is not None and len(texts):
        texted = isin(findings["call_id"], texts["message_id"].dropna().astype(str).tolist())
    contact = findings["call_id"].notna().to_numpy(bool)
    channel = pd.Series(np.where(texted, "text", np.where(contact, "call", pd.NA)),
                        index=findings.index, dtype="str").where(contact)
    found = findings.assign(**{CHANNEL: channel})
    if texted.any() and texts is not None:
        found.loc[texted, "evidence"] = (found.loc[texted, "evidence"].astype(str)
                                         + _delivery(found.loc[texted, "call_id"], texts)
                                         + TEXTED)
    order = [*[c for c in findings.columns if c != CHANNEL]]
    order.insert(order.index("call_id") + 1, CHANNEL)
    return found[order]


def _delivery(ids: pd.Series, texts: pd.DataFrame) -> pd.Series:
    """How each text's delivery ended, in words, where it failed: "" else."""
    if "status" not in texts:
        return pd.Series("", index=ids.index, dtype=object)
    by_id = texts.drop_duplicates("message_id").set_index("message_id")
    status = ids.astype(object).map(by_id["status"].astype(object))
    code = ids.astype(object).map(by_id["error_code"].astype(object)) if (
        "error_code" in by_id) else pd.Series(None, index=ids.index, dtype=object)
    failed = status.isin(("failed", "undelivered", "rejected")).to_numpy(bool)
    said = ("; its delivery " + status.astype(str) + np.where(
        code.notna(), " (" + code.astype(str) + ")", "") + ": it was sent all the same, "
        "and sending it is what the rule forbids")
    return pd.Series(np.where(failed, said, ""), index=ids.index, dtype=object)


def texts_note(texts: pd.DataFrame | None, audited: int) -> str:
    """The report's note on the texts: how many were audited and as what, or why none
    were (none given; :func:`~dialkit.compliance.load` could not read them)."""
    if texts is None:
        return NOT_GIVEN
    if UNREAD in texts.attrs:
        return f"not audited: {texts.attrs[UNREAD]}"
    return (f"{counted(audited, 'text')} audited as calls (47 CFR 64.1200(e)) by calling hours, "
            "call_frequency, dnc_call, blocked_country and no_written_consent; not by "
            "caller_id, short_ring or abandonment (a text shows a sender, does not ring "
            "and is never answered)")


