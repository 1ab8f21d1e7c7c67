"""The emulator's ASGI application: FastAPI routes behind the request pipeline.

Every error leaves as problem+json: the pipeline's own checks, the handlers'
:class:`ApiProblem` and FastAPI's validation errors (as 400 ``validation_failed``
with JSON pointers). Anything unexpected is caught by the pipeline (500
``internal_error``, logged, never a traceback on the wire).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp

from dialkit.contract import ErrorCode, field_error_code, json_pointer

from .._state._service import Service
from ._checks._admin_access import AdminAccess
from ._mcp_mount import McpMount
from ._openapi import from_contract
from ._pipeline import Pipeline
from ._problems import ApiProblem, render

Running = Callable[[], AbstractAsyncContextManager[None]]
"""Something to run for as long as the application runs (entered by its lifespan)."""


def _pointer(loc: Sequence[Any]) -> str:
    """A JSON pointer for a validation error location: into the body, or ``/query/<name>``."""
    parts = list(loc)
    if parts and parts[0] == "body":
        parts = parts[1:]
    return json_pointer(parts)


def validation_problem(errors: Sequence[Any]) -> ApiProblem:
    """400 ``validation_failed`` listing every field error as ``{pointer, code}``."""
    pairs = [(_pointer(e["loc"]), field_error_code(e["type"])) for e in errors]
    first = errors[0] if errors else {"msg": "invalid request"}
    where = pairs[0][0] or "the body" if pairs else "the request"
    return ApiProblem(ErrorCode.VALIDATION_FAILED,
                      f"The request is not valid: {where}: {first['msg']}.", errors=pairs)


def _answer(request: Request, problem: ApiProblem, docs_base: str) -> Response:
    request_id = request.scope.get("state", {}).get("request_id", "req_unknown")
    status, headers, body = render(problem, request_id, docs_base)
    return Response(body, status_code=status, headers=headers)


def _lifespan(service: Service, running: Running | None = None) -> Any:
    """Background work while the server runs: webhook delivery, the dialer on a real clock,
    and ``running`` (the tool server's sessions)."""
    from .._simulation._delivery import delivery_loop
    from .._simulation._dialer import simulation_loop

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with contextlib.AsyncExitStack() as stack:
            if running is not None:
                await stack.enter_async_context(running())
            tasks = [asyncio.create_task(delivery_loop(service), name="webhook delivery")]
            if not service.clock.manual:
                tasks.append(asyncio.create_task(simulation_loop(service), name="dialer"))
            yield
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    return lifespan


def _routed_app(**kwargs: Any) -> FastAPI:
    """A FastAPI application holding every route, flat (the pipeline matches them one by one)."""
    from ..routes import ROUTERS  # the route modules import this package's machinery

    app = FastAPI(
        title="Outbound Dialing Service API (dialkit sandbox)",
        version="1.0.0-rc6",
        description="A local emulator of the v1 contract. Errors are RFC 9457 problems.",
        openapi_url="/_sandbox/openapi.json",
        docs_url="/_sandbox/docs",
        redoc_url=None,
        redirect_slashes=False,
        **kwargs,
    )
    routes = [route for router in ROUTERS for route in router.routes]
    # Literal segments win over parameters: /v1/leads/import before /v1/leads/{lead_id}.
    app.router.routes.extend(sorted(routes, key=lambda r: getattr(r, "path", "").count("{")))

    def document() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = from_contract(FastAPI.openapi(app))
        return app.openapi_schema

    app.openapi = document  # type: ignore[method-assign]
    return app


def openapi_document() -> dict[str, Any]:
    """The emulator's OpenAPI document, as served at ``/_sandbox/openapi.json``."""
    return _routed_app().openapi()


def build_fastapi(service: Service, running: Running | None = None) -> FastAPI:
    """The FastAPI application with every route and the error handlers; ``running`` is
    entered for as long as the application runs."""
    app = _routed_app(lifespan=_lifespan(service, running))
    app.state.service = service
    docs = service.docs_base

    async def on_problem(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ApiProblem)
        return _answer(request, exc, docs)

    async def on_validation(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestValidationError)
        return _answer(request, validation_problem(exc.errors()), docs)

    async def on_http(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        if exc.status_code == 405:
            problem = ApiProblem(ErrorCode.METHOD_NOT_ALLOWED, "Method not allowed on this path.",
                                 headers=dict(exc.headers or {}))
        elif exc.status_code == 404:
            problem = ApiProblem(ErrorCode.ROUTE_NOT_AVAILABLE, "No such path.")
        else:
            problem = ApiProblem(ErrorCode.VALIDATION_FAILED, str(exc.detail),
                                 status=exc.status_code)
        return _answer(request, problem, docs)

    async def on_crash(request: Request, exc: Exception) -> Response:
        # Starlette answers with this, then re-raises to the pipeline, which logs the crash.
        return _answer(request, ApiProblem(ErrorCode.INTERNAL_ERROR,
                                           "The emulator failed; the error is in its log."), docs)

    app.add_exception_handler(ApiProblem, on_problem)
    app.add_exception_handler(Exception, on_crash)
    app.add_exception_handler(RequestValidationError, on_validation)
    app.add_exception_handler(HTTPException, on_http)
    return app


def create_app(service: Service, admin: AdminAccess) -> ASGIApp:
    """The whole emulator as one ASGI application: ``/mcp`` and the pipeline behind it,
    both answering only the Host and Origin names of ``admin``."""
    mount = McpMount(service, admin)
    return mount.in_front_of(Pipeline(build_fastapi(service, mount.running), service, admin))
