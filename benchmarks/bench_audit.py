"""The compliance audit over a million calls: its time, a row-by-row baseline, peak memory.

The compliance issue's target: on frames of 1,000,000 calls and 200,000 leads,
``dialkit.compliance.audit`` with every rule under 3 s and at least 50x a
straightforward row-by-row version of the same rules, measured side by side in
one run with identical findings; peak memory under 2 GiB.

The frames are generated with the columns and dtypes of ``client.frames``
(Arrow strings, ``timestamp[us, UTC]``, nullable booleans, categoricals), plus
``agent_joined_at`` on calls and ``listed_at`` on DNC results: ``--leads``
numbers, one lead each in 25 campaigns, valid by ``phonenumbers`` (about 94%
US in its real area codes and exchanges, so some area codes of two zones, and a
few exchanges it knows no zone for; 3% Canada, then UK, Germany, France,
Mexico, Australia, India, a few of Iran and North Korea, toll-free and
international freephone numbers); ``--calls`` calls over six weeks that cross
the end of US daylight saving time, 90% outbound, placed in local daytime in the
number's first zone, about a third answered; a DNC result for every number.
Each rule has a realistic share of findings: night calls, bursts of 4-5 calls to
a number in a day, calls after a listing (numbers listed during the window, or
with no listing date and a ``do_not_call`` disposition), unverified caller ids,
agents joining late or never. Among them, at every size, each rule's edges
(:mod:`audit_edges`: each list's grace, each scrub age, the window's bounds, the cap's
24 hours, the abandonment limit and the bound of its periods), each saying whether the
law makes it a finding: every run of every side must find each as the law says, and the
frames must hold each (issue 71 item 8: the full run met a grace the smoke run never did).

Every side judges by :data:`RULES` (a policy of one window, one cap and one abandonment
limit for every call) and by each Do-Not-Call list's law, read as a user looks it up
from dialkit's table (``dnc_lists.toml`` through ``dialkit._law``): a call to a listed
number is a finding after the listing and past its list's grace (the US registry's safe
harbor of 31 days after a check made before the listing; the TPS's 28 days and the
DNCL's 31 before the call's day; none for the account's own list), and a lead is
unscreened past its country's scrub age (``jurisdictions.toml``: 28 days in the UK).
A state's own list that no answered row of a number's own scrubs it against, where that
state's law obliges a caller to obtain it (the table's ``required``), is one ``dnc_call``
risk of a number called there (issues 73 and 79; its area code's state, from dialkit's
table of area codes, as the zones are): on the number's earliest call, ties broken by call
id (the frames give no consent, no
business line and no fact of the account that would lift it).

:func:`row_by_row` is the same rules as a user writes them by hand: one loop over
the calls (``phonenumbers`` and ``zoneinfo`` on each), one over the leads, a
deque per number for the frequency, and for abandonment a count per campaign and
period.

With ``--fresh-processes``, every side is also measured the same way, on the whole
frames (the row-by-row one with ``--full-baseline``: about a minute a run) and on
the calls, leads and DNC results of every ``--every``-th number: ``--runs`` fresh
processes of each side, in turn. Each process reads the frames from Parquet (as
the cache gives them, Arrow text in chunks), warms up on every 100th number's frames (imports,
``phonenumbers``' metadata, zone files), then runs its side twice on the frames:
the first run is what a notebook session sees first (in this virtual machine,
memory the process has not touched yet costs system time), the second the
same process again. It reports each run's wall, user and system seconds, its
``VmHWM`` rise over the two runs and at the end, and a digest of its findings,
(rule, call id or lead id); the digests of every run of both sides must agree.

Issue 21 asks for a fair baseline beside the straw man: :func:`pandas_audit` is the same
rules as a user fluent in pandas writes them, with the same findings: ``phonenumbers``
asked once per distinct number (zones, region) and mapped back, local times by one
``tz_convert`` per zone, the 24-hour counts by sorted keys and ``searchsorted``, the
abandonment periods' rates by ``groupby``, the DNC rules by ``isin``, ``merge`` with the
lists' law and ``merge_asof`` for the last check before a call. Its targets: under 0.6 s warm
and at least 10x that version. By default every side runs in this one process, warmed up,
interleaved ``--runs`` times (the order turning each round), each ratio the median of the
per-round ratios, every run's findings checked equal; ``--fresh-processes`` adds the
fresh-process figures above (first and second run).

Run: ``.venv/bin/python benchmarks/bench_audit.py [--calls 1000000] [--leads 200000]
[--runs 3] [--every 10] [--full-baseline] [--fresh-processes]``. Results go to
``benchmarks/RESULTS.md`` by hand, with the command. ``--profile 40`` instead profiles one
warm audit (``cProfile``, the 40 costliest functions), to see where its time goes.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from bisect import bisect_right
from collections import defaultdict, deque
from collections.abc import Callable, Collection
from datetime import datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import numpy as np
import pandas as pd
import phonenumbers
import pyarrow as pa
from phonenumbers import timezone as phone_timezones
from phonenumbers.tzdata import TIMEZONE_DATA

import audit_edges
import dialkit.compliance
from dialkit._law import _dnc_lists as list_table
from dialkit._law import _jurisdictions as jurisdiction_table
from dialkit._law._caller_id import BLOCKED_IDS, by_region
from dialkit._phones._types import regions_and_types
from dialkit._places._areas import area_states, area_zones
from dialkit.compliance import HOUSE_RULES, POLICY, Rules
from dialkit.frames import SCHEMAS

START = pd.Timestamp("2026-09-21", tz="UTC")
"""The first day of the calls: six weeks to 2 November cross the end of US DST."""
DAYS = 42
AS_OF = START + pd.Timedelta(days=DAYS + 1)
CAMPAIGNS = 25
BLOCKED = ("KP", "IR")
SHARES = {"CA": 0.03, "GB": 0.012, "DE": 0.004, "FR": 0.004, "MX": 0.004, "AU": 0.003,
          "IN": 0.003, "IR": 0.0004, "KP": 0.0002}
"""The share of the numbers outside the US, by region."""
TOLL_FREE, FREEPHONE, VAGUE = 20, 10, 0.002
"""US toll-free numbers (every NANP zone), international freephone ones (no zone), and the
share of US numbers in exchanges whose zone ``phonenumbers`` does not know (every NANP zone)."""
OUTBOUND, ANSWERED = 0.9, 0.35
NIGHT, BURSTS, UNVERIFIED = 0.003, 0.004, 0.004
"""Shares of outbound calls placed at night, of numbers given a burst of calls in a day,
of outbound calls from a caller id that is not verified."""
VERIFIED = tuple(f"+1415555{n:04d}" for n in range(100, 112))
CALLER_ID_LAW = frozenset(by_region())
"""The number regions whose law requires a caller id (the caller id table's)."""
HIDDEN, HIDDEN_IDS = 0.001, ("anonymous", "Restricted", "")
"""The share of outbound calls that showed no number, and what their caller id said."""
TEXT = SCHEMAS["calls"].dtypes["id"]
WHEN = SCHEMAS["calls"].dtypes["created_at"]
MORE_TEXT = frozenset({"list"})
"""The frames' text columns ``client.frames`` lacks: the DNC results' ``list`` (every
generated result's empty, the national register's; a seeded scrub's a state's list id,
:mod:`audit_edges`). Each frame holds the same columns at every size and in every chunk
of ``bench_dask_audit``."""
SECOND_MS = 1000
DAY_MS = 86_400 * SECOND_MS
RULES = POLICY("house rules: 08:00-21:00 for every call, at most 3 calls a day and 3% of "
               "answered calls abandoned", window=HOUSE_RULES.window,
               max_calls_per_24h=HOUSE_RULES.max_calls_per_24h, abandonment_limit=0.03)
"""What every side judges by: the house rules (a policy alone: one window and one cap for
every call), with an abandonment limit of their own, 3% of each campaign's calls answered
by a live person over each successive 30 days, so that every rule of a call has findings
(``HOUSE_RULES`` alone sets no rate since issue 37); and the Do-Not-Call lists' law, which
judges a call to a listed number whatever the rules."""


# The numbers ---------------------------------------------------------------------------------

def numbers(count: int, rng: np.random.Generator) -> pd.DataFrame:
    """``count`` distinct valid numbers: ``phone`` (E.164), ``region``, ``zone`` (the first
    of its zones, where the dialer places calls in daytime), in random order."""
    us, ca, vague = _nanp_exchanges(rng, min(60_000, max(8_000, 3 * count)))
    counts = {region: max(1, round(count * share)) for region, share in SHARES.items()}
    parts = [_nanp(ca, counts.pop("CA"), rng, "CA"), _toll_free(rng), _freephone(rng),
             _nanp(vague, round(count * VAGUE), rng, "US, zone not known")]
    parts += [_international(region, n, rng) for region, n in counts.items()]
    parts.append(_nanp(us, count - sum(len(p) for p in parts), rng, "US"))
    pool = pd.concat(parts, ignore_index=True)
    assert pool["phone"].is_unique and len(pool) == count
    return pool.sample(frac=1, random_state=rng.integers(2**31), ignore_index=True)


def _nanp_exchanges(rng: np.random.Generator, draws: int) -> tuple[dict[int, str], ...]:
    """Area code and exchange pairs valid in ``phonenumbers`` (time zones are keyed by these
    six digits at most), each with the first of its zones: US ones, Canadian ones, and US ones
    ``phonenumbers`` gives every NANP zone (it knows no narrower one), among ``draws``
    random prefixes (60,000 from 20,000 numbers up, fewer for the smoke sizes). Their regions
    and types are read a column at a time (``dialkit._phones``, held to ``phonenumbers`` by
    its differential tests, and here on a sample): asked one by one, they took 15 s of the
    scale test's 45 s of writing; their zones are ``time_zones_for_number``'s, without its
    second asking of the type."""
    prefixes = distinct(rng.integers(200_000, 1_000_000, draws))
    regions, kinds = regions_of(1, prefixes * 10_000 + 123)
    found: tuple[dict[int, str], ...] = ({}, {}, {})
    for prefix, region, kind in zip(prefixes.tolist(), regions.tolist(), kinds.tolist(),
                                    strict=True):
        if region in ("US", "CA") and kind != phonenumbers.PhoneNumberType.UNKNOWN:  # valid
            zones = _zones(phonenumbers.PhoneNumber(
                country_code=1, national_number=prefix * 10_000 + 123), kind)
            which = 1 if region == "CA" else 2 if len(zones) > 4 else 0
            found[which][prefix] = zones[0]
    return found


def distinct(values: np.ndarray) -> np.ndarray:
    """``np.unique(values)``: NumPy 2.4's hashes first, 5 s for the 1.5 million numbers the
    scale test draws, where a sort alone takes 0.1 s."""
    values = np.sort(values)
    return values[np.r_[True, values[1:] != values[:-1]]] if len(values) else values


def _nanp(exchanges: dict[int, str], count: int, rng: np.random.Generator,
          region: str) -> pd.DataFrame:
    """``count`` distinct numbers of the given exchanges, valid: a NANP number's validity
    is its area code's and exchange's (:func:`_nanp_exchanges` checked each), which a
    sample of 5,000 of them checks again (checking all 750,000 of the scale test's took
    35 of its 48 s of writing)."""
    prefixes = np.array(list(exchanges))
    national = distinct(prefixes[rng.integers(0, len(prefixes), count * 2)] * 10_000
                        + rng.integers(0, 10_000, count * 2))
    national = rng.permutation(national)[:count]
    regions, kinds = regions_of(1, national[:5_000])
    assert ((regions != None) & (kinds != phonenumbers.PhoneNumberType.UNKNOWN)).all()  # noqa: E711
    zones = pd.Series(exchanges)[national // 10_000].to_numpy()
    return pd.DataFrame({"phone": "+1" + pd.Series(national.astype(str)), "region": region,
                         "zone": zones})


def _varied(example: phonenumbers.PhoneNumber, count: int, rng: np.random.Generator,
            digits: int = 4) -> tuple[list[phonenumbers.PhoneNumber], list[tuple[str, ...]]]:
    """Valid numbers like ``example`` with their last ``digits`` digits drawn at random,
    the first ``count`` distinct ones of the draws, and the zones of each. Validity is read
    a column at a time (:func:`regions_of`): asked number by number, the scale
    test's 20,000 took 10 s."""
    scale = 10**digits
    tails = rng.integers(0, scale, count * 4)  # drawn at once: the same state
    national, first = np.unique(example.national_number // scale * scale + tails,
                                return_index=True)
    national = national[np.argsort(first)]  # in the order drawn
    regions, kinds = regions_of(example.country_code, national)
    valid = (regions != None) & (kinds != phonenumbers.PhoneNumberType.UNKNOWN)  # noqa: E711
    taken = np.flatnonzero(valid)[:count]
    assert len(taken) >= count, example
    numbers = [phonenumbers.PhoneNumber(country_code=example.country_code, national_number=n)
               for n in national[taken].tolist()]
    return numbers, [_zones(number, kind) for number, kind in zip(
        numbers, kinds[taken].tolist(), strict=True)]


def regions_of(code: int, national: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``region_code_for_number`` and ``number_type`` of national numbers of calling code
    ``code``, as ``dialkit._phones`` reads them (held to ``phonenumbers`` by its differential
    tests), and again by ``phonenumbers`` on a sample."""
    regions, kinds = regions_and_types(np.full(len(national), code, np.int64),
                                       pa.array(national.astype(str)))
    every = max(1, len(national) // 1_000)  # some 1,000 of them: a fraction of a second
    for n, region in zip(national[::every].tolist(), regions[::every].tolist(), strict=True):
        number = phonenumbers.PhoneNumber(country_code=code, national_number=n)
        assert phonenumbers.region_code_for_number(number) == region, number
    return regions, kinds


def _zones(number: phonenumbers.PhoneNumber, kind: int) -> tuple[str, ...]:
    """``time_zones_for_number`` of a valid number of type ``kind``, without asking its
    type again: a geographical number's own, else its calling code's (asked once a code)."""
    if phonenumbers.is_number_type_geographical(kind, number.country_code):
        return tuple(phone_timezones.time_zones_for_geographical_number(number))
    if number.country_code not in _CODE_ZONES:
        _CODE_ZONES[number.country_code] = tuple(phone_timezones.time_zones_for_number(number))
    return _CODE_ZONES[number.country_code]


_CODE_ZONES: dict[int, tuple[str, ...]] = {}


def _international(region: str, count: int, rng: np.random.Generator) -> pd.DataFrame:
    """Mobile and fixed numbers of ``region``, half and half."""
    rows = []
    for kind, share in ((phonenumbers.PhoneNumberType.MOBILE, count // 2),
                        (phonenumbers.PhoneNumberType.FIXED_LINE, count - count // 2)):
        example = phonenumbers.example_number_for_type(region, kind)
        for number, zones in zip(*_varied(example, share, rng,
                                          digits=5 if count > 2_000 else 4), strict=True):
            e164 = phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)
            rows.append((e164, region, zones[0]))
    return pd.DataFrame(rows, columns=["phone", "region", "zone"])


def _toll_free(rng: np.random.Generator) -> pd.DataFrame:
    example = phonenumbers.parse("+18002345678")
    phones = [phonenumbers.format_number(n, phonenumbers.PhoneNumberFormat.E164)
              for n in _varied(example, TOLL_FREE, rng)[0]]
    return pd.DataFrame({"phone": phones, "region": "US toll-free", "zone": "America/New_York"})


def _freephone(rng: np.random.Generator) -> pd.DataFrame:
    example = phonenumbers.example_number_for_non_geo_entity(800)
    phones = [phonenumbers.format_number(n, phonenumbers.PhoneNumberFormat.E164)
              for n in _varied(example, FREEPHONE, rng, digits=3)[0]]
    return pd.DataFrame({"phone": phones, "region": "freephone", "zone": "UTC"})


def ids(prefix: str, count: int, rng: np.random.Generator) -> pd.Series:
    """``count`` ids of the contract's shape: ``prefix`` and a lower-case UUID."""
    raw = np.frombuffer(rng.bytes(16 * count), np.uint8).reshape(count, 16)
    hex_digits = np.frombuffer(b"0123456789abcdef", np.uint8)
    digits = np.stack([hex_digits[raw >> 4], hex_digits[raw & 15]], axis=2).reshape(count, 32)
    dash = np.full((count, 1), ord("-"), np.uint8)
    head = np.tile(np.frombuffer(prefix.encode(), np.uint8), (count, 1))
    parts = [head, digits[:, :8], dash, digits[:, 8:12], dash, digits[:, 12:16], dash,
             digits[:, 16:20], dash, digits[:, 20:]]
    joined = np.ascontiguousarray(np.concatenate(parts, axis=1))
    offsets = np.arange(count + 1, dtype=np.int32) * joined.shape[1]  # Arrow text over the bytes
    text = pa.StringArray.from_buffers(count, pa.py_buffer(offsets), pa.py_buffer(joined))
    return pd.Series(pd.array(text, dtype=TEXT))


# The frames ----------------------------------------------------------------------------------

def frames(calls: int, leads: int, seed: int = 11) -> dict[str, pd.DataFrame]:
    """``calls``, ``leads`` and ``dnc`` frames of an account of ``leads`` numbers (and the
    ``numbers`` themselves, with their regions)."""
    rng = np.random.default_rng(seed)
    pool = account_pool(leads, rng)
    return {**with_edges(account(pool, calls, rng), set(pool["phone"])), "numbers": pool}


def account_pool(leads: int, rng: np.random.Generator,
                 campaigns: int = CAMPAIGNS) -> pd.DataFrame:
    """The account's ``leads`` numbers (:func:`numbers`), each with its ``campaign`` and
    whether it is ``listed`` (0: not, 1: before the calls, 2: during them)."""
    pool = numbers(leads, rng)
    pool["campaign"] = rng.integers(0, campaigns, leads)
    pool["listed"] = rng.choice(3, leads, p=[0.966, 0.03, 0.004])
    return pool


def account(pool: pd.DataFrame, calls: int, rng: np.random.Generator) -> dict[str, pd.DataFrame]:
    """``calls`` calls to the numbers of ``pool`` (all of an account's, or a slice of them:
    ``bench_dask_audit`` writes an account a slice at a time), their leads and DNC results."""
    call_frame = _calls(pool, calls, rng)
    asked = set(call_frame.loc[call_frame["disposition"] == "do_not_call", "to_number"])
    pool = pool.assign(asked=pool["phone"].isin(asked))
    return {"calls": call_frame, "leads": _leads(pool, call_frame, rng), "dnc": _dnc(pool, rng)}


def with_edges(made: dict[str, pd.DataFrame], taken: set[str]) -> dict[str, pd.DataFrame]:
    """The generated frames with each rule's edges seeded among them (:mod:`audit_edges`,
    on numbers of their own, not in ``taken``), and the ``edges`` themselves: the smoke
    run's 5,000 calls meet every list's grace, cap and abandonment period the full run
    does (issue 71 item 8: at 1,000,000 calls the baseline met a grace the smoke never did)."""
    seeded = audit_edges.seeded(taken, RULES, START, START + pd.Timedelta(days=DAYS), AS_OF,
                                VERIFIED[0])
    frames = {name: typed(pd.concat([made[name], seeded[name]], ignore_index=True), name)
              for name in NAMES}
    frames["calls"] = frames["calls"].sort_values("created_at", kind="stable", ignore_index=True)
    return {**frames, "edges": seeded["edges"]}


def _calls(pool: pd.DataFrame, count: int, rng: np.random.Generator) -> pd.DataFrame:
    """Outbound calls (regular ones, some at night, and bursts) and inbound ones, by time."""
    outbound = round(count * OUTBOUND)
    burst, burst_day, burst_ms = _bursts(pool, rng)
    weights = rng.gamma(4.0, size=len(pool))
    weights[(pool["listed"] == 1) & (rng.random(len(pool)) > 0.02)] = 0  # scrubbed, mostly
    regular = rng.choice(len(pool), outbound - len(burst), p=weights / weights.sum())
    local_ms = rng.integers(8 * 3600 + 300, 20 * 3600 + 3300, len(regular)) * SECOND_MS
    night = rng.random(len(regular)) < NIGHT
    local_ms[night] = (rng.integers(21 * 3600, 32 * 3600, int(night.sum())) % (24 * 3600)
                       * SECOND_MS)
    who = np.r_[regular, burst]
    day = np.r_[rng.integers(0, DAYS, len(regular)), burst_day]
    at = _utc(day * DAY_MS + np.r_[local_ms, burst_ms] + rng.integers(0, SECOND_MS, len(who)),
              pool["zone"].to_numpy()[who])
    out = pd.DataFrame({"number": who, "created_at": at, "direction": "outbound"})
    inbound = count - outbound
    into = pd.DataFrame({"number": rng.integers(0, len(pool), inbound), "direction": "inbound",
                         "created_at": START + pd.to_timedelta(
                             rng.integers(0, DAYS * DAY_MS, inbound), unit="ms")})
    frame = pd.concat([out, into], ignore_index=True).sort_values(
        "created_at", kind="stable", ignore_index=True)
    return _call_columns(frame, pool, rng)


def _bursts(pool: pd.DataFrame, rng: np.random.Generator) -> tuple[np.ndarray, ...]:
    """4 or 5 calls to a number within five hours of one day, for a share of the numbers:
    the numbers, the days and the local times (ms into the day)."""
    numbers = rng.choice(np.flatnonzero(pool["listed"] != 1), round(len(pool) * BURSTS),
                         replace=False)
    sizes = rng.integers(4, 6, len(numbers))
    first = rng.integers(9 * 3600, 15 * 3600, len(numbers)) * SECOND_MS
    later = rng.integers(0, 5 * 3600 * SECOND_MS, sizes.sum())
    return (np.repeat(numbers, sizes), np.repeat(rng.integers(0, DAYS, len(numbers)), sizes),
            np.repeat(first, sizes) + later)


def _utc(local_ms: np.ndarray, zones: np.ndarray) -> pd.Series:
    """Wall-clock times (ms after ``START``'s midnight) in each row's zone, as UTC."""
    naive = START.tz_localize(None) + pd.to_timedelta(local_ms, unit="ms")
    at = pd.Series(pd.NaT, index=range(len(zones)), dtype=WHEN)
    for zone, rows in pd.Series(zones).groupby(zones).groups.items():
        local = naive[rows].tz_localize(str(zone), ambiguous=np.zeros(len(rows), bool),
                                        nonexistent="shift_forward")
        at[rows] = local.tz_convert("UTC").as_unit("us")
    return at


DISPOSITIONS = ("sale", "info_sent", "not_interested", "callback_requested", "wrong_number",
                "do_not_call")
"""The service's disposition codes (``CallDisposition``): a word of the dialer's own is held
out of abandonment's live answers until mapped (issue 79)."""
DISPOSITION_SHARES = (0.1, 0.19, 0.45, 0.2, 0.05, 0.01)
UNANSWERED = ("no-answer", "busy", "failed", "voicemail")


def _call_columns(frame: pd.DataFrame, pool: pd.DataFrame,
                  rng: np.random.Generator) -> pd.DataFrame:
    """The calls frame's columns for calls of pool numbers placed at ``created_at``."""
    n = len(frame)
    out = (frame["direction"] == "outbound").to_numpy()
    phone = pool["phone"].to_numpy()[frame["number"]]
    ours = np.array(VERIFIED)[rng.integers(0, len(VERIFIED), n)]
    caller = np.where(rng.random(n) < UNVERIFIED, np.array(["+14155550199", "+13125550142"])[
        rng.integers(0, 2, n)], ours)
    caller = np.where(rng.random(n) < HIDDEN, np.array(HIDDEN_IDS, object)[
        rng.integers(0, len(HIDDEN_IDS), n)], caller)
    answered = rng.random(n) < np.where(out, ANSWERED, 0.6)
    created = frame["created_at"]
    answer = created + pd.to_timedelta(rng.integers(4_000, 30_000, n), unit="ms")
    talk = pd.to_timedelta(rng.exponential(100_000, n).astype(np.int64) + 5_000, unit="ms")
    ring = pd.to_timedelta(rng.integers(12_000, 45_000, n), unit="ms")  # some under 15 s
    ended = (answer + talk).where(answered, created + ring)
    joined, dropped = _joined(answer, pool["campaign"].to_numpy()[frame["number"]], rng)
    disposition = pd.Series(rng.choice(DISPOSITIONS, n, p=DISPOSITION_SHARES), dtype=TEXT)
    disposition[~answered | joined.isna()] = pd.NA
    calls = pd.DataFrame({
        "id": ids("call_", n, rng), "direction": frame["direction"],
        "from_number": np.where(out, caller, phone), "to_number": np.where(out, phone, ours),
        "status": np.where(answered, "completed", rng.choice(UNANSWERED, n)),
        "created_at": created, "answered_at": answer.where(answered),
        "ended_at": ended, "duration_seconds": np.where(
            answered, (ended - answer).dt.total_seconds(), 0.0),
        "campaign_id": np.where(out, _campaigns()[pool["campaign"].to_numpy()[frame["number"]]],
                                None),
        "disposition": disposition, "hangup_cause": np.where(
            answered, "normal_clearing", "no_answer")})
    return typed(calls.assign(agent_joined_at=joined.where(answered)), "calls")


def _joined(answer: pd.Series, campaign: np.ndarray,
            rng: np.random.Generator) -> tuple[pd.Series, np.ndarray]:
    """When an agent joined each call if answered: mostly within 1.5 s; in each campaign
    its own share (0.5% to 5%) late (2-9 s) or never."""
    n = len(answer)
    rates = np.random.default_rng(3).uniform(0.005, 0.05, CAMPAIGNS)
    dropped = rng.random(n) < rates[campaign]
    delay = np.where(dropped, rng.integers(2_050, 9_000, n), rng.integers(200, 1_500, n))
    joined = answer + pd.to_timedelta(delay, unit="ms")
    return joined.where(~(dropped & (rng.random(n) < 0.5))), dropped


def _campaigns() -> np.ndarray:
    return ids("cmp_", CAMPAIGNS, np.random.default_rng(5)).to_numpy(dtype=object)


LEAD_STATUSES = ("new", "contacted", "callback", "completed")


def _leads(pool: pd.DataFrame, calls: pd.DataFrame, rng: np.random.Generator) -> pd.DataFrame:
    """One lead per number; numbers listed before the window mostly ``dnc``, and those
    whose person asked not to be called often."""
    n = len(pool)
    status = rng.choice(LEAD_STATUSES, n, p=[0.3, 0.45, 0.1, 0.15]).astype(object)
    status[(pool["listed"] == 1).to_numpy() & (rng.random(n) < 0.92)] = "dnc"
    status[pool["asked"].to_numpy() & (rng.random(n) < 0.6)] = "dnc"
    outbound = calls[calls["direction"] == "outbound"]
    attempts = outbound.groupby("to_number", observed=True).size()
    last = outbound.groupby("to_number", observed=True)["created_at"].max()
    created = pd.Series(START - pd.to_timedelta(rng.integers(1, 60 * DAY_MS, n), unit="ms"))
    ids_ = ids("lead_", n, rng)
    leads = pd.DataFrame({
        "id": ids_, "campaign_id": _campaigns()[pool["campaign"]],
        "external_id": "crm-" + pd.Series(np.arange(n).astype(str)).str.zfill(7),
        "phone": pool["phone"], "full_name": rng.choice(["Ada Lovelace", "Grace Hopper",
                                                         "Alan Turing", "Zoë Müller"], n),
        "email": ids_.str[5:13] + "@example.com", "status": status,
        "attempts": pool["phone"].map(attempts).fillna(0).astype("Int64"),
        "custom_fields": np.where(rng.random(n) < 0.3, '{"tier":"gold"}', None),
        "last_attempt_at": pool["phone"].map(last),
        "next_attempt_at": pd.Series(pd.NaT, index=range(n), dtype=WHEN),
        "disposition_code": None, "hangup_cause": None, "created_at": created,
        "updated_at": pool["phone"].map(last).fillna(created)})
    return typed(leads, "leads")


def _dnc(pool: pd.DataFrame, rng: np.random.Generator) -> pd.DataFrame:
    """A result for every number: listed before the window, during it, or (half of those who
    asked not to be called, and a tenth of the rest) with no listing date; most checked in
    the last 25 days, 5% more than 31 days before the audit; of no list said (``list``
    empty: the national register's)."""
    n = len(pool)
    state = pool["listed"].to_numpy()
    days = pd.to_timedelta(rng.integers(30 * DAY_MS, 2000 * DAY_MS, n), unit="ms")
    during = pd.to_timedelta(rng.integers(3 * DAY_MS, 38 * DAY_MS, n), unit="ms")
    listed_at = pd.Series(np.where(state == 1, START - days, START + during), dtype=WHEN)
    undated = pool["asked"].to_numpy() & (rng.random(n) < 0.5) & (state == 0)
    listed = (state > 0) | undated
    listed_at[~listed | undated | ((state == 1) & (rng.random(n) < 0.1))] = pd.NaT
    age = np.where(rng.random(n) < 0.05, rng.integers(32 * DAY_MS, 150 * DAY_MS, n),
                   rng.integers(DAY_MS, 25 * DAY_MS, n))
    checked = AS_OF - pd.to_timedelta(age, unit="ms")
    checked = checked.where(listed_at.isna() | (checked > listed_at), listed_at + pd.Timedelta(
        days=1))
    return typed(pd.DataFrame({"phone": pool["phone"], "listed": listed, "checked_at": checked,
                               "listed_at": listed_at, "list": None}), "dnc")


def typed(frame: pd.DataFrame, name: str) -> pd.DataFrame:
    """``frame`` with the dtypes of ``client.frames``' frame ``name`` (times: UTC); of the
    columns it lacks, ``list`` as text (:data:`MORE_TEXT`), the others as times."""
    dtypes = {column: SCHEMAS[name].dtypes.get(column, TEXT if column in MORE_TEXT else WHEN)
              for column in frame}
    return frame.astype({c: d for c, d in dtypes.items() if frame[c].dtype != d})


# The row-by-row version ----------------------------------------------------------------------

def row_by_row(calls: pd.DataFrame, leads: pd.DataFrame, dnc: pd.DataFrame,
               verified: Collection[str], blocked: Collection[str], rules: Rules,
               as_of: pd.Timestamp) -> set[tuple[str, str]]:
    """The audit's rules as a user writes them by hand: a loop over the calls and one over
    the leads, ``phonenumbers`` and ``zoneinfo`` on each call, a deque per number for the
    frequency, a running count per campaign for abandonment. The findings as (rule, call or
    lead id)."""
    outbound = [call for call in calls.to_dict("records") if call["direction"] == "outbound"]
    for call in outbound:
        for column in ("created_at", "answered_at", "ended_at", "agent_joined_at"):
            call[column] = None if pd.isna(call[column]) else call[column].to_pydatetime()
    found: set[tuple[str, str]] = set()
    for call in outbound:
        found.update(_per_call(call, verified, blocked, rules))
    found.update(_frequency(outbound, rules))
    found.update(_abandonment(outbound, rules))
    listings, checks = _dnc_lists(dnc, outbound)
    for call in outbound:
        number = call["to_number"]
        if any(_breaks(call, kind, since, checks.get(number, []))
               for kind, since in listings.get(number, ())):
            found.add(("dnc_call", call["id"]))
    found.update(_first_unscrubbed(outbound, leads, dnc))
    ages = scrub_ages(rules)
    for lead in leads.to_dict("records"):
        if lead["status"] in ("dnc", "completed"):
            continue
        if listings.get(lead["phone"]):  # a listing, or the person's own request
            found.add(("dnc_lead", lead["id"]))
        last = max(checks.get(lead["phone"], []), default=None)
        age = ages.get(list_country(lead["phone"]), rules.scrub_age)
        if last is None or last < (as_of - age).to_pydatetime():
            found.add(("unscreened_lead", lead["id"]))
    return found


def _per_call(call: dict[str, Any], verified: Collection[str], blocked: Collection[str],
              rules: Rules) -> list[tuple[str, str]]:
    """Calling hours in every zone of the number, its country, the caller id."""
    found = []
    try:
        number = phonenumbers.parse(call["to_number"])
    except phonenumbers.NumberParseException:
        number = None
    zones = [] if number is None else judged_zones(number)
    if not zones:
        found.append(("unknown_timezone", call["id"]))
    for zone in zones:
        local = call["created_at"].astimezone(ZoneInfo(zone)).time()
        if not rules.window[0] <= local < rules.window[1]:
            found.append(("calling_hours", call["id"]))
            break
    if number is not None and phonenumbers.region_code_for_number(number) in blocked:
        found.append(("blocked_country", call["id"]))
    shown = str(call["from_number"] or "").strip().lower()
    if shown in ("", *BLOCKED_IDS):
        if number is not None and phonenumbers.region_code_for_number(number) in CALLER_ID_LAW:
            found.append(("caller_id", call["id"]))
    elif call["from_number"] not in verified:
        found.append(("unverified_caller_id", call["id"]))
    return found


AREA_ZONES = area_zones()


def judged_zones(number: phonenumbers.PhoneNumber) -> list[str]:
    """``phonenumbers``' zones of a number, but every zone of a NANP area code that spans
    several (dialkit's table of them) where it places the exchange by the area code alone."""
    zones = [z for z in phone_timezones.time_zones_for_number(number) if z != "Etc/Unknown"]
    digits = f"1{number.national_number}"
    if number.country_code != 1 or not zones or any(
            digits[:size] in TIMEZONE_DATA for size in range(5, len(digits) + 1)):
        return zones
    return list(AREA_ZONES.get(int(digits[1:4]), zones))


def _frequency(outbound: list[dict[str, Any]], rules: Rules) -> list[tuple[str, str]]:
    """Each call that is more than the limit to its number in the 24 hours up to it."""
    found = []
    recent: dict[str, deque[datetime]] = defaultdict(deque)
    for call in sorted(outbound, key=lambda c: c["created_at"]):
        calls = recent[call["to_number"]]
        while calls and calls[0] <= call["created_at"] - timedelta(hours=24):
            calls.popleft()
        calls.append(call["created_at"])
        if len(calls) > rules.max_calls_per_24h:
            found.append(("call_frequency", call["id"]))
    return found


def _abandonment(outbound: list[dict[str, Any]], rules: Rules) -> list[tuple[str, str]]:
    """Each abandoned call whose campaign's period abandoned more than the limit of the calls
    answered by a live person: the successive periods counted from the campaign's first
    call, a call in the period it was answered in."""
    if rules.abandonment_limit is None:  # a policy alone sets no rate: no law measures it
        return []
    late = timedelta(seconds=rules.agent_join_seconds)
    span = rules.abandonment_window or timedelta(days=30)
    opened: dict[str, datetime] = {}
    for call in outbound:
        campaign = call["campaign_id"] or ""
        opened[campaign] = min(opened.get(campaign, call["created_at"]), call["created_at"])
    periods: dict[tuple[str, int], list[int]] = defaultdict(lambda: [0, 0])
    dropped = []
    for call in outbound:
        if call["answered_at"] is None or call["status"] == "voicemail":
            continue
        campaign = call["campaign_id"] or ""
        period = (campaign, max(call["answered_at"] - opened[campaign], timedelta(0)) // span)
        gone = (call["agent_joined_at"] is None
                or call["agent_joined_at"] - call["answered_at"] > late)
        periods[period][0] += 1
        periods[period][1] += gone
        if gone:
            dropped.append((period, call["id"]))
    return [("abandonment", call_id) for period, call_id in dropped
            if periods[period][1] / periods[period][0] > rules.abandonment_limit]


def _dnc_lists(dnc: pd.DataFrame, outbound: list[dict[str, Any]]) -> tuple[
        dict[str, list[tuple[str, datetime | None]]], dict[str, list[datetime]]]:
    """Each number's listings, as (list, since when: None where the date is unknown): a
    listed DNC result's on the national register, a ``do_not_call`` disposition's on the
    account's own list from the call's end; and each number's checks, in order."""
    listings: dict[str, list[tuple[str, datetime | None]]] = defaultdict(list)
    checks: dict[str, list[datetime]] = defaultdict(list)
    for row in dnc.to_dict("records"):
        if pd.isna(row["listed"]):  # a check that did not answer: no check at all
            continue
        if pd.notna(row["checked_at"]):
            checks[row["phone"]].append(row["checked_at"].to_pydatetime())
        if row["listed"] is True:
            since = row["listed_at"]
            listings[row["phone"]].append(("national",
                                           None if pd.isna(since) else since.to_pydatetime()))
    for call in outbound:
        if call["disposition"] == "do_not_call" and call["ended_at"] is not None:
            listings[call["to_number"]].append(("company", call["ended_at"]))
    for times in checks.values():
        times.sort()
    return listings, checks


def _breaks(call: dict[str, Any], kind: str, since: datetime | None,
            checks: list[datetime]) -> bool:
    """Whether ``call`` breaks a listing on list ``kind`` since ``since``: placed after it
    (every call, where its date is unknown) and past its list's grace, as the law of the
    number's country has it (:func:`list_law`; none for a country the table lacks)."""
    at = call["created_at"]
    if since is None:
        return True
    if at <= since:
        return False
    row = list_law().get((list_country(call["to_number"]), kind))
    if row is None or not row.grace:
        return True
    if row.grace_needs_check:  # a safe harbor: a check before the listing, recent enough
        last = checks[bisect_right(checks, at) - 1] if bisect_right(checks, at) else None
        return not (last is not None and last < since and at - last <= row.grace)
    return at.date() - since.date() >= row.grace  # whole days before the call's (UTC)


def _first_unscrubbed(outbound: list[dict[str, Any]], leads: pd.DataFrame,
                      dnc: pd.DataFrame) -> list[tuple[str, str]]:
    """Each number's earliest call (ties: the lowest call id) of a state whose list is
    required (:func:`owed_lists`) and that no answered row of its own scrubs against it
    (:func:`scrubbed`, issue 79), unless its list spares the number's line."""
    owed, done, business = owed_lists(), scrubbed(dnc), business_lines(leads)
    first: dict[str, tuple[datetime, str]] = {}
    for call in outbound:
        number = call["to_number"]
        row = owed.get(us_state(number))
        if row is None or (number, row.id) in done or (
                row.residential_only and number in business):
            continue
        first[number] = min(first.get(number, (call["created_at"], call["id"])),
                            (call["created_at"], call["id"]))
    return [("dnc_call", call_id) for _, call_id in first.values()]


def owed_lists() -> dict[str | None, list_table.DncList]:
    """The states' own lists whose law obliges a caller to obtain them (``required``), by
    state."""
    return {row.state: row for row in list_table.all() if row.state and row.required}


def scrubbed(dnc: pd.DataFrame) -> set[tuple[str, str]]:
    """Each (number, list) an answered row of the DNC results scrubs (their ``list``
    column, where they have one, names the list: ``US-TX``; a row whose ``listed`` is
    empty did not answer): a number's own row alone answers for it (issue 79)."""
    if "list" not in dnc:
        return set()
    answered = dnc[dnc["listed"].notna().to_numpy(bool)]
    return set(zip(answered["phone"].astype(str), answered["list"].astype(str), strict=True))


def business_lines(leads: pd.DataFrame) -> set[str]:
    """The numbers the leads say are business lines (``line``), which a list of
    residential subscribers does not protect."""
    if "line" not in leads:
        return set()
    return set(leads.loc[(leads["line"] == "business").fillna(False).to_numpy(bool), "phone"])


@cache
def us_state(number: str) -> str | None:
    """A US geographic number's state, by its area code (dialkit's table of area codes, as
    :data:`AREA_ZONES`); None for another's, or a code of no state (toll-free)."""
    try:
        parsed = phonenumbers.parse(number)
    except phonenumbers.NumberParseException:
        return None
    if phonenumbers.region_code_for_number(parsed) != "US":
        return None
    state: str | None = area_states(np.array([(parsed.national_number or 0) // 10**7]))[0]
    return state


LIST_COUNTRY = {**dict.fromkeys(("US", "PR", "VI", "GU", "MP", "AS"), "US"), "CA": "CA",
                "GB": "GB"}
"""The country whose Do-Not-Call lists hold a number of each region, as ``dnc_lists.toml``'s
``country`` column says: the US registry holds its territories' numbers too."""


def list_country(number: str) -> str | None:
    """The lists' country of a number (:data:`LIST_COUNTRY`), None for another's."""
    try:
        parsed = phonenumbers.parse(number)
    except phonenumbers.NumberParseException:
        return None
    return LIST_COUNTRY.get(phonenumbers.region_code_for_number(parsed) or "")


@cache
def list_law() -> dict[tuple[str, str], list_table.DncList]:
    """The law of each Do-Not-Call list the data can hold, by country and list (``national``,
    ``company``: :data:`audit_edges.SEEDED_LISTS`), as a user looks it up: ``dnc_lists.toml``'s
    rows, read by ``dialkit._law``."""
    return {(row.country, row.list): row for row in list_table.all()
            if row.list in audit_edges.SEEDED_LISTS}


def scrub_ages(rules: Rules) -> dict[str, timedelta]:
    """How old a DNC check may be, by the lists' country: its row's ``dnc_scrub_days`` in
    ``jurisdictions.toml`` (PECR's 28 days for the UK), or the rules' where stricter."""
    ages = {country: jurisdiction_table.get(country).dnc_scrub_age
            for country in set(LIST_COUNTRY.values())}
    return {country: min(age, rules.scrub_age) for country, age in ages.items()
            if age is not None}


# The competent pandas version -----------------------------------------------------------------
# Fair: what a user fluent in pandas writes for the same findings. ``phonenumbers`` is asked
# once per DISTINCT number (zones, region) and mapped back; local times by one ``tz_convert``
# per zone; the 24-hour counts by sorted keys and ``searchsorted``; the abandonment periods'
# rates by ``groupby``; the DNC rules by ``isin``, ``groupby``, ``merge`` with the lists' law
# and ``merge_asof``. No per-call Python.


def pandas_audit(calls: pd.DataFrame, leads: pd.DataFrame, dnc: pd.DataFrame,
                 verified: Collection[str], blocked: Collection[str], rules: Rules,
                 as_of: pd.Timestamp) -> pd.DataFrame:
    """The audit's findings as a frame of ``rule`` and ``id`` (call id, or lead id)."""
    out = calls[(calls["direction"] == "outbound").to_numpy(bool)].reset_index(drop=True)
    places = _places(pd.concat([out["to_number"], leads["phone"]]))
    known = out["to_number"].isin(places.loc[places["zone"].notna(), "number"]).to_numpy()
    regions = places.drop_duplicates("number").set_index("number")["region"]
    region = out["to_number"].map(regions)
    hidden = out["from_number"].astype(object).fillna("").astype(str).str.strip().str.lower(
        ).isin(["", *BLOCKED_IDS])
    parts = [("calling_hours", out["id"][_outside_hours(out, places, rules)]),
             ("unknown_timezone", out["id"][~known]),
             ("blocked_country", out["id"][region.isin(list(blocked)).to_numpy(bool)]),
             ("unverified_caller_id", out["id"][(~out["from_number"].isin(list(verified))
                                                 & ~hidden).to_numpy(bool)]),
             ("caller_id", out["id"][(hidden & region.isin(CALLER_ID_LAW)).to_numpy(bool)]),
             ("call_frequency", out["id"][_over_frequency(out, rules)]),
             ("abandonment", out["id"][_abandoned_over_limit(out, rules)]),
             *_dnc_findings(out, leads, dnc, rules, as_of, regions)]
    return pd.concat([pd.DataFrame({"rule": rule, "id": ids.astype(object).to_numpy()})
                      for rule, ids in parts], ignore_index=True)


def _places(numbers: pd.Series) -> pd.DataFrame:
    """One row per (distinct number, zone): ``number``, ``zone`` (None for a number of no
    known zone) and ``region``; each number parsed once."""
    rows = []
    for number in numbers.dropna().unique().tolist():
        try:
            parsed = phonenumbers.parse(number)
        except phonenumbers.NumberParseException:
            rows.append((number, None, None))
            continue
        region = phonenumbers.region_code_for_number(parsed)
        zones = judged_zones(parsed)
        rows.extend((number, zone, region) for zone in zones or [None])
    return pd.DataFrame(rows, columns=["number", "zone", "region"])


def _outside_hours(out: pd.DataFrame, places: pd.DataFrame, rules: Rules) -> np.ndarray:
    """Calls placed outside the window in any zone of their number: calls joined to their
    zones, one ``tz_convert`` per zone, the wall-clock time of day against the window."""
    pairs = pd.DataFrame({"row": np.arange(len(out)), "number": out["to_number"],
                          "created_at": out["created_at"]}).merge(
        places.dropna(subset=["zone"]), on="number")
    start, end = (pd.Timedelta(hours=t.hour, minutes=t.minute, seconds=t.second)
                  for t in rules.window)
    outside = np.zeros(len(out), bool)
    for zone, group in pairs.groupby("zone"):
        local = group["created_at"].dt.tz_convert(str(zone)).dt.tz_localize(None)
        of_day = local - local.dt.normalize()
        outside[group["row"].to_numpy()[((of_day < start) | (of_day >= end)).to_numpy()]] = True
    return outside


def _over_frequency(out: pd.DataFrame, rules: Rules) -> np.ndarray:
    """Calls that are more than the limit to their number in the 24 hours up to them: the
    calls sorted by (number, time), each one's count found by ``searchsorted``."""
    number = pd.factorize(out["to_number"])[0].astype(np.int64)
    at = out["created_at"].to_numpy("datetime64[us]").view(np.int64)
    spread = int(at.max() - at.min()) + 2 * 86_400 * 10**6
    key = number * spread + (at - at.min())
    order = np.argsort(key, kind="stable")
    ordered = key[order]
    first = np.searchsorted(ordered, ordered - 86_400 * 10**6, side="right")
    over = np.zeros(len(out), bool)
    over[order] = np.arange(len(order)) - first + 1 > rules.max_calls_per_24h
    return over


def _abandoned_over_limit(out: pd.DataFrame, rules: Rules) -> np.ndarray:
    """Abandoned calls whose campaign's period abandoned more than the limit of the calls
    answered by a live person: each call's period counted from its campaign's first call,
    its rate a group-by of (campaign, period)."""
    if rules.abandonment_limit is None:
        return np.zeros(len(out), bool)  # a policy alone sets no rate: no law measures it
    late = pd.Timedelta(seconds=rules.agent_join_seconds)
    span = pd.Timedelta(rules.abandonment_window or timedelta(days=30))
    campaign = out["campaign_id"].astype(object).fillna("")
    opened = out["created_at"].groupby(campaign).transform("min")
    live = (out["answered_at"].notna() & ~out["status"].isin(["voicemail"])).to_numpy(bool)
    joined, at = out["agent_joined_at"], out["answered_at"]
    dropped = (joined.isna() | (joined - at > late)).to_numpy(bool)[live]
    period = ((at - opened).clip(lower=pd.Timedelta(0)) // span).to_numpy()[live]
    rate = pd.Series(dropped).groupby([campaign.to_numpy()[live], period]).transform("mean")
    flagged = np.zeros(len(out), bool)
    flagged[np.flatnonzero(live)[dropped & (rate > rules.abandonment_limit).to_numpy()]] = True
    return flagged


def _dnc_findings(out: pd.DataFrame, leads: pd.DataFrame, dnc: pd.DataFrame, rules: Rules,
                  as_of: pd.Timestamp, regions: pd.Series) -> list[tuple[str, pd.Series]]:
    """Calls to listed numbers after their listing and past its list's grace, and active
    leads listed (a person's own request, a do_not_call disposition, too) or not screened
    within their country's scrub age; each list's law read
    from the table (:func:`list_law`), each number's country from ``regions``."""
    dnc = dnc[dnc["listed"].notna().to_numpy(bool)]  # a check that did not answer: none
    listed = dnc[dnc["listed"].to_numpy(bool)]
    asked = out[(out["disposition"] == "do_not_call").fillna(False).to_numpy(bool)]
    listings = pd.concat([
        pd.DataFrame({"phone": listed["phone"].astype(object), "list": "national",
                      "since": listed["listed_at"]}),
        pd.DataFrame({"phone": asked["to_number"].astype(object), "list": "company",
                      "since": asked["ended_at"]})], ignore_index=True)
    active = leads[~leads["status"].isin(["dnc", "completed"]).to_numpy(bool)]
    checked = pd.Series(dnc.groupby("phone")["checked_at"].max().astype(WHEN).reindex(
        active["phone"].to_numpy()).array, index=active.index)
    age = active["phone"].astype(object).map(regions).map(LIST_COUNTRY).map(
        scrub_ages(rules)).fillna(rules.scrub_age)
    stale = (checked.isna() | (checked < as_of - age)).to_numpy(bool)
    return [("dnc_call", out["id"][_listed_calls(out, listings, dnc, regions)]),
            ("dnc_call", _first_unscrubbed_calls(out, leads, dnc, regions)),
            ("dnc_lead", active["id"][active["phone"].isin(listings["phone"]).to_numpy()]),
            ("unscreened_lead", active["id"][stale])]


def _first_unscrubbed_calls(out: pd.DataFrame, leads: pd.DataFrame, dnc: pd.DataFrame,
                            regions: pd.Series) -> pd.Series:
    """Each number's earliest call (ties: the lowest call id) of a state whose list is
    required (:func:`owed_lists`) and no answered row of its own scrubs against it
    (:func:`scrubbed`): each distinct US number's state by its area code
    (``area_states``, once per number), the calls a list of residential subscribers
    spares (business lines) left out, then a sort and ``drop_duplicates``."""
    owed, done = owed_lists(), scrubbed(dnc)
    phones = pd.Series(out["to_number"].astype(object).unique())
    us = phones[(phones.map(regions) == "US").to_numpy(bool)]
    states = pd.Series(area_states(us.str[2:5].astype(np.int64).to_numpy()), index=us.to_numpy())
    rows = states.map(owed).dropna()
    rows = rows[[(phone, row.id) not in done for phone, row in rows.items()]]
    business = business_lines(leads)
    spared = [phone for phone, row in rows.items() if row.residential_only and phone in business]
    risky = out.loc[out["to_number"].isin(rows.index.difference(spared)).to_numpy(bool),
                    ["id", "to_number", "created_at"]].astype({"id": object})
    first = risky.sort_values(["created_at", "id"]).drop_duplicates("to_number")
    return first["id"]


def _listed_calls(out: pd.DataFrame, listings: pd.DataFrame, dnc: pd.DataFrame,
                  regions: pd.Series) -> np.ndarray:
    """Which calls break a listing of their number: each call joined to its number's
    listings and their list's law (by the number's country; none for a country the table
    lacks), with the number's last check before it (``merge_asof``): placed after the
    listing (every call, where its date is unknown) and past the list's grace."""
    pairs = pd.DataFrame({"row": np.arange(len(out)), "phone": out["to_number"].astype(object),
                          "at": out["created_at"]})
    pairs = pairs[pairs["phone"].isin(listings["phone"])].merge(listings, on="phone")
    pairs["country"] = pairs["phone"].map(regions).map(LIST_COUNTRY)
    law = pd.DataFrame([(country, kind, pd.Timedelta(row.grace), row.grace_needs_check)
                        for (country, kind), row in list_law().items()],
                       columns=["country", "list", "grace", "harbor"])
    pairs = pairs.merge(law, on=["country", "list"], how="left")
    checks = dnc.loc[dnc["checked_at"].notna(), ["phone", "checked_at"]].astype(
        {"phone": object}).sort_values("checked_at")
    pairs = pd.merge_asof(pairs.sort_values("at"), checks, left_on="at", right_on="checked_at",
                          by="phone")
    at, since, checked = pairs["at"], pairs["since"], pairs["checked_at"]
    grace = pairs["grace"].fillna(pd.Timedelta(0))
    harbor = (checked < since) & (at - checked <= grace)  # the US registry's safe harbor
    in_days = at.dt.normalize() - since.dt.normalize() < grace  # the TPS's, the DNCL's
    safe = np.where(pairs["harbor"].fillna(False).to_numpy(bool), harbor, in_days)
    broken = (since.isna() | (at > since)).to_numpy(bool) & ~safe
    called = np.zeros(len(out), bool)
    called[pairs["row"].to_numpy()[broken]] = True
    return called


# Measuring -----------------------------------------------------------------------------------

def audited(frame: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """The audit with every rule on (:data:`RULES`): the findings."""
    return dialkit.compliance.audit(
        frame["calls"], leads=frame["leads"], dnc=frame["dnc"], verified_caller_ids=VERIFIED,
        blocked_countries=BLOCKED, rules=RULES, as_of=AS_OF).findings


def under_state_law(frame: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """The same audit under the ``US`` preset: each call judged by the federal rule and its
    state's (issue 22's budget: under 3 s on 1M calls with the state rules on)."""
    return dialkit.compliance.audit(
        frame["calls"], leads=frame["leads"], dnc=frame["dnc"], verified_caller_ids=VERIFIED,
        blocked_countries=BLOCKED, rules=dialkit.compliance.US, as_of=AS_OF).findings


def by_hand(frame: dict[str, pd.DataFrame]) -> set[tuple[str, str]]:
    return row_by_row(frame["calls"], frame["leads"], frame["dnc"], VERIFIED, BLOCKED,
                      RULES, AS_OF)


def with_pandas(frame: dict[str, pd.DataFrame]) -> pd.DataFrame:
    return pandas_audit(frame["calls"], frame["leads"], frame["dnc"], VERIFIED, BLOCKED,
                        RULES, AS_OF)


WARM_UP = 100
"""Before its timed run, each process runs its side on every 100th number's frames: the
modules, ``phonenumbers``' metadata and the zone files it first reads are its own cost."""
SIDES: dict[str, Callable[[dict[str, pd.DataFrame]], Any]] = {
    "row by row": by_hand, "pandas": with_pandas, "audit": audited}
NAMES = ("calls", "leads", "dnc")


def found(result: pd.DataFrame | set[tuple[str, str]]) -> set[tuple[str, str]]:
    """Findings as (rule, call id, or lead id for a lead rule)."""
    if isinstance(result, set):
        return result
    if "id" in result:
        return set(zip(result["rule"], result["id"], strict=True))
    ids = result["call_id"].astype(object).where(result["call_id"].notna(),
                                                result["lead_id"].astype(object))
    return set(zip(result["rule"], ids, strict=True))


def per_rule(findings: set[tuple[str, str]]) -> dict[str, int]:
    counts = pd.Series([rule for rule, _ in findings], dtype=object).value_counts()
    return {rule: int(counts.get(rule, 0)) for rule in dialkit.compliance.RULE_IDS}


def digest(findings: set[tuple[str, str]]) -> str:
    return hashlib.sha256("\n".join(sorted(" ".join(f) for f in findings)).encode()).hexdigest()


def subset(frame: dict[str, pd.DataFrame], every: int) -> dict[str, pd.DataFrame]:
    """The calls, leads and DNC results of every ``every``-th number (by the leads' order),
    and of every seeded edge."""
    phones = set(frame["leads"]["phone"].iloc[::every]) | set(frame["edges"]["phone"])
    calls = frame["calls"]
    number = calls["to_number"].where(calls["direction"] == "outbound", calls["from_number"])
    return {"calls": calls[number.isin(phones)].reset_index(drop=True),
            "leads": frame["leads"][frame["leads"]["phone"].isin(phones)].reset_index(drop=True),
            "dnc": frame["dnc"][frame["dnc"]["phone"].isin(phones)].reset_index(drop=True),
            "edges": frame["edges"]}


def written(frame: dict[str, pd.DataFrame], folder: Path) -> Path:
    folder.mkdir()
    for name in (*NAMES, "edges"):
        frame[name].to_parquet(folder / f"{name}.parquet")
    return folder


def load(folder: Path) -> dict[str, pd.DataFrame]:
    """The frames as written, with the dtypes of ``client.frames``, and the edges."""
    return {**{name: typed(pd.read_parquet(folder / f"{name}.parquet"), name)
               for name in NAMES}, "edges": pd.read_parquet(folder / "edges.parquet")}


RUN = "import sys; sys.path.insert(0, sys.argv[3]); import bench_audit; bench_audit.measure()"
Run = dict[str, Any]


def measure() -> None:
    """In a fresh process (``python -c RUN SIDE FOLDER HERE``): read the frames, warm up,
    then run the side twice on the whole frames; print the figures as JSON."""
    side, folder = SIDES[sys.argv[1]], Path(sys.argv[2])
    frame = load(folder)
    began = time.perf_counter()
    side(subset(frame, WARM_UP))
    measured: Run = {"warm_up": time.perf_counter() - began}
    base = high_water()
    measured["first"], measured["second"] = (timed(side, frame, edges=True),
                                             timed(side, frame, edges=True))
    measured["rise"], measured["peak"] = high_water() - base, high_water()
    print(json.dumps(measured))


def timed(side: Callable[[dict[str, pd.DataFrame]], Any], frame: dict[str, pd.DataFrame],
          edges: bool = False) -> Run:
    """One run: wall, user and system seconds, and the findings (a digest, a count per rule;
    with ``edges``, each seeded edge missing or found otherwise than the law says, for a
    side that judges by :data:`RULES`)."""
    before, began = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
    result = side(frame)
    seconds, after = time.perf_counter() - began, resource.getrusage(resource.RUSAGE_SELF)
    findings = found(result)
    return {"seconds": seconds, "user": after.ru_utime - before.ru_utime,
            "sys": after.ru_stime - before.ru_stime, "digest": digest(findings),
            "per_rule": per_rule(findings), "load": os.getloadavg()[0],
            "edges": audit_edges.problems(frame, findings) if edges else []}


def as_the_law_says(label: str, measured: dict[str, list[Run]]) -> None:
    """Stop where a side's last run found a seeded edge otherwise than the law says, or
    the frames lack one (:mod:`audit_edges`), naming each."""
    wrong = {side: ms[-1]["edges"] for side, ms in measured.items() if ms[-1]["edges"]}
    if wrong:
        raise AssertionError(f"{label}: the seeded edges, as the law does not say:\n" + "\n".join(
            f"  {side}: {problem}" for side, problems in wrong.items() for problem in problems))


def high_water() -> int:
    """This process's peak resident memory (``VmHWM``), in bytes."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    return 0


def in_a_fresh_process(side: str, folder: Path) -> Run:
    """One process's figures for ``side`` on the frames written in ``folder``."""
    here = str(Path(__file__).parent)
    done = subprocess.run([sys.executable, "-c", RUN, side, str(folder), here],
                          capture_output=True, text=True, check=True)
    measured: Run = json.loads(done.stdout.strip().splitlines()[-1])
    return measured


def alternate(folder: Path, sides: tuple[str, ...], runs: int, label: str) -> dict[str, list[Run]]:
    """``runs`` processes of each side, in turn; every run of either finds the same."""
    measured: dict[str, list[Run]] = {side: [] for side in sides}
    for run in range(runs):
        for side in sides:
            measured[side].append(in_a_fresh_process(side, folder))
        for which in ("first", "second"):
            as_the_law_says(f"{label}, run {run + 1} ({which} of its process)",
                            {side: [ms[-1][which]] for side, ms in measured.items()})
        digests = {m[which]["digest"] for ms in measured.values() for m in ms
                   for which in ("first", "second")}
        if len(digests) != 1:
            counts = {side: [m["first"]["per_rule"] for m in ms] for side, ms in measured.items()}
            raise AssertionError(f"{label}, run {run + 1}: the sides found differently: {counts}")
        print(f"{label}, run {run + 1}: " + "; ".join(
            f"{side} {ms[-1]['first']['seconds']:.3f} s, then {ms[-1]['second']['seconds']:.3f} s"
            for side, ms in measured.items())
            + f"; {sum(measured[sides[-1]][-1]['first']['per_rule'].values()):,} findings"
            + (", the same both ways" if len(sides) > 1 else ""), flush=True)
    return measured


AUDIT_TARGET_SECONDS, AUDIT_TARGET_RATIO = 0.6, 10.0
"""Issue 21's targets on 1M calls / 200k leads: under 0.6 s warm, >= 10x the pandas version."""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=1_000_000)
    parser.add_argument("--leads", type=int, default=200_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--every", type=int, default=10,
                        help="the subset: calls, leads and DNC results of every EVERY-th number")
    parser.add_argument("--full-baseline", action="store_true",
                        help="run the row-by-row version on the whole frames too (a minute a run)")
    parser.add_argument("--fresh-processes", action="store_true",
                        help="also each side's first and second run in fresh processes")
    parser.add_argument("--profile", type=int, metavar="LINES", default=0,
                        help="instead: profile one warm audit of the frames as the cache "
                             "gives them, the LINES costliest functions (cumulative time)")
    options = parser.parse_args()
    began = time.perf_counter()
    frame = frames(options.calls, options.leads)
    describe(frame, time.perf_counter() - began)
    folder = Path(tempfile.mkdtemp())
    if options.profile:
        profiled(load(written(frame, folder / "whole")), options.profile)
        return
    part = subset(frame, options.every)
    whole_sides = ("audit", "pandas", *(("row by row",) if options.full_baseline else ()))
    wholes, parts = written(frame, folder / "whole"), written(part, folder / "part")
    in_one = {"whole frames": interleaved(load(wholes), whole_sides, options.runs),
              f"every {options.every}th number": interleaved(
                  load(parts), ("audit", "pandas", "row by row"), options.runs)}
    report_interleaved(frame, part, in_one)
    report_state_law(load(wholes), options.runs)
    if options.fresh_processes:
        results = {
            "whole frames": alternate(wholes, whole_sides, options.runs, "whole frames"),
            f"every {options.every}th number": alternate(
                parts, ("row by row", "pandas", "audit"), options.runs,
                f"every {options.every}th number")}
        report(frame, part, results)


def profiled(frame: dict[str, pd.DataFrame], lines: int) -> None:
    """One audit under ``cProfile`` after a warm-up run on the same frames (as the
    interleaved runs time it): its costliest functions by cumulative time, then by own."""
    import cProfile
    import pstats

    audited(frame)
    profile = cProfile.Profile()
    profile.runcall(audited, frame)
    for order in ("cumulative", "tottime"):
        pstats.Stats(profile).sort_stats(order).print_stats(lines)


def interleaved(frame: dict[str, pd.DataFrame], sides: tuple[str, ...],
                runs: int) -> dict[str, list[Run]]:
    """In this process: each side warmed up on every 100th number's frames, then ``runs``
    rounds of every side in turn (the order turning each round); every run finds the same."""
    warm = subset(frame, WARM_UP)
    for side in sides:
        SIDES[side](warm)
    measured: dict[str, list[Run]] = {side: [] for side in sides}
    for run in range(runs):
        for side in sides[run % len(sides):] + sides[:run % len(sides)]:
            gc.collect()
            measured[side].append(timed(SIDES[side], frame, edges=True))
        as_the_law_says(f"{len(frame['calls']):,} calls, run {run + 1}", measured)
        digests = {ms[-1]["digest"] for ms in measured.values()}
        if len(digests) != 1:
            counts = {side: ms[-1]["per_rule"] for side, ms in measured.items()}
            raise AssertionError(f"run {run + 1}: the sides found differently: {counts}")
        print(f"{len(frame['calls']):,} calls, run {run + 1}: " + "; ".join(
            f"{side} {ms[-1]['seconds']:.3f} s" for side, ms in measured.items())
            + f"; {sum(measured['audit'][-1]['per_rule'].values()):,} findings, the same "
            f"every way, and the {len(frame['edges'])} seeded edges as the law says", flush=True)
    return measured


LABELS = {"audit": "dialkit.compliance.audit", "pandas": "competent pandas",
          "row by row": "row by row (straw man)"}
WHY = {"pandas": "fair: each distinct number parsed once and mapped back, one tz_convert per "
                 "zone, sorted keys + searchsorted, groupby; no per-call Python",
       "row by row": "a straw man: phonenumbers and zoneinfo on every call, a deque per number"}


def ratios(runs: list[Run], sides: dict[str, list[Run]], which: str | None = None) -> list[float]:
    """Each run's time over the audit's in the same round (``which``: of a fresh process)."""
    def wall(run: Run) -> float:
        return float(run[which]["seconds"] if which else run["seconds"])
    return [wall(r) / wall(a) for r, a in zip(runs, sides["audit"], strict=True)]


def report_interleaved(frame: dict[str, pd.DataFrame], part: dict[str, pd.DataFrame],
                       results: dict[str, dict[str, list[Run]]]) -> None:
    """The in-process figures: medians, and each baseline's ratio to the audit as the median
    of the per-run ratios."""
    sizes = {label: f"{len(f['calls']):,} calls, {len(f['leads']):,} leads"
             for label, f in zip(results, (frame, part), strict=True)}
    print(f"\ninterleaved runs in one process, warm; targets: audit < {AUDIT_TARGET_SECONDS} s "
          f"on 1M calls, >= {AUDIT_TARGET_RATIO:g}x the competent pandas version")
    for side, why in WHY.items():
        print(f"{LABELS[side]}: {why}")
    print("| frames | side | median wall | ratio to the audit (median of per-run) | runs (s) "
          "| median CPU user + sys | load (1 min) after each run |")
    print("|---|---|---|---|---|---|---|")
    for label, sides in results.items():
        for side, runs in sides.items():
            wall = [r["seconds"] for r in runs]
            ratio = "" if side == "audit" else f"{statistics.median(ratios(runs, sides)):.1f}x"
            print(f"| {label} ({sizes[label]}) | {LABELS[side]} | "
                  f"{statistics.median(wall):.3f} s | {ratio} | "
                  f"{', '.join(f'{w:.3f}' for w in wall)} | "
                  f"{statistics.median(r['user'] for r in runs):.2f} + "
                  f"{statistics.median(r['sys'] for r in runs):.2f} s | "
                  f"{', '.join(format(r['load'], '.1f') for r in runs)} |")
        print(f"findings per rule, {label}:", sides["audit"][0]["per_rule"])


def report_state_law(frame: dict[str, pd.DataFrame], runs: int) -> None:
    """The audit under the ``US`` preset (state rows on) and under :data:`RULES` (a policy
    alone, the same for every call), interleaved in this process: CPU seconds (user + sys,
    the machine being shared), each median, and the median of the per-round ratios."""
    sides = {"US (state law)": under_state_law, "RULES": audited}
    measured: dict[str, list[Run]] = {side: [] for side in sides}
    for run in range(runs):
        for side in list(sides)[run % 2:] + list(sides)[:run % 2]:
            gc.collect()
            measured[side].append(timed(sides[side], frame))
    cpu = {side: [r["user"] + r["sys"] for r in ms] for side, ms in measured.items()}
    each = [law / flat for law, flat in zip(*cpu.values(), strict=True)]
    print(f"\n{len(frame['calls']):,} calls, state law vs RULES (a policy alone), CPU s:")
    for side, seconds in cpu.items():
        print(f"{side}: median {statistics.median(seconds):.2f} s CPU "
              f"({', '.join(f'{s:.2f}' for s in seconds)}), median wall "
              f"{statistics.median(r['seconds'] for r in measured[side]):.2f} s; findings per "
              f"rule: {measured[side][0]['per_rule']}")
    print(f"ratio, state law over RULES: {statistics.median(each):.2f}x; load "
          f"{', '.join(format(r['load'], '.1f') for r in measured['RULES'])}")


def describe(frame: dict[str, pd.DataFrame], seconds: float) -> None:
    calls, dnc = frame["calls"], frame["dnc"]
    outbound = calls[calls["direction"] == "outbound"]
    regions = frame["numbers"]["region"].value_counts(normalize=True)
    print(f"generated in {seconds:.1f} s: {len(calls):,} calls ({len(outbound) / len(calls):.1%} "
          f"outbound, {outbound['answered_at'].notna().mean():.1%} of them answered) to "
          f"{outbound['to_number'].nunique():,} numbers, {calls['created_at'].min()} to "
          f"{calls['created_at'].max()}; {len(frame['leads']):,} leads; {len(dnc):,} DNC "
          f"results, {dnc['listed'].mean():.2%} listed; numbers by region: "
          + ", ".join(f"{region} {share:.2%}" for region, share in regions.items()), flush=True)


def report(frame: dict[str, pd.DataFrame], part: dict[str, pd.DataFrame],
           results: dict[str, dict[str, list[Run]]]) -> None:
    """The figures, as tables for ``RESULTS.md``."""
    sizes = {label: f"{len(f['calls']):,} calls, {len(f['leads']):,} leads"
             for label, f in zip(results, (frame, part), strict=True)}
    print("\n| frames | side | run | median wall | runs (s) | median CPU user + sys |")
    print("|---|---|---|---|---|---|")
    for label, sides in results.items():
        for side, runs in sides.items():
            for which in ("first", "second"):
                wall = [r[which]["seconds"] for r in runs]
                user = statistics.median(r[which]["user"] for r in runs)
                system = statistics.median(r[which]["sys"] for r in runs)
                print(f"| {label} ({sizes[label]}) | {side} | {which} | "
                      f"{statistics.median(wall):.3f} s | {', '.join(f'{w:.3f}' for w in wall)} | "
                      f"{user:.2f} + {system:.2f} s |")
    print("\n| frames | side | warm-up (every 100th number) | VmHWM rise | VmHWM |")
    print("|---|---|---|---|---|")
    for label, sides in results.items():
        for side, runs in sides.items():
            print(f"| {label} | {side} | {statistics.median(r['warm_up'] for r in runs):.3f} s | "
                  f"{statistics.median(r['rise'] for r in runs) / 2**30:.2f} GiB | "
                  f"{statistics.median(r['peak'] for r in runs) / 2**30:.2f} GiB |")
    for label, sides in results.items():
        for which in ("first", "second"):
            for side in (side for side in sides if side != "audit"):
                each = ratios(sides[side], sides, which)
                print(f"ratio, {label}, {side}, {which} runs: {statistics.median(each):.1f}x "
                      f"(per process: {', '.join(f'{r:.1f}' for r in each)})")
        print(f"findings per rule, {label}:", next(iter(sides.values()))[0]["first"]["per_rule"])


if __name__ == "__main__":
    main()
