"""What the guard's caps count: the account's recent calls and texts.

A cap counts the calls to a person, and a text is a call in law (47 CFR 64.1200(e); FCC
04-194: the rules "apply to any type of call, including both voice and text calls"), as
the audit counts it (:mod:`dialkit.compliance._checks._texts`). So the guard reads the account's
calls (``GET /v1/calls``) and its texts (``GET /v1/sms/delivery-reports``, newest first,
scope ``sms:read``) back over the caps' period, keeps them, and at the next contact reads
only what came since. The texts this client sends (the answers of ``sms.send``, by a
method or a tool call) are counted as they are answered, with no read (a key without
``sms:read`` could not read them); a text whose answer was lost makes the next contact
read again. A key without ``sms:read`` says once, at WARNING, that it cannot count other
clients' texts.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime, timedelta
from typing import Protocol, TypeVar

from ..contract import MAX_PAGE_LIMIT, Call, ErrorCode, SmsMessage
from ..errors import MalformedResponseError, PermissionDeniedError
from ._http._transport import Transport
from ._resources._calls import Calls
from ._resources._messaging import Sms

logger = logging.getLogger("dialkit.client.guard")

FRESH_SECONDS = 5.0
"""How long the calls and texts read are taken as all there are: a call this client
places (:data:`PLACES_CALLS`), or a text whose answer it lost, makes the next contact
read again at once; a contact the dialer or another client made is seen within this."""
PLACES_CALLS = frozenset({"calls.create", "leads.create"})
"""The operations that place a call now (``leads.create`` with ``dial_now``: a call queued
first), seen only by a read of the calls; a text is counted from its answer
(:meth:`RecentContacts.sent`)."""
NEW_PAGE = 10
"""The page size of the reads after the first: the contacts made since the last one,
usually few (the first read goes back over the caps' period in pages of 100)."""
LATE_WRITES = timedelta(hours=1)
"""Calls are written when they end: a re-read goes back this far before the last one, so
a call that started before it and ended after is read too (calls last at most 30 min)."""
LATE_TEXTS = timedelta(minutes=1)
"""Texts are written as they are accepted: a re-read goes back this far before the last
one, for a text accepted while it was read and for the service's ``Date`` (whole
seconds) that dates the reads."""


class _Contact(Protocol):
    @property
    def id(self) -> str: ...

    @property
    def created_at(self) -> datetime: ...


Contact = TypeVar("Contact", bound=_Contact)


class RecentContacts:
    """The account's calls and texts back over the caps' period, kept and topped up.

    Args:
        transport: The client's transport (the reads are the guard's own, unguarded).
        now: The service's now (:meth:`Guard.now`).
    """

    def __init__(self, transport: Transport, now: Callable[[], datetime]) -> None:
        self._calls_area = Calls(transport)
        self._sms = Sms(transport)
        self._now = now
        self._lock = threading.Lock()
        self._calls: dict[str, Call] = {}
        self._texts: dict[str, SmsMessage] = {}
        self._read_back_to: datetime | None = None
        self._read_at = -math.inf
        self._texts_unread = False

    def since(self, since: datetime) -> tuple[list[Call], list[SmsMessage]]:
        """The calls and texts from ``since`` on, read newest first only as far back as not
        read before (or kept, while :data:`FRESH_SECONDS` have not passed)."""
        with self._lock:
            if time.monotonic() - self._read_at >= FRESH_SECONDS:
                page = MAX_PAGE_LIMIT if self._read_back_to is None else NEW_PAGE
                _read_into(self._calls, self._calls_area.list(limit=page),
                           self._stop(since, LATE_WRITES))
                self._read_texts(page, self._stop(since, LATE_TEXTS))
                self._read_back_to, self._read_at = self._now(), time.monotonic()
            for kept in (self._calls, self._texts):
                for old in [key for key, contact in kept.items() if contact.created_at < since]:
                    del kept[old]
            return list(self._calls.values()), list(self._texts.values())

    def _stop(self, since: datetime, late: timedelta) -> datetime:
        """How far back a read goes: to ``since`` the first time, then to ``late`` before
        the last read (not before ``since``)."""
        return since if self._read_back_to is None else max(since, self._read_back_to - late)

    def placed(self) -> None:
        """This client is placing a call: the next contact reads again at once."""
        with self._lock:
            self._read_at = -math.inf

    def sent(self, text: SmsMessage | None) -> None:
        """A text this client sent, as ``sms.send`` answered it: counted at once, whatever
        the key may read (its answer says all a read would); None: its answer was lost and
        the service may have sent it, so the next contact reads again."""
        with self._lock:
            if text is None:
                self._read_at = -math.inf
            else:
                self._texts[text.id] = text

    def _read_texts(self, page: int, stop: datetime) -> None:
        """The texts from ``stop`` on, where the key may read them (``sms:read``); else the
        first refusal says once what is not counted, and they are not asked for again."""
        if self._texts_unread:
            return
        try:
            _read_into(self._texts, map(_text, self._sms.delivery_reports(limit=page)), stop)
        except PermissionDeniedError as refused:
            if refused.code != ErrorCode.INSUFFICIENT_SCOPE:
                raise
            self._texts_unread = True
            logger.warning("this key may not read texts (GET /v1/sms/delivery-reports needs "
                           "the scope sms:read): the guard's caps count the texts this "
                           "client sends with the account's calls, but not the texts other "
                           "clients of the account send; give the key sms:read to count them")


def _read_into(kept: dict[str, Contact], newest_first: Iterable[Contact],
               stop: datetime) -> None:
    """Keep the contacts of ``newest_first`` until the first made before ``stop``."""
    for contact in newest_first:
        if contact.created_at < stop:
            break
        kept[contact.id] = contact


def _text(report: Mapping[str, object]) -> SmsMessage:
    """A delivery report (the emulator's shape, docs/emulator.md; the contract shows none)
    as the text it reports on, the :class:`SmsMessage` that ``sms.send`` answered; a
    report without those fields, or with values of the wrong kind, is an answer the guard
    cannot count, said as such (a hostile or changed service), never a ``KeyError``."""
    try:
        return SmsMessage.model_validate({"id": report["message_id"], "to": report["to"],
                                          "status": report["status"],
                                          "client_reference": report["client_reference"],
                                          "created_at": report["created_at"]})
    except (KeyError, ValueError) as wrong:  # pydantic's ValidationError is a ValueError
        field = f"no {wrong}" if isinstance(wrong, KeyError) else "a value of the wrong kind"
        raise MalformedResponseError(
            f"a delivery report with {field}: the guard cannot count the account's texts "
            "toward the caps (it needs message_id, to, status, client_reference and "
            "created_at)", operation="sms.delivery_reports") from None
