"""The problems planted on purpose in the seeded world's clean call history
(:mod:`._history`), one kind per rule the audit must find, each listed with its
ground truth in the ``planted`` table:

- ``outside_calling_hours``: a call moved to 06:00-07:45 or 21:15-23:30 local time,
  on the same local day, so it adds no other problem;
- ``dnc_call``: one more call to a listed number, a day or more after listing;
- ``abandoned``: an answered call nobody joined (``agent_joined_at`` null) or an
  agent joined 2.5-9 s late; never the lead's last call, so the lead's outcome stands;
  no more than 3% of any campaign's 30-day period's answered calls, so none is a
  finding, but for ``abandonment_period``: such calls clustered in one period, one more
  than its 3% (:mod:`._law._periods`), each a finding of 47 CFR 64.1200(a)(7);
- ``person_frequency``: four calls within one day to a Florida lead, the 1st and 3rd
  to its other number (its ``custom_fields``' ``other_phones``), the 2nd and 4th to its
  own: no number had more than three, but Fla. Stat. 501.616(6)(b) counts "more than
  three commercial telephone sales calls ... to a person over a 24-hour period on the
  same subject matter or issue, regardless of the phone number used": each call that is
  at least the fourth to the lead in 24 hours is a finding;
- ``dnc_grace``: a call to a number the registry listed a day before, with a check of
  the registry three days before the listing: within the safe harbor, no finding
  (:func:`registry_check`); ``dnc_call`` plants go to numbers of both lists;
- ``frequency``: a burst of four or five calls to one number within one day. The
  ground truth names *each call* that is at least the fourth outbound call to
  its number within the 24 hours up to and including it, with that count as
  ``detail.calls_in_24h``; the number is in ``phone``.

Each planted problem sits on a lead of its own, so no call is two problems
(except that a state's cap of three is the house rules' cap too: such a call
is listed as ``state_frequency`` and ``frequency``). Moved, burst and DNC calls go
to numbers whose place has no rule stricter than the federal one; the ``state_*``
kinds are planted by :mod:`._law._cases`.

What decides each kind (:data:`BASIS`): the law, but for ``frequency``, which no law
of those places forbids (federal law sets no cap): a finding of the account's policy
(``dialkit.compliance.HOUSE_RULES``: at most three calls a day), except a call that
is also ``state_frequency``, which the state's law decides; and for an
``outside_calling_hours`` call to a UK number, whose law sets no hours
(:func:`._kept_law._place.hours_basis`): the house rules' window's.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ._history import (
    ANSWERED_OUTCOMES,
    CONCLUSIVE,
    HOUR_MS,
    MINUTE_MS,
    NONE,
    UNALLOCATED,
    Calls,
    Frame,
    drawn_outcomes,
    finished,
    frequency_counts,
)
from ._kept_law import _periods as periods
from ._kept_law import _place as law
from ._kept_law import _plants as plants
from ._kept_law._cases import plan_cases
from ._numbers import COUNTRIES, DAY_MS, I64
from ._statuses import BUSY, COMPLETED, NO_ANSWER, VOICEMAIL

KINDS = (None, "outside_calling_hours", "dnc_call", "frequency", "abandoned", *law.KINDS,
         "split_zone_hours", "caller_id", "dnc_grace", "abandonment_period",
         "person_frequency")
CLEAN, OUTSIDE_HOURS, DNC_CALL, FREQUENCY, ABANDONED = range(5)
STATE_FREQUENCY = KINDS.index("state_frequency")
SPLIT_ZONE_HOURS, CALLER_ID = KINDS.index("split_zone_hours"), KINDS.index("caller_id")
DNC_GRACE, ABANDONMENT_PERIOD = KINDS.index("dnc_grace"), KINDS.index("abandonment_period")
PERSON_FREQUENCY = KINDS.index("person_frequency")
BASIS = {**dict.fromkeys(KINDS[1:], "law"), "frequency": "policy"}
"""What decides each planted kind: ``law``, or ``policy`` (the house rules' cap of three
calls a day) for ``frequency``, whose calls that are also ``state_frequency`` are law's."""


