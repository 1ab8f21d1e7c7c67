"""Calls: list, read, click-to-call, and each call's recording, transcript and summary.

The calls table is layered: a data set reads the account's seeded calls plus
its own, selected by ``account`` first so that the list walks the index
``calls_order`` (or ``calls_campaign``) in order, without sorting. The
recording, transcript and summary shapes are not shown by the contract; the
emulator derives them from the call row and the service clock alone, so they
are the same on every read:

- a recorded call has a recording once it was answered and has ended: a WAV
  file (8 kHz, 16-bit mono PCM) as long as ``duration_seconds``, silent while
  it rang, then two tones taking turns (agent and customer) with pauses,
  streamed second by second;
- transcript and summary are ``processing`` while the call runs (a click-to-call
  stays ``dialing`` in the sandbox) and for :data:`PROCESSING_SECONDS` after it
  ends; ``not_generated`` for an unanswered call (``no_conversation``) or a
  conversation (answer to end) under :data:`MIN_CONVERSATION_SECONDS`
  (``too_short``); else ``ready`` with content that follows the call's
  disposition, the transcript's lines on the recording's timeline.
"""

from __future__ import annotations

import itertools
import math
import random
import sqlite3
import struct
from collections.abc import AsyncIterator, Iterator
from datetime import datetime, timedelta
from typing import Any

from fastapi import APIRouter
from fastapi.responses import StreamingResponse

from dialkit.contract import (
    Call,
    CallCreateRequest,
    CallDirection,
    CallSummary,
    CampaignId,
    ErrorCode,
    Page,
    StartedCall,
    SummaryStatus,
)

from ..._http._problems import ApiProblem
from ..._state._clock import isoformat, parse_timestamp
from ..._state._service import RequestContext
from ..._world._numbers import country_of
from .._routing import (
    Ctx,
    ListQuery,
    endpoint,
    json_object_sql,
    json_response,
    paginate,
    query_model,
)
from ._click_to_call import start_call

router = APIRouter()

COLUMNS = ("id", "direction", "from_number", "to_number", "status", "created_at", "answered_at",
           "ended_at", "duration_seconds", "campaign_id", "disposition", "hangup_cause",
           "agent_joined_at")
"""The Call record's fields, in the contract's order, then the emulator's extra
``agent_joined_at`` (when an agent joined the answered call; null if none did),
which the contract does not show but an abandonment audit needs; also the
list's selected columns."""

_ITEM_JSON = json_object_sql(COLUMNS)

SAMPLE_RATE = 8000
"""Recording sample rate (telephone quality); samples are 16-bit mono PCM."""

PROCESSING_SECONDS = 45
"""Transcript and summary are ``processing`` this long after the call ends."""

MIN_CONVERSATION_SECONDS = 10
"""A shorter answered call gets no transcript or summary (``too_short``)."""

SUMMARY_SCHEMA_VERSION = 1

_SECOND_BYTES = SAMPLE_RATE * 2


def _tone(frequency: float) -> bytes:
    """One second of a quiet sine tone."""
    step = 2 * math.pi * frequency / SAMPLE_RATE
    samples = (round(3000 * math.sin(step * i)) for i in range(SAMPLE_RATE))
    return struct.pack(f"<{SAMPLE_RATE}h", *samples)


_VOICES = (_tone(440.0), _tone(330.0))
"""The agent's and the customer's second of "speech"."""
_SILENCE = bytes(_SECOND_BYTES)


def wav_header(data_bytes: int) -> bytes:
    """The 44-byte RIFF header of a PCM WAV file with ``data_bytes`` of samples."""
    return struct.pack("<4sI4s4sIHHIIHH4sI", b"RIFF", 36 + data_bytes, b"WAVE", b"fmt ", 16, 1,
                       1, SAMPLE_RATE, _SECOND_BYTES, 2, 16, b"data", data_bytes)


def _talk(row: sqlite3.Row) -> tuple[float, float]:
    """Start and end of the conversation of an answered call that ended.

    Both are seconds from the call's ``created_at``, the start of the recording,
    which lasts ``duration_seconds`` (ringing included).
    """
    created = parse_timestamp(row["created_at"])
    start = (parse_timestamp(row["answered_at"]) - created).total_seconds()
    end = row["duration_seconds"]
    if end is None:
        end = (parse_timestamp(row["ended_at"]) - created).total_seconds()
    return start, float(end)


def _seconds(call_id: str, ringing: int) -> Iterator[bytes]:
    """Endless seconds of audio: silence while ringing, then turns of 2-8 s per speaker."""
    yield from itertools.repeat(_SILENCE, ringing)
    rng, voice = random.Random(call_id), 0
    while True:
        yield from itertools.repeat(_VOICES[voice], rng.randint(2, 8))
        yield _SILENCE
        voice = 1 - voice


