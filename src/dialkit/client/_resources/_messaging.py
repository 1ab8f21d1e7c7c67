"""``client.sms`` and ``client.whatsapp``: send messages, read SMS reports and usage."""

from __future__ import annotations

from typing import Any, Unpack

from ...contract import MAX_PAGE_LIMIT, SmsMessage, SmsSendRequest
from .._http._pagination import ListIterator
from .._http._results import ApiData
from .._http._transport import Call
from ._base import Area, Options, WriteOptions, plain_body, request_body


class Sms(Area):
    """SMS: sending is tier 2 (``messages:send``) with a key from the guided sending setup."""

    def send(
        self, *, to: str, body: str, client_reference: str, override: str | None = None,
        **options: Unpack[WriteOptions]
    ) -> SmsMessage:
        """Send an SMS (accepted as ``queued``); ``client_reference`` must be unique.

        A text is a call under the TCPA (47 U.S.C. 227(b)): the client's guard judges it
        as a call at the service's now, and a text the law forbids raises
        :class:`~dialkit.errors.ContactForbiddenError` unless ``override="reason"``.

        Raises:
            ValidationError: ``on_dnc``, ``blocked_country``, ``message_refused``
                (calling hours or consent; ``errors[0].code`` says which).
            ConflictError: ``duplicate_client_reference``: nothing is sent again.
        """
        payload = request_body(SmsSendRequest, to=to, body=body, client_reference=client_reference)
        return self._model(SmsMessage, Call("sms.send", body=payload, **options),
                           override=override)

    def delivery_reports(
        self,
        *,
        client_reference: str | None = None,
        limit: int = MAX_PAGE_LIMIT,
        cursor: str | None = None,
        **options: Unpack[Options],
    ) -> ListIterator[ApiData]:
        """Every SMS delivery report, lazily across pages (shape not shown: plain data).

        ``client_reference`` is a filter the contract does not show.
        """
        return self._list(ApiData, "sms.delivery_reports", {"client_reference": client_reference},
                          limit=limit, cursor=cursor, options=options)

    def usage(self, **options: Unpack[Options]) -> ApiData:
        """SMS usage counters (shape not shown: plain data)."""
        return self._data(Call("sms.usage", **options))


class WhatsApp(Area):
    """WhatsApp sending: unavailable until the operator announces it."""

    def send(self, *, idempotency_key: str | None = None, correlation_id: str | None = None,
             **fields: Any) -> ApiData:
        """Send a WhatsApp text or approved template (body shape not shown: sent as given).

        Raises:
            PermissionDeniedError: ``tier_not_enabled``, for every account for now.
        """
        call = Call("whatsapp.send", body=plain_body(fields), idempotency_key=idempotency_key,
                    correlation_id=correlation_id)
        return self._data(call)
