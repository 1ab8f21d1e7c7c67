"""``client.callbacks``: schedule, move, cancel and read callbacks."""

from __future__ import annotations

from datetime import datetime
from typing import Unpack

from ...contract import (
    MAX_PAGE_LIMIT,
    Callback,
    CallbackCreateRequest,
    CallbackRescheduleRequest,
    CallbackStatus,
)
from .._http._pagination import ListIterator
from .._http._transport import Call
from ._base import Area, Options, WriteOptions, request_body


class Callbacks(Area):
    """Callbacks: ``/v1/callbacks``. Scheduling and moving are tier 2 (``callbacks:write``)."""

    def list(
        self,
        campaign_id: str,
        *,
        status: CallbackStatus | str | None = None,
        limit: int = MAX_PAGE_LIMIT,
        cursor: str | None = None,
        **options: Unpack[Options],
    ) -> ListIterator[Callback]:
        """Every callback of a campaign, newest created first, lazily across pages."""
        filters = {"campaign_id": campaign_id, "status": status}
        return self._list(Callback, "callbacks.list", filters, limit=limit, cursor=cursor,
                          options=options)

    def create(
        self,
        *,
        lead_id: str,
        scheduled_at: datetime | str,
        notes: str | None = None,
        override: str | None = None,
        **options: Unpack[WriteOptions],
    ) -> Callback:
        """Schedule a callback; when due the platform calls the lead.

        ``scheduled_at`` must carry a time zone (it is sent in UTC). The client's guard
        judges the lead's number at ``scheduled_at`` first: a moment the law forbids
        raises :class:`~dialkit.errors.ContactForbiddenError` with the next allowed one;
        ``override="reason"`` schedules it anyway, recorded.
        """
        body = request_body(CallbackCreateRequest, lead_id=lead_id, scheduled_at=scheduled_at,
                            notes=notes)
        return self._model(Callback, Call("callbacks.create", body=body, **options),
                           override=override)

    def cancel(self, callback_id: str, **options: Unpack[WriteOptions]) -> Callback:
        """Cancel a pending callback; cancelling a cancelled one changes nothing.

        Raises:
            ConflictError: ``callback_not_pending`` for a completed callback.
        """
        call = Call("callbacks.cancel", {"callback_id": callback_id}, body={}, **options)
        return self._model(Callback, call)

    def reschedule(
        self, callback_id: str, *, scheduled_at: datetime | str, lead_id: str | None = None,
        override: str | None = None, **options: Unpack[WriteOptions]
    ) -> Callback:
        """Move a pending callback to a new time.

        The client's guard judges the lead's number at the new ``scheduled_at`` first, as
        for :meth:`create`. Pass the callback's ``lead_id`` where it is known: the contract
        has no read of one callback, so the guard otherwise finds it among the pending
        callbacks of every campaign (once per client).
        """
        body = request_body(CallbackRescheduleRequest, scheduled_at=scheduled_at)
        call = Call("callbacks.reschedule", {"callback_id": callback_id}, body=body, **options)
        return self._model(Callback, call, override=override, callback_lead=lead_id)
