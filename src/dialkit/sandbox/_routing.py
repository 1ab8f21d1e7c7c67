"""What every route module uses: registration from the contract's operation table,
the request context, JSON answers, and cursor pagination.

Route modules register handlers with :func:`endpoint`, which takes the method
and path from :data:`dialkit.contract.OPERATIONS`, so a path is written once.
Handlers answer with :func:`json_response` (orjson, no second validation pass);
the declared ``response_model`` documents the answer in the OpenAPI document.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any, TypeVar

import orjson
from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from dialkit.contract import (
    DEFAULT_PAGE_LIMIT,
    MAX_CURSOR_LENGTH,
    MAX_PAGE_LIMIT,
    ErrorCode,
    Problem,
    operation_by_name,
)

from ._pipeline import BODY_KEY, CONTEXT_KEY
from ._problems import PROBLEM_MEDIA_TYPE, ApiProblem
from ._service import RequestContext

F = TypeVar("F", bound=Callable[..., Any])



def _inlined(schema: Any, defs: dict[str, Any]) -> Any:
    """``schema`` with its local ``$defs`` references replaced by their definitions."""
    if isinstance(schema, dict):
        ref = schema.get("$ref", "")
        if ref.startswith("#/$defs/"):
            return _inlined(defs[ref.removeprefix("#/$defs/")], defs)
        return {k: _inlined(v, defs) for k, v in schema.items() if k != "$defs"}
    if isinstance(schema, list):
        return [_inlined(item, defs) for item in schema]
    return schema


_PROBLEM_SCHEMA = Problem.model_json_schema()
PROBLEM_RESPONSES: dict[int | str, dict[str, Any]] = {
    "default": {"description": "An error (RFC 9457 problem).",
                "content": {PROBLEM_MEDIA_TYPE: {
                    "schema": _inlined(_PROBLEM_SCHEMA, _PROBLEM_SCHEMA.get("$defs", {}))}}},
}
"""Every operation documents its errors as problem+json (self-contained: no ``$defs``)."""


async def _context(request: Request) -> RequestContext:
    context: RequestContext = request.scope["state"][CONTEXT_KEY]
    return context


Ctx = Annotated[RequestContext, Depends(_context)]
"""The handler's view of its request: service, caller, operation, request id."""


def raw_body(request: Request) -> Any:
    """The parsed JSON body as the pipeline read it (``None`` when empty)."""
    return request.scope["state"].get(BODY_KEY)


async def _no_query(request: Request) -> None:
    if request.query_params:
        raise ApiProblem(ErrorCode.VALIDATION_FAILED,
                         "This operation takes no query parameters.",
                         errors=[(f"/query/{name}", "unknown_field")
                                 for name in request.query_params])


def endpoint(router: APIRouter, name: str, *, status_code: int = 200,
             response_model: Any = None, query: bool = False,
             summary: str | None = None) -> Callable[[F], F]:
    """Register a handler for the contract operation ``name``.

    Args:
        router: The route module's router.
        name: The operation's name in the contract table, e.g. ``"leads.import"``.
        status_code: The success status.
        response_model: The documented success body.
        query: Whether the handler declares query parameters; if not, any is refused.
        summary: The OpenAPI summary (defaults to the operation name).
    """
    operation = operation_by_name(name)
    return router.api_route(
        operation.path, methods=[operation.method], name=name, status_code=status_code,
        response_model=response_model, responses=PROBLEM_RESPONSES,
        dependencies=[] if query else [Depends(_no_query)], summary=summary or name,
        operation_id=name.replace(".", "_"),
    )


def json_response(content: Any, status_code: int = 200,
                  headers: Mapping[str, str] | None = None) -> Response:
    """A JSON answer serialised with orjson."""
    return Response(orjson.dumps(content), status_code=status_code,
                    media_type="application/json", headers=dict(headers or {}))


class ListQuery(BaseModel):
    """``limit`` and ``cursor``, shared by every list operation; unknown parameters refused."""

    model_config = ConfigDict(extra="forbid")

    limit: int = Field(DEFAULT_PAGE_LIMIT, ge=1, le=MAX_PAGE_LIMIT)
    cursor: str | None = Field(None, min_length=1, max_length=MAX_CURSOR_LENGTH)

    def filters(self) -> dict[str, Any]:
        """The filters a cursor is bound to: every field but ``limit`` and ``cursor``."""
        return self.model_dump(exclude={"limit", "cursor"}, mode="json")


def query_model(model: type[BaseModel]) -> Any:
    """``Annotated[model, Query()]``: a query-parameter model for a handler signature."""
    return Annotated[model, Query()]


def paginate(context: RequestContext, listing: str, query: ListQuery, *, table: str,
             where: str, params: Sequence[Any], render: Callable[[sqlite3.Row], Any],
             columns: str = "*") -> Response:
    """One page of ``table`` newest first (``created_at`` then ``id``, descending).

    Args:
        context: The request context (binds the cursor to the caller's data set).
        listing: The list's name; a cursor of another list is refused.
        query: ``limit``, ``cursor`` and the filters.
        table: The table to read.
        where: SQL conditions selecting the caller's rows and the filters.
        params: Parameters of ``where``.
        render: Turns a row into the resource's JSON object.
        columns: The columns to select.
    """
    service, filters = context.service, query.filters()
    now = service.clock.now().timestamp()
    sql = f"SELECT {columns} FROM {table} WHERE {where}"
    args = list(params)
    if query.cursor is not None:
        position = service.cursors.decode(query.cursor, listing=listing, dataset=context.dataset,
                                          filters=filters, now=now)
        sql += " AND (created_at, id) < (?, ?)"
        args += position
    sql += " ORDER BY created_at DESC, id DESC LIMIT ?"
    rows = service.store.rows(sql, [*args, query.limit + 1])
    more = len(rows) > query.limit
    rows = rows[: query.limit]
    cursor = None
    if more:
        last = rows[-1]
        cursor = service.cursors.encode(listing=listing, dataset=context.dataset, filters=filters,
                                        position=[last["created_at"], last["id"]], now=now)
    return json_response({"data": [render(r) for r in rows],
                          "page": {"next_cursor": cursor, "has_more": more}})
