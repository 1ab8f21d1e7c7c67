"""The table of every API operation: method, path, scope and write rules.

The client builds requests from it and the emulator routes and authorises
with it, so a path or scope is written down once. Names are
``<area>.<verb>`` in the contract's words (``leads.import``,
``webhooks.rotate_secret``), ``me`` for the identity call.

An operation that calls or texts a person carries a :class:`Contact`: where its
request names the person. The client's guard judges such a request before it is
sent, whichever path sends it (the client's methods, ``dialkit mcp serve``'s
tools), and the tool server asks for an ``override`` of exactly these, so a new
operation that reaches a person is guarded once its row has its mark.
"""

import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

from ._scopes import SCOPE_SWITCH, SCOPE_TIER, Scope, Switch

Person = Literal["phone", "lead", "callback", "campaign"]
"""What names the person a contact reaches: a number called or texted, a lead (called
at its number), a callback (its lead's), or a campaign (whose dialler calls its leads)."""
_PLACEHOLDER = re.compile(r"{(\w+)}")


@dataclass(frozen=True, slots=True)
class Contact:
    """How an operation reaches a person, and where its request names them: what the
    client's guard reads to judge the contact before it is sent (api-v1.md: a
    click-to-call and a text name a number, a single add with ``dial_now`` the number
    added, a callback its lead, a reschedule its callback, a resume its campaign).

    Each name is a path parameter where the operation's path has that placeholder, else
    a field of the body. A request without its ``named_by`` or ``at`` as text is one the
    service refuses whole: it reaches nobody.

    Attributes:
        person: What kind of thing names the person (:data:`Person`).
        named_by: The field that names it.
        at: The field of the moment the contact is made (a callback's
            ``scheduled_at``); None: when the service takes the request.
        lead: A field that may name the lead a number is called for: its address
            state and campaign are then the lead's.
        campaign: A field that may name the campaign the contact is made for.
        state: A field whose object may hold the person's address state (a lead's
            ``custom_fields``, as the audit reads them).
        when: A boolean field without which the request reaches nobody now
            (``dial_now``), read as the service reads a boolean.
    """

    person: Person
    named_by: str
    at: str | None = None
    lead: str | None = None
    campaign: str | None = None
    state: str | None = None
    when: str | None = None


@dataclass(frozen=True, slots=True)
class Operation:
    """One operation of the contract.

    Attributes:
        name: Stable ``<area>.<verb>`` name, e.g. ``"leads.import"``.
        method: HTTP method in upper case.
        path: Path template with ``{name}`` placeholders, e.g.
            ``"/v1/leads/{lead_id}"``.
        scope: The scope it needs; ``None`` only for ``GET /v1/me``.
        write: True for a POST or DELETE that changes data, which therefore
            requires ``Idempotency-Key``. PATCH is False: it accepts the key
            optionally. ``POST /v1/dnc/check`` is read-only and False.
        sending: True for click-to-call and SMS, which need a sending key.
        tier_blocked: True when the operation answers 403
            ``tier_not_enabled`` for every account (WhatsApp for now).
        contact: How it calls or texts a person, for the client's guard to judge
            (:class:`Contact`); None for an operation that makes no such contact.
    """

    name: str
    method: str
    path: str
    scope: Scope | None
    write: bool
    sending: bool = False
    tier_blocked: bool = False
    contact: Contact | None = None

    @property
    def changes(self) -> bool:
        """Whether it changes the account's data: a write, or a ``PATCH`` (which takes the
        Idempotency-Key only optionally, so is no :attr:`write`)."""
        return self.write or self.method == "PATCH"

    @property
    def tier(self) -> int:
        """Tier of the operation's scope; ``GET /v1/me`` is tier 1."""
        return 1 if self.scope is None else SCOPE_TIER[self.scope]

    @property
    def switch(self) -> Switch | None:
        """The account switch the operation needs, if it is tier 2."""
        return None if self.scope is None else SCOPE_SWITCH.get(self.scope)

    @property
    def placeholders(self) -> tuple[str, ...]:
        """The names of the path template's placeholders, in order (``("lead_id",)``)."""
        return tuple(_PLACEHOLDER.findall(self.path))


