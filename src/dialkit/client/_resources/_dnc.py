"""``client.dnc`` and ``client.consents``: Do-Not-Call checks and adds, consent records."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Unpack

from pydantic import TypeAdapter

from ...contract import (
    DNC_CHECK_BATCH,
    E164,
    DncAddRequest,
    DncCheckRequest,
    DncCheckResponse,
    DncCheckResult,
)
from .._http._arguments import checked
from .._http._decode import decode, malformed
from .._http._results import ApiData, attach
from .._http._transport import Call
from ._base import Area, Options, WriteOptions, plain_body, request_body

_PHONES: TypeAdapter[list[str]] = TypeAdapter(list[E164])


class Dnc(Area):
    """The account's Do-Not-Call list. Removing a number is done in the console only."""

    def check(self, phones: Iterable[str], **options: Unpack[Options]) -> list[DncCheckResult]:
        """Whether each number is listed, one result per number in input order.

        Any number of phones (E.164) is accepted; they are sent in batches of
        100, the contract's limit. Each result carries its batch's request id.
        Every number is checked before anything is sent: a malformed one raises
        :class:`~dialkit.errors.InvalidArgumentError` (a ``ValueError``) naming
        its position in ``phones`` and, where it can tell, its E.164 form.

        Examples:
            >>> client = dialkit.Client.sandbox()
            >>> [r.listed for r in client.dnc.check(["+14155550100"])]
            [False]
            >>> client.close()
        """
        numbers = checked(_PHONES.validate_python, list(phones), at=("phones",))
        results: list[DncCheckResult] = []
        for start in range(0, len(numbers), DNC_CHECK_BATCH):
            sent = numbers[start:start + DNC_CHECK_BATCH]
            body = request_body(DncCheckRequest, phones=sent)
            answer = self._transport.send(Call("dnc.check", body=body, **options))
            batch = decode(answer, DncCheckResponse.model_validate_json)
            if [result.phone for result in batch.data] != sent:
                raise malformed(answer, f"it holds {len(batch.data)} results for the "
                                f"{len(sent)} numbers sent, or not in their order, so no "
                                "result can be matched to its number")
            results += [attach(result, answer.info) for result in batch.data]
        return results

    def add(self, phone: str, **options: Unpack[WriteOptions]) -> ApiData:
        """Put a number (E.164) on the list (answer shape not shown: plain data)."""
        body = request_body(DncAddRequest, phone=phone)
        return self._data(Call("dnc.add", body=body, **options))


class Consents(Area):
    """Consent evidence: ``POST /v1/consents`` (tier 2, ``consent:write``)."""

    def create(self, *, idempotency_key: str | None = None, correlation_id: str | None = None,
               **fields: Any) -> ApiData:
        """Record consent evidence for a phone number.

        The contract does not show this body, so the fields are sent as given
        (``None`` values dropped; dates as ISO 8601). The emulator takes
        ``phone``, ``channel`` (sms, call, whatsapp), ``granted``,
        ``captured_at``, ``method`` (web_form, verbal, written, sms_keyword) and
        optional ``evidence_url`` and ``text``.
        """
        call = Call("consents.create", body=plain_body(fields), idempotency_key=idempotency_key,
                    correlation_id=correlation_id)
        return self._data(call)