async def _wav(call_id: str, ringing: int, data_bytes: int) -> AsyncIterator[bytes]:
    """The WAV file, header first, then one chunk per second of audio."""
    yield wav_header(data_bytes)
    left = data_bytes
    for second in _seconds(call_id, ringing):
        if left <= 0:
            return
        yield second[:left]
        left -= len(second)


def recording_stream(row: sqlite3.Row) -> tuple[int, AsyncIterator[bytes]] | None:
    """The recording's total length and its chunks, or ``None`` when the call has none."""
    if not row["recording"] or row["answered_at"] is None or row["ended_at"] is None:
        return None
    start, end = _talk(row)
    data_bytes = round(end * SAMPLE_RATE) * 2
    return 44 + data_bytes, _wav(row["id"], round(start), data_bytes)


def _readiness(row: sqlite3.Row, now: datetime) -> tuple[SummaryStatus, str | None, str | None]:
    """Status, ``not_generated_reason`` and ``generated_at`` of a transcript or summary."""
    if row["ended_at"] is None:
        return SummaryStatus.PROCESSING, None, None
    if row["answered_at"] is None:
        return SummaryStatus.NOT_GENERATED, "no_conversation", None
    start, end = _talk(row)
    if end - start < MIN_CONVERSATION_SECONDS:
        return SummaryStatus.NOT_GENERATED, "too_short", None
    generated = parse_timestamp(row["ended_at"]) + timedelta(seconds=PROCESSING_SECONDS)
    if generated > now:
        return SummaryStatus.PROCESSING, None, None
    return SummaryStatus.READY, None, isoformat(generated)


_LANGUAGES = {"US": "en-US", "CA": "en-CA", "GB": "en-GB"}


def _language(row: sqlite3.Row) -> str:
    """BCP 47 tag of the conversation: English of the customer's country."""
    customer = row["to_number"] if row["direction"] == "outbound" else row["from_number"]
    return _LANGUAGES.get(country_of(customer) or "", "en")


_OPENINGS = {
    "outbound": (("agent", "Hello, this is the customer team calling. Is now a good time?"),
                 ("customer", "Yes, go ahead.")),
    "inbound": (("agent", "Thank you for calling. How can I help you today?"),),
}
_ENDINGS: dict[str | None, tuple[tuple[str, str], ...]] = {
    "sale": (("customer", "That sounds good, let's go ahead."),
             ("agent", "Great, it's set up. You'll get a confirmation shortly.")),
    "not_interested": (("agent", "Would you like to hear about our current offer?"),
                       ("customer", "No, I'm not interested, thank you.")),
    "callback_requested": (("customer", "I'm busy now. Could you call me back tomorrow?"),
                           ("agent", "Of course, I'll schedule a callback.")),
    "info_sent": (("customer", "Could you send me the details by email?"),
                  ("agent", "Certainly, I'm sending them now.")),
    "wrong_number": (("customer", "I think you have the wrong number."),
                     ("agent", "Sorry for the trouble. Goodbye.")),
    "do_not_call": (("customer", "Please stop calling me and take me off your list."),
                    ("agent", "Understood, your number goes on our do-not-call list.")),
    "inquiry": (("customer", "I have a question about my account."),
                ("agent", "Let me look that up for you.")),
    None: (("customer", "Hello? Is anyone there?"),),
}
_NEXT: dict[str | None, tuple[str, str]] = {
    "sale": ("purchase", "send_confirmation"),
    "not_interested": ("decline", "close_lead"),
    "callback_requested": ("request_callback", "schedule_callback"),
    "info_sent": ("request_information", "send_information"),
    "wrong_number": ("wrong_contact", "update_contact_details"),
    "do_not_call": ("opt_out", "add_to_dnc"),
    "inquiry": ("account_question", "follow_up"),
}
"""Per disposition: the customer's intent and the suggested next action."""


def _segments(row: sqlite3.Row) -> list[dict[str, Any]]:
    """The conversation's lines, spread evenly over it on the recording's timeline."""
    lines = (*_OPENINGS[row["direction"]], *_ENDINGS.get(row["disposition"], ()))
    start, end = _talk(row)
    step = (end - start) / len(lines)
    return [{"speaker": speaker, "start_seconds": round(start + i * step, 1),
             "end_seconds": round(start + (i + 1) * step, 1), "text": text}
            for i, (speaker, text) in enumerate(lines)]


