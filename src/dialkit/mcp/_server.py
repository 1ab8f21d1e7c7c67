"""The tool server: an ``MCPServer`` with one generated tool per operation.

Every tool runs the same way: find who calls (:meth:`Executor.identify`),
check the argument names, ask the user to confirm if the call can reach a
person (decided from the operation and, for a lead add, the campaign's status
read then; never from the key's scopes), run the operation through the
executor, and answer with the service's answer (a tool error that carries the
problem's ``code`` for a refusal). Each ``tools/call``, whatever became of it,
writes one audit record, one that reaches no tool (an unknown name, arguments
that are not an object) included. ``tools/list`` shows only the tools the
caller's scopes allow.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any, cast

import orjson
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.tools import Tool
from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase, FuncMetadata
from mcp.shared.exceptions import MCPError
from mcp_types import (
    INVALID_REQUEST,
    AudioContent,
    CallToolResult,
    ContentBlock,
    InputRequiredResult,
    ListToolsResult,
    TextContent,
)
from pydantic import ConfigDict, Field, create_model

from dialkit._utils._net import bearer_token
from dialkit.contract import CampaignStatus, ErrorCode, Operation, Scope, operation_by_name

from .._utils._base_error import AccessRefusedError, InputError
from ._call_log import AuditLog, AuditRecord, Confirmation, Outcome
from ._confirm import CONFIRM_TIMEOUT_SECONDS, REFUSALS, confirm, confirmation_text, guard_text
from ._executor import Executor, GuardCheck, GuardedExecutor, Identity, ToolAnswer, ToolCall
from ._tools import (
    OVERRIDE_ARGUMENT,
    TOOLS,
    TOOLS_BY_NAME,
    ToolSpec,
    arguments_digest,
    guarded,
    is_read,
    reaches_people,
)

SERVER_NAME = "dialkit"
"""The name the MCP server gives itself to its clients."""
INSTRUCTIONS = (
    "Every operation of the outbound dialing service's v1 API as a tool, named <area>_<verb>. "
    "Tools that can reach a real person (calls, SMS, campaign resume, callbacks, appointments, "
    "consents, leads dialled now) ask the user to confirm each call before they run. A refusal "
    "by the service is a tool error whose text starts with the HTTP status and the problem's "
    "code. Retrying a write with the same arguments never does it twice.")
SECRET_WITHHELD = ("The webhook signing secret is not passed to assistants; the endpoint's "
                   "secret_hint names it. Rotate the secret with dialkit.Client to read a new one.")
INVALID_ARGUMENTS = "invalid_arguments"
"""The code of a call refused for a missing or unknown argument name, or arguments that
are not an object: nothing was sent."""
UNKNOWN_TOOL = "unknown_tool"
"""The code of a call to a tool this server does not serve: nothing was sent."""
CONTACT_FORBIDDEN = "contact_forbidden"
"""The code of a call the guard refused before asking the user: nothing was sent."""
CONFIRMATION_UNDECIDED = "confirmation_undecided"
"""The code of a call refused because whether to ask the user could not be decided."""
OVERRIDE_RECORDED = "override_recorded"
"""The code of the record written before a contact with an override is sent."""
AUDIT_LOG_UNWRITABLE = "audit_log_unwritable"
"""The code of a contact with an override not sent, for its record could not be written."""
TOOL_NAME_KEPT = 100
"""How much of a tool name a client sent is kept in the audit log."""
_DIALLING_NOBODY = frozenset({CampaignStatus.DRAFT, CampaignStatus.READY, CampaignStatus.PAUSED,
                              CampaignStatus.COMPLETED})
"""Campaign states whose dialler calls no one, so a lead added to one reaches no one yet;
any other (running, or a status newer than the contract) asks the user first."""
_UNSET: Any = object()


class _Arguments(ArgModelBase):
    """Hands the tool exactly the arguments the client sent, as one ``arguments`` dict.

    It refuses nothing: :meth:`ToolSpec.argument_problem` checks the names inside the
    tool, so a refused call is written to the audit log like any other.
    """

    def model_dump_one_level(self) -> dict[str, Any]:
        sent = {name: getattr(self, name) for name in self.model_fields_set}
        sent.update(self.model_extra or {})
        return {"arguments": sent}


def _argument_model(spec: ToolSpec) -> type[ArgModelBase]:
    """The argument names, each of any value and none required: the names let the SDK
    unpack a JSON-encoded value as it does for any tool; presence and unknown names are
    checked by the tool itself, the values by the service (as for the REST request)."""
    fields: dict[str, Any] = {name: (Any, Field(default=_UNSET))
                              for name in spec.input_schema.get("properties", {})}
    base = cast(type[_Arguments], type(f"{spec.name}_base", (_Arguments,), {
        "model_config": ConfigDict(arbitrary_types_allowed=True, extra="allow")}))
    return create_model(f"{spec.name}_args", __base__=base, **fields)


def select_tools(names: Iterable[str] | None = None, *, read_only: bool = False
                 ) -> tuple[ToolSpec, ...]:
    """The tools to serve: all, those named, and with ``read_only`` only tier-1 reads.

    Raises:
        ValueError: A name that is no tool's.
    """
    chosen = TOOLS
    if names is not None:
        wanted = list(names)
        unknown = sorted(set(wanted) - set(TOOLS_BY_NAME))
        if unknown:
            raise InputError(f"no tool named {', '.join(unknown)}; tools are named "
                             f"<area>_<verb>, such as calls_list or leads_import")
        chosen = tuple(t for t in TOOLS if t.name in wanted)
    if read_only:
        chosen = tuple(t for t in chosen if is_read(t.operation) and t.operation.tier == 1)
    return chosen


def allowed(operation: Operation, scopes: frozenset[Scope]) -> bool:
    """Whether a key whose client holds ``scopes`` may run ``operation``."""
    return operation.scope is None or operation.scope in scopes


def _transport(ctx: Context[Any, Any] | ServerRequestContext[Any, Any]
               ) -> tuple[str | None, str | None]:
    """The bearer token and client address of the HTTP request, if there is one."""
    request_context = ctx.request_context if isinstance(ctx, Context) else ctx
    request = request_context.request
    if request is None:
        return None, None
    headers = getattr(request, "headers", {})
    client = getattr(request, "client", None)
    return (bearer_token(headers.get("authorization")),
            None if client is None else client.host)


class _Runner:
    """Runs tool calls: identify, check the arguments, confirm, execute, answer, audit."""

    def __init__(self, executor: Executor, audit: AuditLog | None, timeout: float) -> None:
        self.executor = executor
        self.audit = audit
        self.timeout = timeout

    async def call(self, spec: ToolSpec, arguments: dict[str, Any],
                   ctx: Context[Any, Any]) -> CallToolResult | InputRequiredResult:
        """Run one tool call; a record the audit log cannot take stops it there, before
        anything more is sent (every record is written before the step it records is
        taken further: the question, the override's contact)."""
        try:
            return await self._recorded(spec, arguments, ctx)
        except _Unrecorded as failed:
            return _error_text(
                f"The audit log could not be written ({failed}), so nothing was sent: every "
                "tool call is recorded, and a contact with an override only once its record "
                "is on the disk. Free the log's disk or fix its path, then call again.",
                AUDIT_LOG_UNWRITABLE)

    async def _recorded(self, spec: ToolSpec, arguments: dict[str, Any],
                        ctx: Context[Any, Any]) -> CallToolResult | InputRequiredResult:
        credentials, source = _transport(ctx)
        try:
            identity = await self.executor.identify(credentials)
        except AccessRefusedError as refused:
            self._write(_Note(spec.name, arguments, None), "error", "not_needed",
                        status=refused.status, code=refused.code)
            return _error_text(f"{refused.status} {refused.code}: {refused}", refused.code)
        except Exception:
            self._write(_Note(spec.name, arguments, None), "error", "not_needed",
                        code=ErrorCode.INTERNAL_ERROR)
            raise
        note = _Note(spec.name, arguments, identity)
        try:
            return await self._checked(spec, note, ctx, credentials, source)
        except Exception:  # a fault of ours: recorded, then the SDK answers it as a tool error
            self._write(note, "error", "not_needed", code=ErrorCode.INTERNAL_ERROR)
            raise

    async def _checked(self, spec: ToolSpec, note: _Note, ctx: Context[Any, Any],
                       credentials: str | None, source: str | None
                       ) -> CallToolResult | InputRequiredResult:
        """Check the argument names, confirm if need be, run."""
        problem = spec.argument_problem(note.arguments) or _override_problem(note.override)
        if problem is not None:
            self._write(note, "not_run", "not_needed", code=INVALID_ARGUMENTS)
            return _error_text(problem, INVALID_ARGUMENTS)
        check = await self._guard_check(spec, note, credentials, source)
        if check is not None and check.refusal is not None:
            if note.override is None:  # refused before the user is asked: nothing to confirm
                self._write(note, "not_run", "not_needed", code=CONTACT_FORBIDDEN)
                return _error(ToolAnswer(422, b""), dict(check.refusal))
            note.overridden = check.refusal.get("rule")
        confirmation = await self._confirmation(spec, note, ctx, credentials, source, check)
        if not isinstance(confirmation, str):
            return confirmation
        return await self._run(spec, note, confirmation, credentials, source)

    async def _guard_check(self, spec: ToolSpec, note: _Note, credentials: str | None,
                           source: str | None) -> GuardCheck | None:
        """The executor's guard's judgment of a guarded tool's call; ``None``
        where the executor has no guard, or the tool is not guarded."""
        judge = getattr(self.executor, "judge", None)
        if judge is None or not guarded(spec.operation):
            return None
        request = spec.request(note.arguments)
        check: GuardCheck = await cast(GuardedExecutor, self.executor).judge(ToolCall(
            spec.operation, request.path, request.query, request.body,
            credentials=credentials, source=source))
        return check

    async def _confirmation(self, spec: ToolSpec, note: _Note, ctx: Context[Any, Any],
                            credentials: str | None, source: str | None,
                            check: GuardCheck | None
                            ) -> Confirmation | CallToolResult | InputRequiredResult:
        """``not_needed`` or ``given`` when the call may run; otherwise what to answer
        instead (the question, or why nothing ran), already written to the log. The
        question of a guarded tool says what its guard checked (``check``)."""
        arguments = note.arguments
        try:
            needed = await self._needs_confirmation(spec, arguments, credentials, source)
        except _Undecided as undecided:
            self._write(note, "not_run", "undecided", code=CONFIRMATION_UNDECIDED)
            return _error_text(str(undecided), CONFIRMATION_UNDECIDED)
        if not needed:
            return "not_needed"
        question = confirmation_text(spec.name, arguments)
        if guarded(spec.operation):
            question += " " + guard_text(check, note.override)
        verdict = await confirm(ctx, question, self.timeout)
        if isinstance(verdict, InputRequiredResult):
            self._write(note, "not_run", "asked", code="awaiting_confirmation")
            return verdict
        if verdict != "given":
            self._write(note, "not_run", verdict, code=f"confirmation_{verdict}")
            return _error_text(REFUSALS[verdict], f"confirmation_{verdict}")
        return verdict

    async def _run(self, spec: ToolSpec, note: _Note, confirmation: Confirmation,
                   credentials: str | None, source: str | None) -> CallToolResult:
        """Send the operation, write its record, and answer with the service's answer. A
        contact sent with an override is recorded first, durably (``sending``): a log
        that cannot be written sends nothing, so no override lives only in memory."""
        request = spec.request(note.arguments)
        if note.override is not None:  # raises _Unrecorded: the call's answer says so
            self._write(note, "sending", confirmation, code=OVERRIDE_RECORDED)
        answer = await self.executor.execute(ToolCall(
            spec.operation, request.path, request.query, request.body,
            request.idempotency_key, request.if_match, credentials, source, note.override))
        problem = None if answer.ok else _problem(answer)
        try:
            self._write(note, "ok" if answer.ok else "error", confirmation, answer=answer,
                        code=None if problem is None else problem.get("code"))
        except _Unrecorded as failed:
            return _error_text(
                f"The call was sent (the service answered {answer.status}), but its record "
                f"could not be written to the audit log ({failed}). Free the log's disk or "
                "fix its path before the next call.", AUDIT_LOG_UNWRITABLE)
        return _result(spec, answer) if problem is None else _error(answer, problem)

    async def _needs_confirmation(self, spec: ToolSpec, arguments: Mapping[str, Any],
                                  credentials: str | None, source: str | None) -> bool:
        """Whether to ask, decided from the operation, never from what the key holds
        (scopes granted while serving must not skip a question): a tier-2 operation or
        WhatsApp always; a lead add when it asks ``dial_now`` or its campaign, read now,
        is dialling.

        Raises:
            _Undecided: The campaign's status could not be read.
        """
        operation = spec.operation
        if not reaches_people(operation):
            return False
        if operation.name != "leads.create" or arguments.get("dial_now"):
            return True
        status = await self._campaign_status(str(arguments.get("campaign_id")), credentials,
                                             source)
        return status not in _DIALLING_NOBODY

    async def _campaign_status(self, campaign_id: str, credentials: str | None,
                               source: str | None) -> str:
        """The campaign's status, read now.

        Raises:
            _Undecided: The service did not tell it.
        """
        answer = await self.executor.execute(ToolCall(
            operation_by_name("campaigns.get"), {"campaign_id": campaign_id},
            credentials=credentials, source=source))
        data = answer.json() if answer.ok else None
        status = data.get("status") if isinstance(data, dict) else None
        if isinstance(status, str):
            return status
        problem = _problem(answer) if not answer.ok else {"code": "no_status"}
        raise _Undecided(
            f"A lead added to a running campaign can be called at once, so leads_create asks "
            f"the user first when the campaign is running; its status could not be read "
            f"({answer.status} {problem.get('code')}), so whether to ask cannot be decided "
            "and the call was refused. Nothing was done: check the campaign_id and that the "
            "key holds campaigns:read, or pass dial_now: true to be asked in any case.")

    async def unrouted(self, ctx: ServerRequestContext[Any, Any], tool: str, arguments: Any,
                       code: str) -> None:
        """Write the record of a ``tools/call`` that reaches no tool (refused by the SDK)."""
        credentials, _ = _transport(ctx)
        try:
            identity: Identity | None = await self.executor.identify(credentials)
        except Exception:  # a refused key: the record names no one, the SDK still answers
            identity = None
        self._write(_Note(tool, arguments, identity), "not_run", "not_needed", code=code)

    def _write(self, note: _Note, outcome: Outcome, confirmation: Confirmation, *,
               answer: ToolAnswer | None = None, status: int | None = None,
               code: str | None = None) -> None:
        """Write the call's record; ``status`` stands in for an answer the service gave
        without one reaching the executor (a refused key)."""
        if self.audit is None:
            return
        identity = note.identity
        record = AuditRecord(
            at=datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            account=None if identity is None else identity.account,
            client_id=None if identity is None else identity.client_id,
            credential_id=None if identity is None else identity.credential_id,
            tool=note.tool,
            arguments_digest=arguments_digest(note.tool, note.arguments),
            outcome=outcome, confirmation=confirmation,
            status=status if answer is None else answer.status, code=code,
            request_id=None if answer is None else answer.request_id,
            replayed=answer is not None and answer.replayed,
            override=note.override, overridden=note.overridden)
        try:
            self.audit.write(record)
        except OSError as error:
            raise _Unrecorded(error.strerror or str(error)) from error


class _Unrecorded(Exception):
    """The audit log could not take a record (a full disk, a folder in the file's place):
    the tool call stops there."""


class _Note:
    """What an audit record of one call repeats: the tool's name, its arguments (as sent:
    not an object for a call that reaches no tool), the caller (``None`` when the key was
    refused), the override's reason, as given, and the rule it overrides, once judged."""

    __slots__ = ("arguments", "identity", "overridden", "override", "tool")

    def __init__(self, tool: str, arguments: Any, identity: Identity | None) -> None:
        self.tool = tool
        self.arguments = arguments
        self.identity = identity
        spec = TOOLS_BY_NAME.get(tool)
        judged = spec is not None and guarded(spec.operation)
        given = arguments.get(OVERRIDE_ARGUMENT) if judged and isinstance(
            arguments, Mapping) else None
        self.override: Any = given.strip() if isinstance(given, str) else given
        self.overridden: Any = None


def _override_problem(override: Any) -> str | None:
    """Why an ``override`` argument cannot be taken (not a reason in words), or ``None``."""
    if override is None or (isinstance(override, str) and override):
        return None
    return ("override is the user's reason to send a contact the guard refused, as text "
            "(\"the customer asked to be called now\"); leave it out otherwise. Nothing was "
            "done.")


class _Undecided(Exception):
    """Whether a call needs confirmation cannot be decided; the message says why."""


def _problem(answer: ToolAnswer) -> dict[str, Any]:
    data = answer.json()
    if isinstance(data, dict):
        return data
    if answer.status == 0:
        return {"code": "no_answer", "status": 0, "detail": answer.body.decode("utf-8", "replace")
                or "No complete answer arrived; the outcome is unknown. Retry the same call: "
                "its Idempotency-Key makes the retry safe."}
    return {"status": answer.status, "detail": answer.body[:200].decode("utf-8", "replace")}


def _error(answer: ToolAnswer, problem: dict[str, Any]) -> CallToolResult:
    """A refusal as a tool error: ``<status> <code>: <detail>``, the problem as data."""
    code = problem.get("code")
    text = f"{answer.status} {code}: {problem.get('detail', '')}".strip()
    if answer.retry_after is not None:
        text += f" Retry after {answer.retry_after:g} s."
    if answer.request_id:
        text += f" Request id: {answer.request_id}."
    structured = {**problem, "retry_after": answer.retry_after}
    return CallToolResult(content=[TextContent(type="text", text=text)],
                          structured_content=structured, is_error=True)


def _error_text(text: str, code: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=text)],
                          structured_content={"code": code, "detail": text}, is_error=True)


