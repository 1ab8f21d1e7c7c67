"""What calls return: contract models, plain data, and the answer's headers.

Every result can tell its request id and whether it was an idempotent
replay: contract models through :class:`~dialkit.contract.Resource`'s
properties, answers whose shape the contract does not show as
:class:`ApiData`, and answers without a body as
:class:`~dialkit.contract.ResponseInfo` itself.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import GetCoreSchemaHandler
from pydantic_core import core_schema

from ...contract import (
    Answered,
    ImportResponse,
    LeadResult,
    LeadResultReason,
    LeadResultStatus,
    Resource,
    ResponseInfo,
)

if TYPE_CHECKING:
    import pandas as pd


class ApiData(Answered, dict[str, Any]):
    """An answer whose shape the contract does not show, kept as plain data.

    A ``dict`` of the JSON answer, so it works unchanged against the real
    service whatever fields it carries, plus the answer's ``request_id``,
    ``replayed`` and ``etag``.

    Examples:
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


class ImportResult(ImportResponse):
    """The answer to ``leads.import_batch``: one result per input lead, in input order.

    Iterating it yields the :class:`~dialkit.contract.LeadResult` of each lead
    (the same as ``.data``); :meth:`to_frame` gives them as a DataFrame.

    Examples:
        >>> client = dialkit.Client.sandbox()
        >>> campaign_id = next(client.campaigns.list(status="draft")).id
        >>> records = [{"phone": "+14155550177", "full_name": "Grace Hopper"},
        ...            {"phone": "not a phone", "full_name": "Nobody"}]
        >>> result = client.leads.import_batch(campaign_id, records)
        >>> [str(lead.status) for lead in result]
        ['accepted', 'invalid']
        >>> result.to_frame().query("status != 'accepted'")["index"].tolist()
        [1]
        >>> client.close()
    """

    def __iter__(self) -> Iterator[LeadResult]:  # type: ignore[override]
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)

    def to_frame(self) -> pd.DataFrame:
        """One row per lead: ``index``, ``status``, ``reason``, ``field``, ``lead_id``,
        ``external_id``; statuses and reasons as categoricals of the contract's values."""
        import pandas as pd  # here: the client imports pandas only for those who ask

        rows = [result.model_dump(mode="json") for result in self.data]
        frame = pd.DataFrame(rows, columns=list(_RESULT_COLUMNS))
        return frame.astype({
            "index": "Int64",
            "status": pd.CategoricalDtype([s.value for s in LeadResultStatus]),
            "reason": pd.CategoricalDtype([r.value for r in LeadResultReason]),
            **{name: "string[pyarrow]" for name in ("field", "lead_id", "external_id")},
        })


_RESULT_COLUMNS = ("index", "status", "reason", "field", "lead_id", "external_id")