def plant(rng: np.random.Generator, frame: Frame, calls: Calls, listed_at: I64,
          listed_by: NDArray[np.str_], per_kind: int, per_case: int) -> Calls:
    """Plant ``per_kind`` problems of each federal kind and ``per_case`` of each (row, kind)
    of the place's law (:mod:`._kept_law._place`); return every call, sorted by lead and time.

    ``calls`` (sorted by lead) change in place. ``listed_at`` gives each lead's DNC
    listing time (``-1``: not listed), ``listed_by`` on whose word (:func:`dnc_listing`);
    listed leads get no other kind of problem.
    Abandoned calls, planted last, are human-handled answered calls to US numbers other
    than the lead's last, spread or clustered by their campaign's 30-day periods
    (:mod:`._law._periods`); moved and burst calls lie 16 h or more inside their
    campaign's dialling window, so their whole local day does. Moved, burst and DNC
    calls go to numbers whose place has no rule stricter than the federal one, so they
    break no other law.
    """
    taken = listed_at >= 0
    not_last = np.r_[calls.lead[1:] == calls.lead[:-1], False]
    strict, split = frame.law.strict(), frame.law.split()
    start, end = frame.window(calls.lead)
    inside = (calls.created - 16 * HOUR_MS >= start) & (calls.created + 16 * HOUR_MS <= end)
    person = _pick_leads(rng, calls, per_case, taken | split | ~plants.florida(frame), inside)
    taken[calls.lead[person]] = True
    busy = taken | ~strict | split
    spoken = _plant_burst(rng, frame, calls, person, 3)
    spoken.line[np.arange(len(spoken)) % 3 != 1] = 1  # the 1st and 3rd of each day's four
    plants.plant_split_hours(rng, frame, calls, _pick_leads(
        rng, calls, per_case, taken | ~split, inside & plants.split_ahead(frame, calls)),
        SPLIT_ZONE_HOURS)
    taken |= strict | split
    shown = _pick_leads(rng, calls, per_case, taken | ~plants.us_leads(frame), inside)
    taken[calls.lead[shown]] = True  # picked from a copy: no other kind on its lead
    plants.plant_caller_id(calls, shown, CALLER_ID)
    _plant_outside_hours(rng, frame, calls, _pick_leads(rng, calls, per_kind, taken, inside))
    burst = _pick_leads(rng, calls, per_kind, taken, inside)
    extra = _plant_burst(rng, frame, calls, burst)
    # a DNC call goes to a US number: a day after a listing, a UK or Canadian one is within
    # its list's grace (PECR reg. 21(3)'s 28 days, the DNCL's 31), no breach
    abroad = np.asarray(COUNTRIES, object)[frame.lead_country] != "US"
    graced = calls.lead[_pick_leads(rng, calls, 1, taken | abroad,
                                    ~not_last & (calls.created + 6 * DAY_MS < end))]
    listed_at[graced] = calls.ended[np.searchsorted(calls.lead, graced, side="right") - 1] + (
        rng.integers(HOUR_MS, DAY_MS, size=len(graced)))
    listed_by[graced] = "registry"
    taken[graced] = True
    placed = _dnc_by_list(rng, frame, np.where(strict | split | abroad, -1, listed_at),
                          listed_by, per_kind, graced)
    planted = Calls.concat(calls, extra, spoken, *placed,
                           _plant_state(rng, frame, calls, busy, per_case))
    planted = planted.take(np.lexsort((planted.created, planted.lead)))
    hits = (frequency_counts(planted) >= 4) & np.isin(planted.lead, calls.lead[burst])
    planted.kind[hits] = FREQUENCY
    counted = (frequency_counts(planted) >= 4) & np.isin(planted.lead, calls.lead[person])
    planted.kind[counted] = PERSON_FREQUENCY
    taken = listed_at >= 0
    taken[planted.lead[planted.kind > 0]] = True
    spread, cluster = periods.choose(rng, frame, planted, taken, per_kind)
    _plant_abandoned(rng, planted, np.r_[spread, cluster])
    planted.kind[cluster] = ABANDONMENT_PERIOD
    return planted