def _meta(answer: ToolAnswer) -> dict[str, Any]:
    """What a success says beside its content: the request id, whether it was replayed, and
    the ``ETag`` where the answer has one, which is what ``if_match`` takes."""
    meta: dict[str, Any] = {"dialkit/request_id": answer.request_id,
                            "dialkit/replayed": answer.replayed}
    if answer.etag is not None:
        meta["dialkit/etag"] = answer.etag
    return meta


def _result(spec: ToolSpec, answer: ToolAnswer) -> CallToolResult:
    """A success: the answer's JSON as text (the body as it came, not written again) and
    as structured content."""
    meta = _meta(answer)
    if answer.content_type.startswith("audio/"):
        audio = AudioContent(type="audio", data=base64.b64encode(answer.body).decode(),
                             mime_type=answer.content_type.split(";")[0])
        return CallToolResult(content=[audio], _meta=meta)
    data = answer.json()
    text = answer.body.decode("utf-8", "replace")
    content: list[ContentBlock] = []
    if answer.replayed:
        content.append(TextContent(type="text", text=(
            "This is the stored answer of an earlier identical call (Idempotency-Replayed): "
            "nothing was done again.")))
    if isinstance(data, dict) and isinstance(data.get("secret"), str):
        data = {**data, "secret": None}
        text = orjson.dumps(data).decode()
        content.append(TextContent(type="text", text=SECRET_WITHHELD))
    if data is None:
        done = TextContent(type="text", text=text or f"Done ({answer.status}).")
        return CallToolResult(content=[done, *content], _meta=meta)
    content.insert(0, TextContent(type="text", text=text))
    structured = data if spec.output_schema is not None else None
    return CallToolResult(content=content, structured_content=structured, _meta=meta)


