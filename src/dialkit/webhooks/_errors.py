"""The exceptions of :mod:`dialkit.webhooks`.

::

    ValueError
     ├── SignatureError   a delivery refused: a header missing or malformed, the
     │                    timestamp out of tolerance, no signature matching a secret
     └── EnvelopeError    a signed body that is not an event envelope
    RuntimeError
     └── StoreError       the event store cannot be opened or written

A receiver answers 400 to the first two (the delivery is stored nowhere) and
503 to the third (the service retries). No message ever contains a secret.
"""

from __future__ import annotations

from typing import Literal

from .._utils._base_error import DialkitError, InputError

Reason = Literal["missing_header", "malformed_header", "timestamp_out_of_tolerance",
                 "no_matching_signature"]
"""Which check refused a delivery."""


class SignatureError(InputError):
    """A delivery that must not be trusted; :attr:`reason` says which check failed.

    Attributes:
        reason: ``missing_header``, ``malformed_header``,
            ``timestamp_out_of_tolerance`` or ``no_matching_signature``.
    """

    def __init__(self, reason: Reason, message: str) -> None:
        super().__init__(message)
        self.reason: Reason = reason


class EnvelopeError(InputError):
    """A correctly signed body that is not a v1 event envelope (not JSON, a field missing)."""


class StoreError(DialkitError, RuntimeError):
    """The event store could not be opened or written; the message names the file."""