def _plant_state(rng: np.random.Generator, frame: Frame, calls: Calls,
                 taken: NDArray[np.bool_], per_case: int) -> Calls:
    """Calls that break the law of the place called and no federal rule, on leads
    not ``taken`` whose last call (``calls`` sorted by lead) was not conclusive, so a
    call before it changes no outcome."""
    first = np.flatnonzero(np.r_[True, calls.lead[1:] != calls.lead[:-1]])
    last = np.r_[first[1:], len(calls)] - 1
    fit = ~taken[calls.lead[last]] & ~np.isin(calls.disposition[last], CONCLUSIVE) & (
        calls.hangup[last] != UNALLOCATED)
    first, last = first[fit], last[fit]
    leads = calls.lead[last]
    cases = plan_cases(rng, frame, leads, (frame.day_of(leads, calls.created[first]),
                                           frame.day_of(leads, calls.created[last])),
                       per_case)
    sizes = [len(case.local) for case in cases]
    lead = np.repeat(np.array([c.lead for c in cases], dtype=np.int64), sizes)
    day = np.repeat(np.array([c.day for c in cases], dtype=np.int64), sizes)
    local = np.array([t for case in cases for t in case.local], dtype=np.int64)
    status = rng.choice(np.array([NO_ANSWER, BUSY, VOICEMAIL]), size=len(lead), p=[.6, .25, .15])
    disposition, hangup = drawn_outcomes(rng, status, ANSWERED_OUTCOMES)
    placed = finished(rng, frame, lead, frame.at(lead, day, local), status, disposition,
                      hangup, outbound=True)
    ends = np.cumsum(sizes) - 1
    placed.kind[ends] = [KINDS.index(case.kind) for case in cases]
    return placed


def _pick_leads(rng: np.random.Generator, calls: Calls, k: int, taken: NDArray[np.bool_],
                eligible: NDArray[np.bool_]) -> I64:
    """One eligible call on each of ``k`` random untaken leads; marks the leads taken."""
    candidates = rng.permutation(np.flatnonzero(eligible & ~taken[calls.lead]))
    _, first = np.unique(calls.lead[candidates], return_index=True)
    chosen = np.sort(candidates[rng.permutation(first)[:k]])
    taken[calls.lead[chosen]] = True
    return chosen


def _plant_abandoned(rng: np.random.Generator, calls: Calls, index: I64) -> None:
    """Nobody joins half of the calls (the customer hangs up); an agent joins the rest late."""
    late = rng.random(len(index)) < 0.5
    answered = calls.answered[index]
    joined = answered + rng.integers(2_500, 9_000, size=len(index))
    hang_up = answered + rng.integers(1_000, 12_000, size=len(index))
    calls.ended[index] = np.where(late, np.maximum(calls.ended[index], joined + 5_000), hang_up)
    calls.joined[index] = np.where(late, joined, -1)
    calls.agent[index] = np.where(late, calls.agent[index], -1)
    calls.disposition[index] = np.where(late, calls.disposition[index], NONE)
    calls.kind[index] = ABANDONED


def _plant_outside_hours(rng: np.random.Generator, frame: Frame, calls: Calls,
                         index: I64) -> None:
    """Move calls to early morning or late evening of the same local day."""
    lead, n = calls.lead[index], len(index)
    early = rng.integers(6 * HOUR_MS, 7 * HOUR_MS + 45 * MINUTE_MS, size=n)
    late = rng.integers(21 * HOUR_MS + 15 * MINUTE_MS, 23 * HOUR_MS + 30 * MINUTE_MS, size=n)
    moved = frame.at(lead, frame.day_of(lead, calls.created[index]),
                     np.where(rng.random(n) < 0.5, early, late))
    calls.shift(index, moved - calls.created[index])
    calls.kind[index] = OUTSIDE_HOURS