def _tool(spec: ToolSpec, runner: _Runner) -> Tool:
    async def run(ctx: Context[Any, Any], arguments: dict[str, Any]
                  ) -> CallToolResult | InputRequiredResult:
        return await runner.call(spec, arguments, ctx)

    return Tool(fn=run, name=spec.name, title=spec.operation.name,
                description=spec.description, parameters=spec.input_schema,
                fn_metadata=FuncMetadata(arg_model=_argument_model(spec),
                                         output_schema=spec.output_schema),
                is_async=True, context_kwarg="ctx", annotations=spec.annotations)


def _scope_filter(executor: Executor) -> Any:
    """Middleware: ``tools/list`` shows only the tools the caller's key may run."""
    async def middleware(ctx: ServerRequestContext[Any, Any], call_next: CallNext
                         ) -> HandlerResult:
        result = await call_next(ctx)
        if ctx.method != "tools/list":
            return result
        credentials, _ = _transport(ctx)
        try:
            identity = await executor.identify(credentials)
        except AccessRefusedError as refused:
            raise MCPError(INVALID_REQUEST, f"{refused.status} {refused.code}: {refused}"
                           ) from None
        listed = ListToolsResult.model_validate(result) if isinstance(result, dict) else result
        assert isinstance(listed, ListToolsResult)
        visible = [t for t in listed.tools
                   if allowed(TOOLS_BY_NAME[t.name].operation, identity.scopes)]
        return listed.model_copy(update={"tools": visible})

    return middleware


