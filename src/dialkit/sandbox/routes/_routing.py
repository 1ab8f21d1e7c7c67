"""What every route module uses: registration from the contract's operation table,
the request context, JSON answers, and cursor pagination.

Route modules register handlers with :func:`endpoint`, which takes the method
and path from :data:`dialkit.contract.OPERATIONS`, so a path is written once.
Handlers answer with :func:`json_response` (orjson, no second validation pass);
the declared ``response_model`` documents the answer in the OpenAPI document.
"""

from __future__ import annotations

import inspect
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any, TypeVar, cast

import orjson
from fastapi import APIRouter, Depends, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from dialkit.contract import (
    DEFAULT_PAGE_LIMIT,
    MAX_CURSOR_LENGTH,
    MAX_PAGE_LIMIT,
    ErrorCode,
    Problem,
    operation_by_name,
)

from .._http._pipeline import CONTEXT_KEY
from .._http._problems import PROBLEM_MEDIA_TYPE, ApiProblem
from .._state._service import RequestContext

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


async def _no_query(request: Request) -> None:
    if request.query_params:
        raise ApiProblem(ErrorCode.VALIDATION_FAILED,
                         "This operation takes no query parameters.",
                         errors=[(f"/query/{name}", "unknown_field")
                                 for name in request.query_params])


def endpoint(router: APIRouter, name: str, *, status_code: int = 200,
             response_model: Any = None, query: bool = False,
             summary: str | None = None, media_type: str | None = None,
             also: Sequence[int] = ()) -> Callable[[F], F]:
    """Register a handler for the contract operation ``name``.

    Args:
        router: The route module's router.
        name: The operation's name in the contract table, e.g. ``"leads.import"``.
        status_code: The success status.
        response_model: The documented success body.
        query: Whether the handler declares query parameters (with :func:`query_model`);
            if not, any query parameter is refused.
        summary: The OpenAPI summary (defaults to the operation name).
        media_type: The success body's media type when it is not JSON (a file,
            documented as binary).
        also: Other success statuses answering the same body (200 for a row that was
            already there, say).
    """
    operation = operation_by_name(name)
    responses: dict[int | str, Any] = {
        **PROBLEM_RESPONSES, **{code: {"model": response_model} for code in also}}
    answer: dict[str, Any] = {}
    if media_type is not None:
        answer["response_class"] = type("FileResponse", (Response,), {"media_type": media_type})
        responses[status_code] = {"content": {
            media_type: {"schema": {"type": "string", "format": "binary"}}}}

    def register(handler: F) -> F:
        model = _declared_query_model(handler)
        extra = None if model is None else {"parameters": _query_parameters(model)}
        decorator = router.api_route(
            operation.path, methods=[operation.method], name=name, status_code=status_code,
            response_model=response_model, responses=responses, **answer,
            dependencies=[] if query else [Depends(_no_query)], summary=summary or name,
            operation_id=name.replace(".", "_"), openapi_extra=extra,
        )
        return decorator(handler)

    return register


def find(ctx: RequestContext, table: str, row_id: str, what: str,
         *, condition: str = "") -> sqlite3.Row:
    """A row of the caller's data set by id, or 404 ``not_found`` naming ``what``.

    Args:
        ctx: The request context.
        table: A copied or own table (one with ``dataset`` and ``id``).
        row_id: The id from the path or body.
        what: The resource's name in the error, e.g. ``"callback"``.
        condition: More SQL for the row to count, e.g. ``" AND archived = 0"``.
    """
    row = ctx.service.store.row(
        f"SELECT * FROM {table} WHERE dataset = ? AND id = ?{condition}", (ctx.dataset, row_id))
    if row is None:
        raise ApiProblem(ErrorCode.NOT_FOUND, f"No {what} of this account has this id.")
    return row


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
    """``Annotated[model, ...]``: a handler parameter holding the validated query.

    The query is validated with the model itself rather than FastAPI's parameter
    machinery, which costs a fifth of a millisecond per request on the busiest
    lists; :func:`endpoint` documents the model's fields as query parameters.
    """
    async def parse(request: Request) -> BaseModel:
        try:
            return model.model_validate(dict(request.query_params))
        except ValidationError as exc:
            raise RequestValidationError(
                [{**error, "loc": ("query", *error["loc"])} for error in exc.errors()]
            ) from None

    parse.query_model = model  # type: ignore[attr-defined]
    return Annotated[model, Depends(parse)]


def _declared_query_model(handler: Callable[..., Any]) -> type[BaseModel] | None:
    for parameter in inspect.signature(handler, eval_str=True).parameters.values():
        for meta in getattr(parameter.annotation, "__metadata__", ()):
            model = getattr(getattr(meta, "dependency", None), "query_model", None)
            if model is not None:
                return cast(type[BaseModel], model)
    return None


def _query_parameters(model: type[BaseModel]) -> list[dict[str, Any]]:
    """OpenAPI parameter objects for the fields of a query model."""
    schema = model.model_json_schema()
    defs = schema.get("$defs", {})
    return [{"name": field.alias or name, "in": "query", "required": field.is_required(),
             "schema": _inlined(schema["properties"][field.alias or name], defs)}
            for name, field in model.model_fields.items()]


def json_object_sql(columns: Sequence[str]) -> str:
    """An SQL expression that renders a row as a JSON object of ``columns`` (SQLite does it)."""
    return "json_object(" + ", ".join(f"'{c}', {c}" for c in columns) + ")"


def paginate(context: RequestContext, listing: str, query: ListQuery, *, table: str,
             where: str, params: Sequence[Any],
             render: Callable[[sqlite3.Row], Any] | None = None,
             columns: str = "*", json_sql: str | None = None) -> Response:
    """One page of ``table`` newest first (``created_at`` then ``id``, descending).

    Args:
        context: The request context (binds the cursor to the caller's data set).
        listing: The list's name; a cursor of another list is refused.
        query: ``limit``, ``cursor`` and the filters; each filter given is a column of
            ``table`` that must equal it.
        table: The table to read.
        where: SQL conditions selecting the caller's rows.
        params: Parameters of ``where``.
        render: Turns a row into the resource's JSON object.
        columns: The columns to select for ``render``.
        json_sql: Instead of ``render``, an SQL expression giving each item's JSON text
            (see :func:`json_object_sql`): the fast path of the largest lists, which
            skips building Python objects for every field.
    """
    service, filters = context.service, query.filters()
    now = service.clock.now().timestamp()
    selected = f"{json_sql} AS item, created_at, id" if json_sql else columns
    sql = f"SELECT {selected} FROM {table} WHERE {where}"
    args = list(params)
    for column, value in filters.items():
        if value is not None:
            sql += f" AND {column} = ?"
            args.append(value)
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
    page = {"next_cursor": cursor, "has_more": more}
    if json_sql is None:
        assert render is not None, "paginate needs render or json_sql"
        return json_response({"data": [render(r) for r in rows], "page": page})
    items = ",".join(r["item"] for r in rows).encode()
    return Response(b'{"data":[' + items + b'],"page":' + orjson.dumps(page) + b"}",
                    media_type="application/json")
