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

from ..contract import (
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


class ImportResult(ImportResponse):
    """The answer to a lead import: one :class:`~dialkit.contract.LeadResult` per lead.

    The results are in ``data``, in input order (``index`` is the lead's
    0-based position in the batch); iterating the answer walks them, and
    :meth:`to_frame` gives them as a DataFrame. ``summary`` counts them.

    Example:
        >>> result = client.leads.import_batch(campaign_id, leads)  # doctest: +SKIP
        >>> [(r.index, r.reason) for r in result if r.status != "accepted"]  # doctest: +SKIP
        [(1, 'missing_phone')]
    """

    def __iter__(self) -> Iterator[LeadResult]:  # type: ignore[override]
        """The lead results, in input order (not the model's fields, as a model's would)."""
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)

    def to_frame(self) -> pd.DataFrame:
        """The results as a DataFrame, one row per lead, a column per LeadResult field.

        The columns are ``index``, ``external_id``, ``status``, ``reason``,
        ``field`` and ``lead_id``, typed as the frames of :mod:`dialkit.frames` are: Arrow-backed
        strings, a nullable integer ``index``, and categoricals of the
        contract's statuses and reasons. The rows follow the batch, so
        ``pd.concat([df.reset_index(drop=True), result.to_frame()], axis=1)``
        puts each lead beside its result.
        """
        import pandas as pd

        dtypes = _result_dtypes(pd)
        rows = [result.model_dump(mode="json") for result in self.data]
        return pd.DataFrame({
            name: pd.Series([row[name] for row in rows], dtype=object).astype(dtype)
            for name, dtype in dtypes.items()
        }, index=pd.RangeIndex(len(rows)))


def _result_dtypes(pd: Any) -> dict[str, Any]:
    """Column name to dtype of :meth:`ImportResult.to_frame`, in the contract's field order."""
    string = pd.StringDtype("pyarrow")
    return {
        "index": pd.Int64Dtype(),
        "external_id": string,
        "status": pd.CategoricalDtype([member.value for member in LeadResultStatus]),
        "reason": pd.CategoricalDtype([member.value for member in LeadResultReason]),
        "field": string,
        "lead_id": string,
    }


Result = TypeVar("Result", bound=Resource | ApiData)


def attach(result: Result, info: ResponseInfo) -> Result:
    """Record the answer's headers on a result and return it."""
    result._response = info
    return result