def _unrouted_code(params: Any, served: frozenset[str]) -> str | None:
    """Why a ``tools/call`` reaches no tool (an unknown name, arguments that are not an
    object), or ``None`` when it does."""
    if not isinstance(params, Mapping) or params.get("name") not in served:
        return UNKNOWN_TOOL
    arguments = params.get("arguments")
    return None if arguments is None or isinstance(arguments, Mapping) else INVALID_ARGUMENTS


def _named(params: Any) -> tuple[str, Any]:
    """The tool name (cut at :data:`TOOL_NAME_KEPT`; JSON when not a string) and the
    arguments of a ``tools/call``, as sent."""
    if not isinstance(params, Mapping):
        return "", None
    name = params.get("name")
    text = name if isinstance(name, str) else json.dumps(name, default=str)  # any int
    return text[:TOOL_NAME_KEPT], params.get("arguments")


def _call_audit(runner: _Runner, served: frozenset[str]) -> Any:
    """Middleware: a ``tools/call`` that reaches no tool is written to the audit log too
    (the tools write their own records); the SDK answers it as it would."""
    async def middleware(ctx: ServerRequestContext[Any, Any], call_next: CallNext
                         ) -> HandlerResult:
        if ctx.method != "tools/call":
            return await call_next(ctx)
        code = _unrouted_code(ctx.params, served)
        if code is not None:
            await runner.unrouted(ctx, *_named(ctx.params), code)
        return await call_next(ctx)

    return middleware


