"""Receiving the service's webhook events: verify, store once, analyse, act.

- :func:`verify` checks a delivery over its raw bytes (headers, timestamp
  tolerance, HMAC-SHA256 in constant time, either secret during a rotation)
  and only then parses it into a typed :class:`Event`; it raises
  :class:`SignatureError` (a ``ValueError``) saying which check failed.
- :class:`Receiver` is an ASGI app to mount in a Starlette or FastAPI server
  (or run with ``dialkit webhooks listen``): it verifies, commits the event to
  an :class:`EventStore` (SQLite, WAL) before it answers 2xx, and stores a
  duplicate delivery once, counting it (distinct deliveries and repeats apart).
- :func:`events_frame` reads the store into the frame of
  ``client.frames.webhook_events()`` plus ``received_at``, ``deliveries_seen``
  and ``repeats``; :func:`events_after` reads only the events stored after a
  cursor, and the cursor to read from next, to follow the store as it fills.
- :func:`secrets_from_env` reads the secrets from ``DIALKIT_WEBHOOK_SECRETS``.
- :mod:`dialkit.webhooks.handlers` dispatches events to functions:
  ``@on("call.completed")``.

The exceptions are drawn in :mod:`dialkit.errors`.

Examples:
    >>> from dialkit import webhooks
    >>> event = webhooks.verify(body, headers, secret)  # doctest: +SKIP
"""

from .._utils._base_error import EnvelopeError, SignatureError, StoreError
from . import handlers
from ._events import (
    AiCallCompletedData,
    AppointmentCancelledData,
    AppointmentData,
    CallCompletedData,
    CallDetails,
    Customer,
    DispositionDetails,
    DispositionLoggedData,
    Event,
    EventData,
    SummaryDetails,
)
from ._frame import NewEvents, events_after, events_frame
from ._receiver import Receiver
from ._served import Served
from ._store import EventStore, Stored
from ._verify import SECRETS_VARIABLE, secrets_from_env, sign, verify

__all__ = [
    "AiCallCompletedData",
    "AppointmentCancelledData",
    "AppointmentData",
    "CallCompletedData",
    "CallDetails",
    "Customer",
    "DispositionDetails",
    "DispositionLoggedData",
    "EnvelopeError",
    "Event",
    "EventData",
    "EventStore",
    "NewEvents",
    "Receiver",
    "SECRETS_VARIABLE",
    "Served",
    "SignatureError",
    "StoreError",
    "Stored",
    "SummaryDetails",
    "events_after",
    "events_frame",
    "handlers",
    "secrets_from_env",
    "sign",
    "verify",
]
