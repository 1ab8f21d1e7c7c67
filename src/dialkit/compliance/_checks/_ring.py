"""The ring rule: an unanswered call the dialer hung up on before it had rung long enough.

16 CFR 310.4(b)(4)(ii) and 47 CFR 64.1200(a)(6): an unanswered telemarketing call must
ring "for at least fifteen seconds or four rings" before it is disconnected. The calls
carry no ring start, only ``created_at`` and ``ended_at``: the whole time from the call's
creation to its end counts as ringing, so a call that ended sooner certainly rang less
(a finding is certain), a longer one may still have rung less (not found). A call the
callee or the network ended (busy, rejected, failed, no route) or an answering machine
took was not disconnected by the dialer and is not judged: its status, its disposition or
its hangup cause says so, each read for who ended the call (the causes by the table of
:mod:`.._inputs._words._causes`: Q.850, the switches' own, SIP's responses). A call the dialer
cancelled (``originator_cancel``, SIP 487, a ``canceled`` status) or let ring unanswered
(``no_answer``, ``allotted_timeout``) is judged, and so is one whose cause does not say
who ended it, the stricter reading. The ring time is the place called's
(:mod:`dialkit._law._abandonment`): only rows that set one judge.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from ..._phones._zones import Rows, regions_among
from ...contract import CallStatus
from .._inputs._vocabulary import unread
from .._inputs._words import _causes as causes
from .._inputs._words._dialer_words import ANSWERING_MACHINE
from .._rules._rules import Rules
from ._abandonment import places
from ._findings import findings

RING_COLUMNS = ("status", "hangup_cause", "disposition")
"""The calls' columns that say who ended an unanswered call, where the calls have them; a
call whose value of any is not understood (:func:`._inputs._vocabulary.unread`) is held
out, not judged: a dialer's ``Busy`` read as nothing made a busy line's 3 s a breach."""
ENDED_BY_CALLEE = {
    "status": frozenset(status.value for status in (
        CallStatus.BUSY, CallStatus.FAILED, CallStatus.VOICEMAIL)),
    "disposition": frozenset((ANSWERING_MACHINE, "busy", "failed")),
    "hangup_cause": causes.not_the_callers()}
"""Each of :data:`RING_COLUMNS`' values of a call the callee, the network or an answering
machine ended, not the dialer (as the vocabulary reads them)."""


def short_ring(calls: pd.DataFrame, rules: Rules,
               causes: Callable[[Rows], pd.DataFrame]) -> pd.DataFrame:
    """Unanswered outbound calls (the audit's columns: ``phone``, ``at``) that ended before
    their place's ring time, one finding each, with ``rang_seconds``. Whole columns: the
    few calls that ended soon are found first, then their place and who ended them
    (``causes``: the :data:`RING_COLUMNS` of the calls at some positions)."""
    rang = (calls["ended_at"] - calls["at"]).dt.total_seconds().to_numpy(
        dtype=float, na_value=np.nan)
    unanswered = calls["answered_at"].isna().to_numpy(dtype=bool)
    hits = []
    for row in (row for row in places(rules) if row.ring_seconds is not None):
        soon = unanswered & (rang < row.ring_seconds)  # NaN (no end) is not soon
        at, _ = regions_among(calls["phone"], row.regions)
        mine = at[soon[at]]
        found = calls.iloc[mine]
        keep = ~_ended_by_callee(causes(mine), len(mine))
        found = found[keep].assign(jurisdiction=row.id, decided_by="number", basis="law",
                                   policy=None, citation=row.ring_citation)
        seconds = pd.Series(rang[mine][keep], index=found.index)
        evidence = ("unanswered, and disconnected " + seconds.round(1).astype(str)
                    + f" s after it was placed: less than the {row.ring_seconds:g} s an "
                    "unanswered call must ring (the time from placing to ending counted "
                    "as ringing: no ring start is recorded)")
        hits.append(findings("short_ring", found, evidence, rang_seconds=seconds))
    return pd.concat(hits) if hits else findings(
        "short_ring", calls.iloc[:0], pd.Series([], dtype=object),
        rang_seconds=pd.Series([], dtype=float))


def _ended_by_callee(calls: pd.DataFrame, count: int) -> np.ndarray:
    """Which of ``count`` calls' status or hangup cause says the callee or the network
    ended them, or holds them out of the rule (a value of :data:`RING_COLUMNS` not
    understood): none where the calls have no such column (``calls``, a frame of no
    column, has no rows then: the count is the calls')."""
    ended = np.zeros(count, bool)
    for column in (c for c in RING_COLUMNS if c in calls):
        ended |= unread(calls[column], "calls", column)
        text = calls[column].astype("string")
        ended |= text.isin(ENDED_BY_CALLEE[column]).fillna(False).to_numpy(dtype=bool)
    return ended
