"""Do-Not-Call check and add, and consent records.

The DNC table is layered: an account's seeded numbers plus those its data set
added, so a number added by one sandbox client is never listed for another.
Consent records belong to the caller's data set; :func:`consent_withdrawn`
is the rule SMS sending applies to them.

Shapes the contract does not show (see docs/emulator.md): the DNC entry
``{phone, listed, added_at, source}``, and the consent record (the body of
:class:`ConsentCreateRequest` plus ``id`` and ``created_at``).
"""

from __future__ import annotations

import sqlite3
from datetime import timedelta
from typing import Annotated, Any, Literal

import orjson
from fastapi import APIRouter
from pydantic import AwareDatetime, Field, StrictBool, WithJsonSchema

from dialkit._phones._asked import e164_text, valid_number
from dialkit.contract import (
    DNC_CHECK_BATCH,
    E164,
    E164_PATTERN,
    ConsentId,
    DncAddRequest,
    DncCheckResponse,
    ErrorCode,
    RequestBody,
    Resource,
    UtcDateTime,
    is_e164,
    new_id,
)

from .._http._problems import ApiProblem, field_error
from .._state._clock import isoformat
from .._state._compliance import listed_since, require_phone
from .._state._service import RequestContext
from ._routing import Ctx, endpoint, json_response

router = APIRouter()


ConsentChannel = Literal["sms", "call", "whatsapp"]
"""Channels a consent record can be about."""

ConsentMethod = Literal["web_form", "verbal", "written", "sms_keyword"]
"""How consent was captured."""

EVIDENCE_URL_MAX = 2048
CONSENT_TEXT_MAX = 2000
CAPTURE_SKEW_SECONDS = 300
"""How far in the service's future ``captured_at`` may lie (clock skew of the caller)."""


class DncCheckBody(RequestBody):
    """Body of ``POST /v1/dnc/check``, as the emulator parses it.

    The contract's :class:`~dialkit.contract.DncCheckRequest` caps ``phones``
    at 100 items of E.164 form, and a pydantic refusal would be 400
    ``validation_failed``; the service answers 400 ``batch_too_large`` for too
    many numbers, and points at each bad number. So the count and the form are
    checked by the handler, while the published schema keeps the contract's
    limits.
    """

    phones: list[Annotated[str, WithJsonSchema({"type": "string", "pattern": E164_PATTERN})]] = (
        Field(min_length=1, json_schema_extra={"maxItems": DNC_CHECK_BATCH})
    )


class DncEntry(Resource):
    """A number on the account's Do-Not-Call list (shape not shown by the contract)."""

    phone: str
    listed: bool
    added_at: AwareDatetime
    source: str


class ConsentCreateRequest(RequestBody):
    """Body of ``POST /v1/consents`` (shape not shown by the contract).

    ``captured_at`` is when the person gave or withdrew consent; ``granted``
    false records a withdrawal or refusal, which SMS sending then honours.
    """

    phone: E164
    channel: ConsentChannel
    granted: StrictBool
    captured_at: UtcDateTime
    method: ConsentMethod
    evidence_url: str | None = Field(
        default=None, max_length=EVIDENCE_URL_MAX, pattern=r"^https?://\S+$"
    )
    text: str | None = Field(default=None, min_length=1, max_length=CONSENT_TEXT_MAX)


class ConsentRecord(Resource):
    """A stored consent record: the request's fields plus ``id`` and ``created_at``."""

    id: ConsentId
    phone: str
    channel: ConsentChannel
    granted: bool
    captured_at: UtcDateTime
    method: ConsentMethod
    evidence_url: str | None
    text: str | None
    created_at: AwareDatetime


def _phone_problem(value: str) -> str | None:
    """The field-error code for a number that is not a valid E.164 number, else ``None``."""
    if not is_e164(value):
        return "invalid_format"
    return "invalid_phone" if valid_number(value) is None else None


def canonical_phone(value: str, pointer: str) -> str:
    """The canonical E.164 form of a valid number, or 400 ``validation_failed`` at ``pointer``."""
    return e164_text(require_phone(value, pointer))