def transcript(row: sqlite3.Row, now: datetime) -> dict[str, Any]:
    """The transcript: status as for the summary, and the lines once ``ready``."""
    status, reason, generated_at = _readiness(row, now)
    ready = status is SummaryStatus.READY
    return {"call_id": row["id"], "status": status, "not_generated_reason": reason,
            "language": _language(row) if ready else None, "generated_at": generated_at,
            "segments": _segments(row) if ready else None}


def summary(row: sqlite3.Row, now: datetime) -> dict[str, Any]:
    """The AI summary: content fields are null unless the status is ``ready``."""
    status, reason, generated_at = _readiness(row, now)
    content: dict[str, Any] = dict.fromkeys(
        ("reason_for_contact", "intent", "next_action", "outcome_candidate", "language",
         "source"))
    if status is SummaryStatus.READY:
        intent, next_action = _NEXT.get(row["disposition"], ("unclear", "review_call"))
        content = {
            "reason_for_contact": ("Campaign call to the lead" if row["direction"] == "outbound"
                                   else "The customer called the account"),
            "intent": intent, "next_action": next_action,
            "outcome_candidate": row["disposition"], "language": _language(row),
            "source": "ai_agent" if row["ai_agent"] else "transcript"}
    return {"call_id": row["id"], "status": status, "not_generated_reason": reason,
            "schema_version": SUMMARY_SCHEMA_VERSION, **content, "generated_at": generated_at}


class CallListQuery(ListQuery):
    """Filters of GET /v1/calls."""

    campaign_id: CampaignId | None = None
    direction: CallDirection | None = None


def render(row: sqlite3.Row) -> dict[str, Any]:
    """A call row as the contract's Call record."""
    return {c: row[c] for c in COLUMNS}


def load(ctx: RequestContext, call_id: str) -> sqlite3.Row:
    """A call of the caller's account and data set, or 404 ``not_found``."""
    store = ctx.service.store
    row = store.row("SELECT * FROM calls WHERE id = ? AND account = ? AND dataset IN (?, ?)",
                    (call_id, ctx.account.name, *store.layers(ctx.dataset, ctx.account.name)))
    if row is None:
        raise ApiProblem(ErrorCode.NOT_FOUND,
                         "No call of this account has this id. Take call ids from GET /v1/calls.")
    return row


@endpoint(router, "calls.list", response_model=Page[Call], query=True)
async def list_calls(ctx: Ctx, query: query_model(CallListQuery)) -> Any:  # type: ignore[valid-type]
    """Every call of the account, newest first, optionally of one campaign or direction."""
    where = "account = ? AND dataset IN (?, ?)"
    params: list[Any] = [ctx.account.name, *ctx.service.store.layers(ctx.dataset,
                                                                    ctx.account.name)]
    return paginate(ctx, "calls", query, table="calls", where=where, params=params,
                    json_sql=_ITEM_JSON)


@endpoint(router, "calls.get", response_model=Call)
async def get_call(ctx: Ctx, call_id: str) -> Any:
    """One call record."""
    return json_response(render(load(ctx, call_id)))


@endpoint(router, "calls.create", status_code=201, response_model=StartedCall)
async def create_call(ctx: Ctx, body: CallCreateRequest) -> Any:
    """Click-to-call: hold the agent, check, and place the call (nothing is really dialled)."""
    return json_response(start_call(ctx, body), status_code=201)


@endpoint(router, "calls.recording", response_model=None, media_type="audio/wav")
async def get_recording(ctx: Ctx, call_id: str) -> Any:
    """The call's recording as a streamed WAV file; 404 when the call has none."""
    row = load(ctx, call_id)
    stream = recording_stream(row)
    if stream is None:
        raise ApiProblem(ErrorCode.NOT_FOUND,
                         "This call has no recording: it was never answered, or it is still "
                         "in progress.")
    length, chunks = stream
    return StreamingResponse(chunks, media_type="audio/wav", headers={
        "content-length": str(length),
        "content-disposition": f'attachment; filename="{row["id"]}.wav"'})


@endpoint(router, "calls.transcript", response_model=dict[str, Any])
async def get_transcript(ctx: Ctx, call_id: str) -> Any:
    """The call's transcript (shape not shown; see docs/emulator.md)."""
    return json_response(transcript(load(ctx, call_id), ctx.service.clock.now()))


@endpoint(router, "calls.summary", response_model=CallSummary)
async def get_summary(ctx: Ctx, call_id: str) -> Any:
    """The call's AI summary: ready, processing, or not generated and why."""
    return json_response(summary(load(ctx, call_id), ctx.service.clock.now()))
