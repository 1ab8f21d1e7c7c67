"""Confirmation: a tool that can reach a person runs only after the user says yes.

The question states in words what will happen (Call +1 415 555 0123 now from
agent “1001”.), every string the call was given visibly quoted (:func:`quoted`),
so crafted text never reads as the system's words. It is asked through MCP
elicitation in the form the connection speaks: on a 2026-07-28 connection the
call *returns* the question (``InputRequiredResult``) and the client's retry
carries the answer; on an older connection the server asks with ``ctx.elicit``
and waits, at most :data:`CONFIRM_TIMEOUT_SECONDS`. A decline, a cancel, no
answer, or a client that cannot be asked: the tool does not run.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Callable, Mapping
from typing import Any

import anyio
from mcp.server.elicitation import (
    AcceptedElicitation,
    DeclinedElicitation,
    render_elicitation_schema,
)
from mcp.server.mcpserver import Context
from mcp.shared.exceptions import MCPError
from mcp_types import ElicitRequest, ElicitRequestFormParams, ElicitResult, InputRequiredResult
from pydantic import BaseModel, Field

from dialkit._phones._asked import asked_number, international_text
from dialkit._utils._moments import iso_datetime
from dialkit.contract import ID_PREFIXES, is_e164, is_valid_id

from ._call_log import Confirmation
from ._executor import GuardCheck

CONFIRM_TIMEOUT_SECONDS = 120.0
"""How long an older client's user has to answer before the call is dropped unrun."""

CONFIRM_KEY = "dialkit_confirm"
"""The key of the question in ``input_requests`` and of the answer in ``input_responses``."""

MODERN_PROTOCOL = "2026-07-28"
"""The first protocol revision whose tool calls return their questions."""


class Confirm(BaseModel):
    """The confirmation form: one yes/no."""

    confirm: bool = Field(description="Yes: do it now. No: do nothing.")


_SCHEMA = render_elicitation_schema(Confirm)


QUOTE_LIMIT = 200
"""How many characters of a user's string a question shows; the rest is cut, its length said."""

_NEWLINES = re.compile(r"\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]")
_INVISIBLE = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})
_QUOTE_MARKS = frozenset('"\\\u201c\u201d\u201e\u201f\u00ab\u00bb\u2033\u301d\u301e\uff02')


def _visible(char: str) -> str:
    """A character as shown inside a quotation: a quotation mark, a backslash or a ⏎
    escaped with a backslash, an invisible one (a control, a bidi override, a zero-width)
    as ``\\uXXXX``."""
    if char in _QUOTE_MARKS:
        return "\\" + char
    if char == "\u23ce" or unicodedata.category(char) in _INVISIBLE:
        return f"\\u{ord(char):04x}"
    return char


def quoted(value: Any) -> str:
    """User text as a question shows it: visibly quoted, so it never reads as our words.

    In “ ” quotation marks; a quotation mark inside escaped with a backslash, a line break
    shown as ⏎, an invisible character as ``\\uXXXX``; cut at :data:`QUOTE_LIMIT`
    characters, with the full length stated after the quotation.

    Examples:
        >>> print(quoted('Hi".\\n(nothing is sent)'))
        “Hi\\".⏎(nothing is sent)”
    """
    if value is None:
        return "(none given)"
    text = str(value)
    lines = _NEWLINES.split(text[:QUOTE_LIMIT])
    shown = "\u23ce".join("".join(_visible(c) for c in line) for line in lines)
    if len(text) <= QUOTE_LIMIT:
        return f"“{shown}”"
    return f"“{shown}…” ({len(text)} characters, the first {QUOTE_LIMIT} shown)"


def phone_text(value: Any) -> str:
    """An E.164 number spaced for reading (``+1 415 555 0123``); anything else quoted."""
    text = str(value)
    if not isinstance(value, str) or not is_e164(text):
        return quoted(value)
    number = asked_number(text)
    if number is None:
        return quoted(value)
    return international_text(number).replace("-", " ")


def time_text(value: Any) -> str:
    """An ISO 8601 instant as ``2026-11-03 10:00 UTC``; anything else quoted."""
    try:
        moment = iso_datetime(str(value))
    except ValueError:
        return quoted(value)
    if moment.utcoffset() is None:
        return moment.strftime("%Y-%m-%d %H:%M")
    offset = moment.utcoffset()
    zone = "UTC" if not offset else moment.strftime("UTC%z")
    return f"{moment.strftime('%Y-%m-%d %H:%M')} {zone}"