def build_server(executor: Executor, *, audit: AuditLog | None = None,
                 tools: Iterable[str] | None = None, read_only: bool = False,
                 confirm_timeout: float = CONFIRM_TIMEOUT_SECONDS) -> MCPServer:
    """The MCP server with one tool per operation, run by ``executor``.

    Args:
        executor: What runs the operations (the emulator's pipeline, or a client).
        audit: Where every tool call is recorded.
        tools: Serve only these tools (names such as ``calls_list``).
        read_only: Serve only the tier-1 read tools.
        confirm_timeout: Seconds an older client's user has to confirm a call.

    Examples:
        >>> import asyncio
        >>> from dialkit.mcp import ClientExecutor
        >>> client = dialkit.Client.sandbox()
        >>> server = build_server(ClientExecutor(client), read_only=True)
        >>> tools = asyncio.run(server.list_tools())
        >>> len(tools) > 0, all(tool.annotations.read_only_hint for tool in tools)
        (True, True)
        >>> server.run("stdio")  # serves until stdin closes  # doctest: +SKIP
        >>> client.close()
    """
    runner = _Runner(executor, audit, confirm_timeout)
    chosen = select_tools(tools, read_only=read_only)
    served = frozenset(spec.name for spec in chosen)
    return MCPServer(SERVER_NAME, instructions=INSTRUCTIONS, log_level="WARNING",
                     tools=[_tool(spec, runner) for spec in chosen],
                     middleware=[_call_audit(runner, served), _scope_filter(executor)])