def _read(name: str, path: str, scope: Scope | None) -> Operation:
    return Operation(name, "GET", path, scope, write=False)


def _post(name: str, path: str, scope: Scope, *, sending: bool = False,
          contact: Contact | None = None) -> Operation:
    return Operation(name, "POST", path, scope, write=True, sending=sending, contact=contact)


_S = Scope
_LEAD = "/v1/leads/{lead_id}"
_CAMPAIGN = "/v1/campaigns/{campaign_id}"
_CALL = "/v1/calls/{call_id}"
_WEBHOOK = "/v1/webhooks/{webhook_id}"
_EVENT = "/v1/webhook-events/{event_id}"
_CALLBACK = "/v1/callbacks/{callback_id}"
_APPOINTMENT = "/v1/appointments/{appointment_id}"

OPERATIONS: tuple[Operation, ...] = (
    _read("me", "/v1/me", None),
    _read("leads.list", "/v1/leads", _S.LEADS_READ),
    _read("leads.get", _LEAD, _S.LEADS_READ),
    _read("leads.history", f"{_LEAD}/history", _S.LEADS_READ),
    _post("leads.create", "/v1/leads", _S.LEADS_WRITE, contact=Contact(
        "phone", "phone", campaign="campaign_id", state="custom_fields", when="dial_now")),
    Operation("leads.update", "PATCH", _LEAD, _S.LEADS_WRITE, write=False),
    _post("leads.import", "/v1/leads/import", _S.LEADS_WRITE),
    _read("campaigns.list", "/v1/campaigns", _S.CAMPAIGNS_READ),
    _read("campaigns.get", _CAMPAIGN, _S.CAMPAIGNS_READ),
    _read("campaigns.progress", f"{_CAMPAIGN}/progress", _S.CAMPAIGNS_READ),
    _post("campaigns.pause", f"{_CAMPAIGN}/pause", _S.CAMPAIGNS_PAUSE),
    _post("campaigns.resume", f"{_CAMPAIGN}/resume", _S.CAMPAIGNS_RESUME,
          contact=Contact("campaign", "campaign_id")),
    _read("calls.list", "/v1/calls", _S.CALLS_READ),
    _read("calls.get", _CALL, _S.CALLS_READ),
    _post("calls.create", "/v1/calls", _S.CALLS_ORIGINATE, sending=True,
          contact=Contact("phone", "to", lead="lead_id", campaign="campaign_id")),
    _read("calls.recording", f"{_CALL}/recording", _S.RECORDINGS_READ),
    _read("calls.transcript", f"{_CALL}/transcript", _S.TRANSCRIPTS_READ),
    _read("calls.summary", f"{_CALL}/summary", _S.SUMMARIES_READ),
    _read("webhooks.list", "/v1/webhooks", _S.WEBHOOKS_READ),
    _read("webhooks.get", _WEBHOOK, _S.WEBHOOKS_READ),
    _post("webhooks.create", "/v1/webhooks", _S.WEBHOOKS_WRITE),
    Operation("webhooks.update", "PATCH", _WEBHOOK, _S.WEBHOOKS_WRITE, write=False),
    Operation("webhooks.delete", "DELETE", _WEBHOOK, _S.WEBHOOKS_WRITE, write=True),
    _post("webhooks.test", f"{_WEBHOOK}/test", _S.WEBHOOKS_WRITE),
    _post("webhooks.rotate_secret", f"{_WEBHOOK}/rotate-secret", _S.WEBHOOKS_WRITE),
    _read("webhook_events.list", "/v1/webhook-events", _S.WEBHOOKS_READ),
    _read("webhook_events.get", _EVENT, _S.WEBHOOKS_READ),
    _post("webhook_events.replay", f"{_EVENT}/replay", _S.WEBHOOKS_WRITE),
    Operation("dnc.check", "POST", "/v1/dnc/check", _S.DNC_CHECK, write=False),
    _post("dnc.add", "/v1/dnc", _S.DNC_ADD),
    _post("consents.create", "/v1/consents", _S.CONSENT_WRITE),
    _read("callbacks.list", "/v1/callbacks", _S.CALLBACKS_READ),
    _post("callbacks.create", "/v1/callbacks", _S.CALLBACKS_WRITE,
          contact=Contact("lead", "lead_id", at="scheduled_at")),
    _post("callbacks.cancel", f"{_CALLBACK}/cancel", _S.CALLBACKS_CANCEL),
    _post("callbacks.reschedule", f"{_CALLBACK}/reschedule", _S.CALLBACKS_WRITE,
          contact=Contact("callback", "callback_id", at="scheduled_at")),
    _read("appointments.list", "/v1/appointments", _S.APPOINTMENTS_READ),
    _read("appointments.get", _APPOINTMENT, _S.APPOINTMENTS_READ),
    _post("appointments.create", "/v1/appointments", _S.APPOINTMENTS_WRITE),
    _post("appointments.cancel", f"{_APPOINTMENT}/cancel", _S.APPOINTMENTS_WRITE),
    _post(
        "appointments.reschedule",
        f"{_APPOINTMENT}/reschedule",
        _S.APPOINTMENTS_WRITE,
    ),
    _post("sms.send", "/v1/sms", _S.MESSAGES_SEND, sending=True,
          contact=Contact("phone", "to")),
    _read("sms.delivery_reports", "/v1/sms/delivery-reports", _S.SMS_READ),
    _read("sms.usage", "/v1/sms/usage", _S.SMS_READ),
    Operation(
        "whatsapp.send",
        "POST",
        "/v1/whatsapp/messages",
        _S.WHATSAPP_SEND,
        write=True,
        tier_blocked=True,
    ),
    _read("reports.dispositions", "/v1/reports/dispositions", _S.REPORTS_READ),
)
"""Every operation of the contract, grouped by API area."""