def id_text(value: Any, prefix: str) -> str:
    """One of the contract's ids (``prefix`` and a lower-case UUID) as given; anything
    else quoted."""
    return value if isinstance(value, str) and is_valid_id(prefix, value) else quoted(value)


def _number(value: Any) -> str:
    """A whole number as written; anything else quoted."""
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else quoted(value)


def _call(a: Mapping[str, Any]) -> str:
    agent = a.get("agent_extension") or a.get("agent_email")
    text = f"Call {phone_text(a.get('to'))} now from agent {quoted(agent)}"
    if a.get("caller_id"):
        text += f", showing caller ID {phone_text(a['caller_id'])}"
    if a.get("campaign_id"):
        text += f", for campaign {_id(a, 'campaign_id')}"
    return text + "."


def _lead(a: Mapping[str, Any]) -> str:
    text = f"Add {phone_text(a.get('phone'))} to campaign {_id(a, 'campaign_id')}"
    if a.get("dial_now"):
        text += f" and dial it first, within {_number(a.get('dial_within_seconds', 300))} s"
    return text + ": the campaign's dialler may call them."


def _appointment(a: Mapping[str, Any]) -> str:
    name = a.get("contact_name")
    who = phone_text(a.get("phone")) if not name else quoted(name)
    return (f"Book an appointment with {who} ({phone_text(a.get('phone'))}) at "
            f"{time_text(a.get('scheduled_at'))}; the customer may be texted a confirmation.")


def _granted(value: Any) -> str:
    if value is True:
        return "gave"
    if value is False or value is None:
        return "withdrew or refused"
    return f"gave or withdrew (granted: {quoted(value)})"


def _consent(a: Mapping[str, Any]) -> str:
    channel = f" {quoted(a['channel'])}" if "channel" in a else ""
    method = f"method {quoted(a['method'])}" if "method" in a else "method not given"
    return (f"Record that {phone_text(a.get('phone'))} {_granted(a.get('granted'))} consent "
            f"to{channel} contact ({method}).")


def _id(a: Mapping[str, Any], name: str) -> str:
    return id_text(a.get(name), ID_PREFIXES[name.removesuffix("_id")])


_TEXTS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "calls_create": _call,
    "sms_send": lambda a: (f"Send an SMS to {phone_text(a.get('to'))} now: "
                           f"{quoted(a.get('body'))}."),
    "whatsapp_send": lambda a: f"Send a WhatsApp message to {phone_text(a.get('to'))} now.",
    "campaigns_resume": lambda a: (f"Resume campaign {_id(a, 'campaign_id')} now: its dialler "
                                   "starts calling its leads."),
    "callbacks_create": lambda a: (f"Schedule a callback: lead {_id(a, 'lead_id')} will be "
                                   f"called at {time_text(a.get('scheduled_at'))}."),
    "callbacks_reschedule": lambda a: (f"Move callback {_id(a, 'callback_id')} to "
                                       f"{time_text(a.get('scheduled_at'))}: the lead will be "
                                       "called then."),
    "appointments_create": _appointment,
    "appointments_cancel": lambda a: (f"Cancel appointment {_id(a, 'appointment_id')}; the "
                                      "customer may be texted."),
    "appointments_reschedule": lambda a: (f"Move appointment {_id(a, 'appointment_id')} to "
                                          f"{time_text(a.get('scheduled_at'))}; the customer "
                                          "may be texted."),
    "consents_create": _consent,
    "leads_create": _lead,
}


def confirmation_text(tool: str, arguments: Mapping[str, Any]) -> str:
    """What the tool call will do, in words, as the user is asked to confirm it.

    Every tool that can reach a person has its own text (a test holds to that), so
    the user never confirms a raw dump of arguments. Phone numbers, instants, whole
    numbers and ids that parse are shown as read; every other value the call was given is
    :func:`quoted`.

    Raises:
        ValueError: ``tool`` cannot reach a person, so it is never confirmed.

    Examples:
        >>> confirmation_text("calls_create", {"to": "+14155550123", "agent_extension": "1001"})
        'Call +1 415 555 0123 now from agent “1001”.'
    """
    text = _TEXTS.get(tool)
    if text is None:
        raise ValueError(f"{tool} has no confirmation text: only a tool that can reach a "
                         "person (dialkit.mcp.reaches_people) is confirmed")
    return text(arguments)


NO_GUARD = ("No calling hours, Do-Not-Call list or frequency cap was checked: this tool "
            "server has no guard (the emulator's /mcp; dialkit mcp serve has one).")
"""What the question of a guarded tool says where the server has no guard."""


