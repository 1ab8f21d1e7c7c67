"""What calls return: contract models, plain data, and the answer's headers.

Every result can tell its request id and whether it was an idempotent
replay: contract models through :class:`~dialkit.contract.Resource`'s
properties, answers whose shape the contract does not show as
:class:`ApiData`, and answers without a body as
:class:`~dialkit.contract.ResponseInfo` itself.
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import GetCoreSchemaHandler
from pydantic_core import core_schema

from ..contract import Resource, ResponseInfo


class ApiData(dict[str, Any]):
    """An answer whose shape the contract does not show, kept as plain data.

    A ``dict`` of the JSON answer, so it works unchanged against the real
    service whatever fields it carries, plus the answer's ``request_id``,
    ``replayed`` and ``etag``.

    Example:
        >>> me = ApiData({"client": {"scopes": []}})
        >>> me["client"]["scopes"], me.request_id
        ([], None)
    """

    _response: ResponseInfo | None = None

    @property
    def request_id(self) -> str | None:
        """The ``X-Request-ID`` of the answer."""
        return None if self._response is None else self._response.request_id

    @property
    def replayed(self) -> bool:
        """Whether the answer was an idempotent replay of an earlier request."""
        return self._response is not None and self._response.replayed

    @property
    def etag(self) -> str | None:
        """The answer's ``ETag``, if it carried one."""
        return None if self._response is None else self._response.etag

    @classmethod
    def __get_pydantic_core_schema__(
        cls, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        """Validate as a JSON object, then wrap it, so pages can hold ApiData items."""
        return core_schema.no_info_after_validator_function(cls, handler(dict[str, Any]))


Result = TypeVar("Result", bound=Resource | ApiData)


def attach(result: Result, info: ResponseInfo) -> Result:
    """Record the answer's headers on a result and return it."""
    result._response = info
    return result
