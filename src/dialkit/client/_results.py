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

from ..contract import Answered, Resource, ResponseInfo


class ApiData(Answered, dict[str, Any]):
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
