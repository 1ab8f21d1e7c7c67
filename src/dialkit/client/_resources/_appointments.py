"""``client.appointments``: book, move, cancel and read appointments."""

from __future__ import annotations

from datetime import datetime
from typing import Unpack

from ...contract import (
    MAX_PAGE_LIMIT,
    Appointment,
    AppointmentCreateRequest,
    AppointmentRescheduleRequest,
    AppointmentStatus,
)
from .._http._pagination import ListIterator
from .._http._transport import Call
from ._base import Area, Options, WriteOptions, request_body


class Appointments(Area):
    """Appointments: ``/v1/appointments``. Writes are tier 2 (``appointments:write``).

    Answers carry an ``ETag`` (``appointment.etag``); pass it as ``if_match``
    to cancel or move only the version you read.
    """

    def list(
        self,
        *,
        status: AppointmentStatus | str | None = None,
        limit: int = MAX_PAGE_LIMIT,
        cursor: str | None = None,
        **options: Unpack[Options],
    ) -> ListIterator[Appointment]:
        """Every appointment, lazily across pages (``status``: a filter not shown by the
        contract)."""
        return self._list(Appointment, "appointments.list", {"status": status}, limit=limit,
                          cursor=cursor, options=options)

    def get(self, appointment_id: str, **options: Unpack[Options]) -> Appointment:
        """One appointment, with its ``etag``."""
        call = Call("appointments.get", {"appointment_id": appointment_id}, **options)
        return self._model(Appointment, call)

    def create(
        self,
        *,
        phone: str,
        scheduled_at: datetime | str,
        duration_minutes: int | None = None,
        timezone: str | None = None,
        service_type: str | None = None,
        contact_name: str | None = None,
        notes: str | None = None,
        **options: Unpack[WriteOptions],
    ) -> Appointment:
        """Book an appointment; the customer may be texted if confirmations are on."""
        body = request_body(
            AppointmentCreateRequest, phone=phone, scheduled_at=scheduled_at,
            duration_minutes=duration_minutes, timezone=timezone, service_type=service_type,
            contact_name=contact_name, notes=notes,
        )
        return self._model(Appointment, Call("appointments.create", body=body, **options))

    def cancel(
        self, appointment_id: str, *, if_match: str | None = None,
        **options: Unpack[WriteOptions],
    ) -> Appointment:
        """Cancel an appointment; cancelling a cancelled one changes nothing.

        Raises:
            ConflictError: ``appointment_not_modifiable`` (completed or no-show).
        """
        call = Call("appointments.cancel", {"appointment_id": appointment_id}, body={},
                    if_match=if_match, **options)
        return self._model(Appointment, call)

    def reschedule(
        self,
        appointment_id: str,
        *,
        scheduled_at: datetime | str,
        duration_minutes: int | None = None,
        timezone: str | None = None,
        if_match: str | None = None,
        **options: Unpack[WriteOptions],
    ) -> Appointment:
        """Move an appointment (request shape not shown: the create body's time fields)."""
        body = request_body(AppointmentRescheduleRequest, scheduled_at=scheduled_at,
                            duration_minutes=duration_minutes, timezone=timezone)
        call = Call("appointments.reschedule", {"appointment_id": appointment_id}, body=body,
                    if_match=if_match, **options)
        return self._model(Appointment, call)
