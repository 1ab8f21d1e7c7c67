"""Per-lead rules shared by lead import and single add.

Both operations judge every lead on its own and answer with a per-lead status
instead of refusing the request; only the request's shape is refused with 400.
The checks run in the contract's order and the first refusal decides:

1. the phone: absent, null or blank gives ``invalid``/``missing_phone``; longer
   than 32 characters ``invalid``/``field_rule`` (field ``phone``); anything
   but a valid E.164 number gives ``invalid_phone``. Spaces, dashes, dots and
   brackets are tolerated and dropped; the stored form is E.164;
2. a destination in one of the account's blocked countries: ``blocked_country``;
3. duplicates: a phone or ``external_id`` of a lead accepted earlier in the same
   request gives ``duplicate``/``duplicate_in_request``; a phone already a lead
   of the campaign, or an ``external_id`` the API client already uses in the
   campaign, ``duplicate``/``duplicate_in_campaign``. An ``external_id`` the
   client uses in another campaign breaks its uniqueness per client: ``invalid``/
   ``field_rule`` with field ``external_id``;
4. field rules (the contract's LeadInput limits, an email that looks like one,
   scalar custom field values, at most 20 custom fields with ``lead_source``):
   ``invalid``/``field_rule`` naming the first offending field in the contract's
   field order (``external_id``, ``first_name``, ``last_name``, ``full_name``,
   ``email``, ``custom_fields.<name>`` in the order the custom fields were sent);
5. single add only: a ``source`` that is not one of the account's lead sources,
   ``invalid``/``unknown_source``;
6. the Do-Not-Call screen: ``on_dnc``.

A lead that passes is :class:`Accepted`, ready to be stored (custom fields
sent as null are left out). The contract's ``failed`` status, with reasons
``not_stored`` and ``unrecognised``, never occurs in the emulator: the accepted
leads of a request are written in one transaction, or the request fails whole.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated

from pydantic import AfterValidator, JsonValue, ValidationError, WithJsonSchema

from dialkit._phones._asked import PhoneNumber, country_of, e164_text, valid_number
from dialkit.contract import (
    EMAIL_PATTERN,
    MAX_CUSTOM_FIELDS,
    PHONE_MAX,
    LeadCreatedReason,
    LeadInput,
    LeadResultReason,
    LeadResultStatus,
    is_e164,
)

from ..._state._service import RequestContext

LeadData = Mapping[str, JsonValue]
"""One lead as the request sent it (only the contract's lead fields)."""

LEAD_SOURCE_FIELD = "lead_source"
"""The custom field a single add's ``source`` is stored in."""

_SEPARATORS = re.compile(r"[ \-.()]")
_EMAIL = re.compile(EMAIL_PATTERN)


def is_scalar(value: JsonValue) -> bool:
    """Whether a custom field value is allowed: a string, number, boolean or null."""
    return not isinstance(value, dict | list)


def _scalar(value: JsonValue) -> JsonValue:
    if not is_scalar(value):
        raise ValueError("a custom field value must be a string, number, boolean or null")
    return value


CustomValue = Annotated[JsonValue, AfterValidator(_scalar),
                        WithJsonSchema({"type": ["string", "number", "boolean", "null"]})]
"""A custom field value in a request model: scalars only."""


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a lead was not accepted: the contract's status, reason and field."""

    status: str
    reason: str | None
    field: str | None = None


@dataclass(frozen=True, slots=True)
class Accepted:
    """A lead that passed every check, normalised for storage."""

    phone: str
    country: str | None
    external_id: str | None
    full_name: str | None
    email: str | None
    custom_fields: dict[str, JsonValue] | None


Verdict = Refusal | Accepted

MISSING_PHONE = Refusal(LeadResultStatus.INVALID, LeadResultReason.MISSING_PHONE)
INVALID_PHONE = Refusal(LeadResultStatus.INVALID, LeadResultReason.INVALID_PHONE)
ON_DNC = Refusal(LeadResultStatus.ON_DNC, None)
BLOCKED_COUNTRY = Refusal(LeadResultStatus.BLOCKED_COUNTRY, None)
IN_REQUEST = Refusal(LeadResultStatus.DUPLICATE, LeadResultReason.DUPLICATE_IN_REQUEST)
IN_CAMPAIGN = Refusal(LeadResultStatus.DUPLICATE, LeadResultReason.DUPLICATE_IN_CAMPAIGN)
UNKNOWN_SOURCE = Refusal(LeadResultStatus.INVALID, LeadCreatedReason.UNKNOWN_SOURCE)


def field_rule(name: str) -> Refusal:
    """``invalid``/``field_rule`` about the field ``name`` as the request sent it."""
    return Refusal(LeadResultStatus.INVALID, LeadResultReason.FIELD_RULE, name)


def read_phone(value: JsonValue) -> Refusal | PhoneNumber:
    """The lead's number, or why it has none that can be dialled."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return MISSING_PHONE
    if not isinstance(value, str):
        return INVALID_PHONE
    if len(value) > PHONE_MAX:
        return field_rule("phone")
    compact = _SEPARATORS.sub("", value)
    number = valid_number(compact) if is_e164(compact) else None
    return INVALID_PHONE if number is None else number


def looks_like_email(value: str) -> bool:
    """Whether ``value`` has the shape ``local@domain.tld`` (no spaces, one ``@``)."""
    return _EMAIL.fullmatch(value) is not None


def bad_custom_field(fields: Mapping[str, JsonValue]) -> str | None:
    """The first custom field whose value is not a scalar, as ``custom_fields.<name>``."""
    for key, value in fields.items():
        if not is_scalar(value):
            return f"custom_fields.{key}"
    return None


def _contract_errors(lead: LeadData) -> dict[str, str]:
    """Field name → offending field path, from the contract's LeadInput rules."""
    try:
        LeadInput.model_validate(lead)
    except ValidationError as exc:
        found: dict[str, str] = {}
        for error in exc.errors():
            path = ".".join(str(part) for part in error["loc"])
            found.setdefault(str(error["loc"][0]), path)
        return found
    return {}


def first_bad_field(lead: LeadData) -> str | None:
    """The first field, in the contract's field order, that breaks a field rule."""
    errors = _contract_errors(lead)
    for name in LeadInput.model_fields:
        if name == "phone" or name not in lead:
            continue
        value = lead[name]
        if name in errors:
            return errors[name]
        if name == "email" and isinstance(value, str) and not looks_like_email(value):
            return "email"
        if name == "custom_fields" and isinstance(value, dict):
            bad = bad_custom_field(value)
            if bad is not None:
                return bad
    return None


def _full_name(data: LeadInput) -> str | None:
    """``full_name``, or first and last name joined when it is absent."""
    if data.full_name is not None:
        return data.full_name
    joined = " ".join(part for part in (data.first_name, data.last_name) if part)
    return joined or None


def _custom_fields(data: LeadInput, source: str | None) -> dict[str, JsonValue] | None:
    """The custom fields to store: null values dropped, ``source`` as ``lead_source``."""
    fields: dict[str, JsonValue] | None = None if data.custom_fields is None else {
        key: value for key, value in data.custom_fields.items() if value is not None}
    if source is not None:
        fields = {**(fields or {}), LEAD_SOURCE_FIELD: source}
    return fields


def normalise(lead: LeadData, number: PhoneNumber,
              source: str | None) -> Verdict:
    """The lead as stored, or a field-rule refusal (also for too many custom fields)."""
    bad = first_bad_field(lead)
    if bad is not None:
        return field_rule(bad)
    data = LeadInput.model_validate(lead)
    fields = _custom_fields(data, source)
    if fields is not None and len(fields) > MAX_CUSTOM_FIELDS:
        return field_rule("custom_fields")
    return Accepted(phone=e164_text(number), country=country_of(number),
                    external_id=data.external_id, full_name=_full_name(data), email=data.email,
                    custom_fields=fields)


@dataclass(slots=True)
class _Known:
    """What each lead is compared with: the data set, and the leads accepted so far."""

    blocked: frozenset[str]
    campaign_phones: set[str]
    client_ids: dict[str, str | None]
    listed: set[str]
    campaign_id: str
    phones: set[str] = field(default_factory=set)
    external_ids: set[str] = field(default_factory=set)

    def duplicate(self, phone: str, external_id: JsonValue) -> Refusal | None:
        """A duplicate in the request or the campaign, or a reused ``external_id``."""
        own_id = external_id if isinstance(external_id, str) else None
        if phone in self.phones or (own_id is not None and own_id in self.external_ids):
            return IN_REQUEST
        if phone in self.campaign_phones:
            return IN_CAMPAIGN
        if own_id is not None and own_id in self.client_ids:
            same = self.client_ids[own_id] == self.campaign_id
            return IN_CAMPAIGN if same else field_rule("external_id")
        return None

    def accept(self, lead: Accepted) -> None:
        """Remember an accepted lead, so that later ones in the request are duplicates."""
        self.phones.add(lead.phone)
        if lead.external_id is not None:
            self.external_ids.add(lead.external_id)


def _in(column: str, values: Sequence[str]) -> str:
    return f"{column} IN ({', '.join('?' * len(values))})"


def _known(ctx: RequestContext, campaign_id: str, phones: list[str],
           external_ids: list[str]) -> _Known:
    """Read, in three queries, what a batch of leads is checked against."""
    store = ctx.service.store
    in_campaign = {r[0] for r in store.rows(
        f"SELECT phone FROM leads WHERE dataset = ? AND campaign_id = ? AND {_in('phone', phones)}",
        (ctx.dataset, campaign_id, *phones))}
    client_ids = {r[0]: r[1] for r in store.rows(
        "SELECT external_id, campaign_id FROM leads WHERE dataset = ? AND owner_client = ? "
        f"AND {_in('external_id', external_ids)}",
        (ctx.dataset, ctx.caller.client_id, *external_ids))}
    listed = {r[0] for r in store.rows(
        f"SELECT phone FROM dnc WHERE dataset IN (?, ?) AND {_in('phone', phones)}",
        (*store.layers(ctx.dataset, ctx.account.name), *phones))}
    return _Known(frozenset(ctx.account.blocked_countries), in_campaign, client_ids, listed,
                  campaign_id)


def _judge(lead: LeadData, number: PhoneNumber, known: _Known,
           source: str | None, sources: Iterable[str]) -> Verdict:
    """Steps 2-6 of the module's order for one lead with a valid number."""
    if country_of(number) in known.blocked:
        return BLOCKED_COUNTRY
    duplicate = known.duplicate(e164_text(number), lead.get("external_id"))
    if duplicate is not None:
        return duplicate
    verdict = normalise(lead, number, source)
    if isinstance(verdict, Refusal):
        return verdict
    if source is not None and source not in sources:
        return UNKNOWN_SOURCE
    if verdict.phone in known.listed:
        return ON_DNC
    known.accept(verdict)
    return verdict


def judge_leads(ctx: RequestContext, campaign_id: str, leads: Sequence[LeadData], *,
                source: str | None = None) -> list[Verdict]:
    """One verdict per lead, in input order, for adding ``leads`` to ``campaign_id``.

    Args:
        ctx: The request context (data set, API client, account).
        campaign_id: The campaign the leads go to (already checked to exist).
        leads: The leads as sent, with only the contract's lead fields.
        source: A single add's ``source``, checked against the account's lead
            sources and stored as the custom field ``lead_source``.
    """
    numbers = [read_phone(lead.get("phone")) for lead in leads]
    phones = [e164_text(n) for n in numbers if not isinstance(n, Refusal)]
    external_ids = [str(lead["external_id"]) for lead in leads
                    if isinstance(lead.get("external_id"), str)]
    known = _known(ctx, campaign_id, phones, external_ids)
    sources = ctx.account.lead_sources
    return [number if isinstance(number, Refusal) else
            _judge(lead, number, known, source, sources)
            for lead, number in zip(leads, numbers, strict=True)]