def _plant_burst(rng: np.random.Generator, frame: Frame, calls: Calls, index: I64,
                 before: int | None = None) -> Calls:
    """Three or four (``before``, if given) unanswered calls earlier on the day of each chosen
    call, in order of lead and time.

    The chosen call moves to the end of the burst, so the lead's outcome stays
    that of its last call. Times stay in 09:20-19:30 local time.
    """
    n, lead = len(index), calls.lead[index]
    day = frame.day_of(lead, calls.created[index])
    local = rng.integers(9 * HOUR_MS, 12 * HOUR_MS, size=n)[:, None] + np.cumsum(
        rng.integers(20 * MINUTE_MS, 90 * MINUTE_MS, size=(n, 5)), axis=1)
    size = rng.integers(3, 5, size=n) if before is None else np.full(n, before)
    calls.shift(index, frame.at(lead, day, local[np.arange(n), size]) - calls.created[index])
    use = np.arange(5)[None, :] < size[:, None]
    lead, day = (np.broadcast_to(v[:, None], use.shape)[use] for v in (lead, day))
    status = rng.choice(np.array([NO_ANSWER, BUSY, VOICEMAIL]), size=len(lead), p=[.6, .25, .15])
    disposition, hangup = drawn_outcomes(rng, status, ANSWERED_OUTCOMES)
    return finished(rng, frame, lead, frame.at(lead, day, local[use]), status, disposition,
                    hangup, outbound=True)


def _dnc_by_list(rng: np.random.Generator, frame: Frame, listed_at: I64,
                 listed_by: NDArray[np.str_], k: int, graced: I64) -> tuple[Calls, ...]:
    """``dnc_call``s to numbers of both lists, each on a lead of its own (``listed_at``: -1
    where a lead may not be used), and a ``dnc_grace`` call to each lead of ``graced``
    (listed by the registry after its last call).

    A number the customer asked to be taken off is on the account's own list: the TSR
    gives no grace (16 CFR 310.4(b)(1)(iii)(A)), so a call after it is a finding. A number
    the registry listed is on the national list: the safe harbor of 64.1200(c)(2)(i)(D)
    and 310.4(b)(3)(iv) holds a call placed within 31 days of a check of the registry made
    before the listing; without such a check a call after it is a finding, and the
    ``dnc_grace`` call, whose check :func:`registry_check` dates, is none.
    """
    company = listed_by == "customer_request"
    usable = listed_at.copy()
    usable[graced] = -1
    asked = dnc_calls(rng, frame, np.where(company, usable, -1), max(k // 2, 1))
    usable[asked.lead] = -1
    registry = dnc_calls(rng, frame, np.where(company, -1, usable), k - len(asked))
    grace = np.full_like(listed_at, -1)
    grace[graced] = listed_at[graced]
    return asked, registry, dnc_calls(rng, frame, grace, len(graced), DNC_GRACE)


def registry_check(listed_at: int) -> int:
    """When the account last checked a ``dnc_grace`` call's number against the registry:
    three days before it was listed, so the call (at most four days after the listing)
    is well within the safe harbor's 31 days of the check."""
    return listed_at - 3 * DAY_MS


def dnc_calls(rng: np.random.Generator, frame: Frame, listed_at: I64, k: int,
              kind: int = DNC_CALL) -> Calls:
    """One call each to ``k`` listed leads, in their daytime a day or more after listing."""
    lead = np.flatnonzero(listed_at >= 0)
    start, end = frame.window(lead)
    lead = rng.permutation(lead[np.maximum(listed_at[lead], start) + 4 * DAY_MS < end])[:k]
    start, end = frame.window(lead)
    after = np.maximum(listed_at[lead], start) + rng.integers(DAY_MS, 3 * DAY_MS, size=len(lead))
    created = frame.at(lead, frame.day_of(lead, after),
                       rng.integers(10 * HOUR_MS, 18 * HOUR_MS, size=len(lead)))
    keep = created < end
    status = np.where(rng.random(int(keep.sum())) < 0.4, COMPLETED, NO_ANSWER)
    disposition, hangup = drawn_outcomes(rng, status, ANSWERED_OUTCOMES)
    placed = finished(rng, frame, lead[keep], created[keep], status, disposition, hangup,
                      outbound=True)
    placed.kind[:] = kind
    return placed
