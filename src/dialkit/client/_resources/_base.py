"""What every resource class shares: call options, parsing, bodies and lists."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from contextlib import ExitStack
from typing import Any, Protocol, TypedDict, TypeVar

from pydantic import BaseModel

from ..._utils._base_error import InputError
from ...contract import MAX_PAGE_LIMIT, Page, ResponseInfo
from .._http._arguments import checked
from .._http._decode import decode, json_object
from .._http._pagination import ListIterator
from .._http._results import ApiData, Result, attach
from .._http._transport import Answer, Call, Transport

Model = TypeVar("Model", bound=BaseModel)


class GuardEntry(Protocol):
    """The guard's one entry as the resources call it (:meth:`Guard.tool`): named here by
    what it does, for the guard imports the resources it judges for."""

    def tool(self, operation: str, path: Mapping[str, str], body: object, *,
             override: str | None = None, turn: ExitStack | None = None,
             callback_lead: str | None = None) -> bool: ...


class Options(TypedDict, total=False):
    """Options every method takes.

    Attributes:
        correlation_id: ``X-Correlation-ID`` for this call (1-128 characters of
            ``A-Z a-z 0-9 . _ : -``), over the client's own.
    """

    correlation_id: str


class WriteOptions(Options, total=False):
    """Options of methods that change data.

    Attributes:
        idempotency_key: The Idempotency-Key (1-255 characters); one is made
            when none is given. Pass the key of an earlier call to receive its
            stored answer instead of doing it again.
    """

    idempotency_key: str


class Unset(enum.Enum):
    """Marks an argument as not given, where ``None`` is a value (it clears a field)."""

    UNSET = "UNSET"


UNSET = Unset.UNSET
"""The value of an option not given (``None`` is sent as JSON ``null``)."""


def request_body(model: type[BaseModel], *, omit: object = None, **fields: Any) -> dict[str, Any]:
    """The JSON body of ``fields`` checked against the contract's request model.

    Arguments equal to ``omit`` are not sent: ``None`` for create methods, and
    :data:`UNSET` for updates, where ``None`` is sent to clear a field. What
    the model refuses raises :class:`~dialkit.errors.InvalidArgumentError`
    (a ``ValueError``) with the service's pointers and codes, naming each
    argument and what to pass.
    """
    sent = {name: value for name, value in fields.items() if value is not omit}
    dumped: dict[str, Any] = checked(model.model_validate, sent).model_dump(
        mode="json", exclude_unset=True)
    return dumped


def plain_body(fields: Mapping[str, Any]) -> dict[str, Any]:
    """A body whose shape the contract does not show: the fields as given, ``None`` dropped."""
    return {name: value for name, value in fields.items() if value is not None}


class Area:
    """Base of the resource classes: one per area of the contract."""

    def __init__(self, transport: Transport, guard: GuardEntry | None = None) -> None:
        self._transport = transport
        self._guard = guard
        """The client's guard, for the operations that reach a person (None: unguarded)."""

    def _model(self, model: type[Result], call: Call, *, override: str | None = None,
               callback_lead: str | None = None) -> Result:
        """Send ``call`` (:meth:`_sent`) and parse its answer as ``model``."""
        answer = self._sent(call, override=override, callback_lead=callback_lead)
        return attach(_parse(model, answer), answer.info)

    def _sent(self, call: Call, *, override: str | None = None,
              callback_lead: str | None = None) -> Answer:
        """Send ``call``, asking the client's guard first, so that every operation the
        contract marks as reaching a person (:data:`~dialkit.contract.CONTACTS`) is
        judged whichever method sends it, by the guard's one entry (:meth:`Guard.tool`:
        its ``override`` and ``callback_lead``), and sent as one step with its judgment:
        the number held from the judgment until the service answers. Every write is sent
        here; only reads (pages, the DNC check, a recording) go to the transport as
        they are."""
        with ExitStack() as turn:
            if self._guard is not None:
                self._guard.tool(call.operation, call.path or {}, call.body, override=override,
                                 turn=turn, callback_lead=callback_lead)
            return self._transport.send(call)

    def _data(self, call: Call) -> ApiData:
        """Send ``call`` whose answer's shape is not shown: plain data."""
        return self._model(ApiData, call)

    def _info(self, call: Call) -> ResponseInfo:
        """Send ``call`` whose answer has no body."""
        return self._sent(call).info

    def _list(
        self,
        item: type[Result],
        operation: str,
        params: Mapping[str, Any],
        *,
        limit: int,
        cursor: str | None,
        options: Options,
    ) -> ListIterator[Result]:
        """A lazy iterator over every item of a list operation."""
        if not 1 <= limit <= MAX_PAGE_LIMIT:
            raise InputError(f"limit is the page size: pass 1-{MAX_PAGE_LIMIT}, not {limit}")
        page_model = Page[item]  # type: ignore[valid-type]

        def fetch(at: str | None) -> Answer:
            call = Call(operation, params={**params, "limit": limit, "cursor": at}, **options)
            return self._transport.send(call)

        def parse(answer: Answer) -> Page[Result]:
            page: Page[Result] = decode(answer, page_model.model_validate_json)
            for each in page.data:
                attach(each, answer.info)
            return attach(page, answer.info)

        return ListIterator(fetch, parse, cursor)


def _parse(model: type[Result], answer: Answer) -> Result:
    if issubclass(model, ApiData):
        return model(decode(answer, json_object))
    parsed: Result = decode(answer, model.model_validate_json)
    return parsed