_BY_NAME: Mapping[str, Operation] = MappingProxyType(
    {operation.name: operation for operation in OPERATIONS}
)

CONTACTS: Mapping[str, Contact] = MappingProxyType({
    operation.name: operation.contact for operation in OPERATIONS
    if operation.contact is not None})
"""The operations that call or text a person, by name, each with its :class:`Contact`:
the ones the client's guard judges, read from the table's marks."""


CHANGED_BY: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "leads.create": ("leads", "calls"), "leads.update": ("leads",),
    "leads.import": ("leads",), "campaigns.pause": ("campaigns",),
    "campaigns.resume": ("campaigns",), "calls.create": ("calls", "leads"),
    "dnc.add": ("dnc", "leads"), "consents.create": ("dnc", "leads"),
    "callbacks.create": ("callbacks", "leads"), "callbacks.cancel": ("callbacks", "leads"),
    "callbacks.reschedule": ("callbacks", "leads"), "appointments.create": ("appointments",),
    "appointments.cancel": ("appointments",), "appointments.reschedule": ("appointments",),
    "sms.send": ("sms_reports",), "webhooks.test": ("webhook_events",),
    "webhook_events.replay": ("webhook_events",),
})
"""What each operation that changes the account's data changes, by the list it shows
in (``dnc``: a number's answer on the Do-Not-Call list), so that what a client keeps of
the account (its cached frames, its guard's DNC answers) is made stale by its own writes.
A lead added with ``dial_now`` or a click-to-call makes a call and moves its lead; a
callback moves its lead's status; a number listed, or a consent recorded (a revocation
lists the number on the account's own list), moves the lead's status too."""


def operation_by_name(name: str) -> Operation:
    """Look up an operation of :data:`OPERATIONS` by its name.

    Raises:
        ValueError: If no operation has that name.

    Examples:
        >>> operation_by_name("leads.import").path
        '/v1/leads/import'
    """
    try:
        return _BY_NAME[name]
    except KeyError:
        raise ValueError(
            f"unknown operation {name!r}; pass a name from OPERATIONS, "
            "such as 'leads.list' or 'webhooks.rotate_secret'"
        ) from None
