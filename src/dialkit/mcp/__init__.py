"""Every operation of the v1 contract as an MCP tool, for assistants.

One tool per entry of :data:`dialkit.contract.OPERATIONS` (``leads_import``,
``calls_create``, ``dnc_check``, ...), with input schemas from the contract's
request models, structured output from its response models, and annotations
from the operation (read-only, destructive, idempotent, open-world). A tool
that can reach a person runs only after the user confirms that call.

This package depends only on :mod:`dialkit.contract` and the MCP SDK: what
runs a tool call is an :class:`Executor` given to :func:`build_server`. The
emulator serves the tools at ``/mcp`` through its own request pipeline;
``dialkit mcp serve`` runs them through :class:`dialkit.Client`. ``allowed`` and
``derived_key`` were internal and warn for a release.

Examples:
    >>> from dialkit.mcp import TOOLS
    >>> [t.name for t in TOOLS][:3]
    ['me', 'leads_list', 'leads_get']
"""

from .._utils import _extras, _lazy

with _extras.needs("mcp"):
    from .._utils._base_error import AccessRefusedError
    from ._call_log import (
        AuditLog,
        AuditRecord,
        Confirmation,
        JsonLinesAuditLog,
        MemoryAuditLog,
        Outcome,
    )
    from ._client_executor import ClientExecutor, identity_from_me
    from ._confirm import CONFIRM_TIMEOUT_SECONDS, confirmation_text
    from ._executor import Executor, GuardCheck, GuardedExecutor, Identity, ToolAnswer, ToolCall
    from ._http import StreamableHttp
    from ._serve import bearer_gate, serve
    from ._server import SERVER_NAME, build_server, select_tools
    from ._tools import TOOLS, TOOLS_BY_NAME, ToolSpec, reaches_people, tool_name

__all__ = [
    "AccessRefusedError",
    "AuditLog",
    "AuditRecord",
    "CONFIRM_TIMEOUT_SECONDS",
    "ClientExecutor",
    "Confirmation",
    "Executor",
    "GuardCheck",
    "GuardedExecutor",
    "Identity",
    "JsonLinesAuditLog",
    "MemoryAuditLog",
    "Outcome",
    "SERVER_NAME",
    "StreamableHttp",
    "TOOLS",
    "TOOLS_BY_NAME",
    "ToolAnswer",
    "ToolCall",
    "ToolSpec",
    "bearer_gate",
    "build_server",
    "confirmation_text",
    "identity_from_me",
    "reaches_people",
    "select_tools",
    "serve",
    "tool_name",
]

__getattr__, __dir__ = _lazy.exports(__name__, {}, retired={
    "allowed": "._server", "derived_key": "._tools"})