def guard_text(check: GuardCheck | None, override: str | None) -> str:
    """What a question adds of the guard's judgment: the rules it checked; with
    an ``override``, the rule it forbids the contact by, its evidence and the reason, which
    the user confirms as theirs. ``check`` ``None``: the server has no guard.

    Examples:
        >>> guard_text(GuardCheck(("the Do-Not-Call lists",)), None)
        'Checked now: the Do-Not-Call lists; none forbids it.'
    """
    if check is None:
        text = NO_GUARD
    elif check.refusal is not None:
        refusal, later = check.refusal, check.refusal.get("next_allowed_at")
        return (f"The guard FORBIDS this contact now: {refusal.get('rule')} "
                f"({refusal.get('basis') or 'law'}): {refusal.get('evidence')}; "
                + ("no allowed moment is known" if later is None else
                   f"next allowed {time_text(later)}")
                + f". The assistant asks to send it anyway, overriding it for the reason "
                f"{quoted(override)}. Confirm only if that is your reason: the override is "
                "recorded in the audit log.")
    elif check.checked:
        text = f"Checked now: {'; '.join(check.checked)}; none forbids it."
    else:
        text = "The guard judged no contact for this call (it places none now, or it is off)."
    if override is not None:
        text += (f" The assistant gives a reason to override the guard: {quoted(override)}; "
                 "it is recorded in the audit log.")
    return text


def is_modern(protocol_version: str | None) -> bool:
    """Whether the connection speaks the round-trip form (2026-07-28 or later)."""
    return protocol_version is not None and protocol_version >= MODERN_PROTOCOL


def can_elicit(ctx: Context[Any, Any]) -> bool:
    """Whether the client declared form elicitation (a bare ``elicitation: {}`` counts)."""
    capabilities = ctx.client_capabilities
    elicitation = None if capabilities is None else capabilities.elicitation
    return elicitation is not None and (elicitation.form is not None or elicitation.url is None)


def _digest(message: str) -> str:
    return "confirm:" + hashlib.sha256(message.encode()).hexdigest()[:32]


def _verdict(action: str, content: Mapping[str, Any] | None) -> Confirmation:
    if action == "accept":
        return "given" if content is not None and content.get("confirm") is True else "declined"
    return "declined" if action == "decline" else "cancelled"


def _round_trip(ctx: Context[Any, Any], message: str) -> Confirmation | InputRequiredResult:
    """The 2026-07-28 form: return the question; read the answer on the retry."""
    answer = (ctx.input_responses or {}).get(CONFIRM_KEY)
    if isinstance(answer, ElicitResult) and ctx.request_state == _digest(message):
        return _verdict(answer.action, answer.content)
    question = ElicitRequest(params=ElicitRequestFormParams(message=message,
                                                            requested_schema=_SCHEMA))
    return InputRequiredResult(input_requests={CONFIRM_KEY: question},
                               request_state=_digest(message))


async def _ask_and_wait(ctx: Context[Any, Any], message: str,
                        timeout: float) -> Confirmation:
    """The older form: ``ctx.elicit`` on the session's back-channel, with a deadline."""
    try:
        with anyio.fail_after(timeout):
            result = await ctx.elicit(message, Confirm)
    except TimeoutError:
        return "unanswered"
    except (MCPError, ValueError):  # the client answered with an error, or nonsense
        return "unanswered"
    if isinstance(result, AcceptedElicitation):
        return "given" if result.data.confirm else "declined"
    return "declined" if isinstance(result, DeclinedElicitation) else "cancelled"


async def confirm(ctx: Context[Any, Any], message: str,
                  timeout: float = CONFIRM_TIMEOUT_SECONDS) -> Confirmation | InputRequiredResult:
    """Ask the user to confirm ``message``: the verdict, or the question to return.

    Returns ``"unsupported"`` at once for a client that cannot be asked.
    """
    if not can_elicit(ctx):
        return "unsupported"
    if is_modern(ctx.protocol_version):
        return _round_trip(ctx, message)
    return await _ask_and_wait(ctx, message, timeout)


REFUSALS: dict[Confirmation, str] = {
    "declined": "The user declined this call, so it was not run. Nothing was done.",
    "cancelled": "The user dismissed the confirmation, so the call was not run. Nothing was "
                 "done.",
    "unanswered": "The user did not answer the confirmation in time, so the call was not run. "
                  "Nothing was done.",
    "unsupported": "This tool can reach a real person, so it runs only after the user confirms "
                   "the call, and this client cannot ask the user (it declared no form "
                   "elicitation capability). Nothing was done: use a client that supports "
                   "elicitation, or make the call with dialkit.Client.",
}
"""What a tool answers when it did not run for want of a confirmation."""