@endpoint(router, "dnc.check", response_model=DncCheckResponse)
async def check_numbers(ctx: Ctx, body: DncCheckBody) -> Any:
    """Listed or not, one result per input number in input order (repeats answered each time).

    Each result also says since when the number is listed (``listed_at``, the
    emulator's extra field; null when not listed), so an audit can tell a call
    placed before the listing from one placed after it.
    """
    if len(body.phones) > DNC_CHECK_BATCH:
        raise ApiProblem(ErrorCode.BATCH_TOO_LARGE,
                         f"{len(body.phones)} numbers sent; check at most {DNC_CHECK_BATCH} per "
                         "request and split the rest into further requests.")
    errors = [(f"/phones/{i}", code) for i, phone in enumerate(body.phones)
              if (code := _phone_problem(phone)) is not None]
    if errors:
        raise ApiProblem(ErrorCode.VALIDATION_FAILED,
                         f"{len(errors)} of the numbers are not valid E.164 numbers (such as "
                         "+14155550123); each is named in errors.", errors=errors)
    since = [listed_since(ctx, canonical_phone(phone, f"/phones/{i}"))
             for i, phone in enumerate(body.phones)]
    return json_response({"data": [
        {"phone": phone, "listed": at is not None, "listed_at": at}
        for phone, at in zip(body.phones, since, strict=True)]})


def _listed_entry(ctx: RequestContext, phone: str) -> sqlite3.Row | None:
    """The number's earliest DNC row in the seed or the caller's data set."""
    layers = ctx.service.store.layers(ctx.dataset, ctx.account.name)
    return ctx.service.store.row(
        "SELECT phone, added_at, source FROM dnc WHERE phone = ? AND dataset IN (?, ?) "
        "ORDER BY added_at LIMIT 1", (phone, *layers))


def _render_entry(row: sqlite3.Row) -> dict[str, Any]:
    return {"phone": row["phone"], "listed": True, "added_at": row["added_at"],
            "source": row["source"]}


@endpoint(router, "dnc.add", status_code=201, response_model=DncEntry, also=(200,))
async def add_number(ctx: Ctx, body: DncAddRequest) -> Any:
    """Add a number: 201 with the new entry, or 200 with the entry already on the list."""
    phone = canonical_phone(body.phone, "/phone")
    existing = _listed_entry(ctx, phone)
    if existing is not None:
        return json_response(_render_entry(existing))
    entry = {"phone": phone, "listed": True, "added_at": ctx.now(), "source": "api"}
    ctx.service.store.conn.execute(
        "INSERT INTO dnc (dataset, phone, added_at, source) VALUES (?, ?, ?, ?)",
        (ctx.dataset, phone, entry["added_at"], entry["source"]))
    return json_response(entry, status_code=201)


@endpoint(router, "consents.create", status_code=201, response_model=ConsentRecord)
async def create_consent(ctx: Ctx, body: ConsentCreateRequest) -> Any:
    """Record consent evidence for one number and channel."""
    phone = canonical_phone(body.phone, "/phone")
    latest = ctx.service.clock.now() + timedelta(seconds=CAPTURE_SKEW_SECONDS)
    if body.captured_at > latest:
        raise field_error("/captured_at", "in_future",
                          "captured_at lies in the future; send when the consent was captured.")
    record = {**body.model_dump(mode="json"), "id": new_id("cns_"), "phone": phone,
              "captured_at": isoformat(body.captured_at), "created_at": ctx.now()}
    ctx.service.store.conn.execute(
        "INSERT INTO consents (dataset, id, phone, data, created_at) VALUES (?, ?, ?, ?, ?)",
        (ctx.dataset, record["id"], phone, orjson.dumps(record).decode(), record["created_at"]))
    return json_response(record, status_code=201)


def consent_withdrawn(ctx: RequestContext, phone: str, channel: str) -> bool:
    """Whether the latest consent record for ``phone`` and ``channel`` says not granted.

    The latest is the one captured last (ties: recorded last). No record at
    all means no objection on file, so sending is allowed.
    """
    row = ctx.service.store.row(
        "SELECT data FROM consents WHERE dataset = ? AND phone = ? "
        "AND json_extract(data, '$.channel') = ? "
        "ORDER BY json_extract(data, '$.captured_at') DESC, created_at DESC LIMIT 1",
        (ctx.dataset, phone, channel))
    return row is not None and not orjson.loads(row["data"])["granted"]
