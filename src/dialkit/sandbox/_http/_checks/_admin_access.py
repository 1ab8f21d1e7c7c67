"""Who may use the admin surface ``/_sandbox/``: the names it answers to, and its key.

A loopback server is not out of a browser's reach: a web page can rebind its own
name to 127.0.0.1 (DNS rebinding) and then talk to the emulator as its own
origin, or post to it cross-site. Through ``/_sandbox`` such a page could set a
key of its choosing, wipe a kept world or read the tool audit log. So, as ``/mcp``:

- a request whose ``Host`` is not a name the emulator serves is refused (421), and
  one whose ``Origin`` is another site's (403): the MCP SDK's rule over the same names
  ``/mcp`` gets (:attr:`AdminAccess.allowed_hosts`, :attr:`AdminAccess.allowed_origins`),
  so the two agree (a test holds them equal). The rule is a few lines, written here: the
  SDK's module costs 2 CPU-seconds of imports, which only ``/mcp`` needs;
- every write, and the read of the tool audit log, needs the admin key in the
  ``X-Sandbox-Admin-Key`` header (401): made at start and printed by
  ``dialkit sandbox serve`` (or chosen with ``--admin-key``), ``Sandbox.admin_key``
  in Python. A page cannot read it, and a cross-site request cannot send the header.
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
import socket
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from starlette.requests import Request
from starlette.types import Scope

from dialkit._utils._secrets import MaskedStr
from dialkit.contract import ErrorCode

from ...._utils._base_error import InputError
from ...._utils._net import WILDCARD_HOSTS, shown_host
from .._problems import ApiProblem

if TYPE_CHECKING:
    from mcp.server.transport_security import TransportSecuritySettings

ADMIN_PREFIX = "/_sandbox"
"""Where the admin surface answers."""
ADMIN_KEY_HEADER = "X-Sandbox-Admin-Key"
"""The header that carries the admin key."""
MIN_ADMIN_KEY_LENGTH = 16
"""The shortest admin key taken: one that guards a surface that can rewrite the keys."""
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
"""The names every emulator answers to."""

_READS = frozenset({"GET", "HEAD", "OPTIONS"})
_SENSITIVE_READS = frozenset({f"{ADMIN_PREFIX}/mcp/audit"})
"""Reads that need the key too: the tool audit log holds what assistants did."""


class AdminKey(MaskedStr):
    """The admin key: shows only its last four characters in reprs."""


def admin_key_or_new(key: str | None) -> AdminKey:
    """``key`` checked, or a new random one when ``None``.

    Raises:
        ValueError: ``key`` is shorter than :data:`MIN_ADMIN_KEY_LENGTH`.
    """
    if key is None:
        return AdminKey(secrets.token_urlsafe(32))
    if len(key) < MIN_ADMIN_KEY_LENGTH or key != key.strip():
        raise InputError(f"admin_key= must be at least {MIN_ADMIN_KEY_LENGTH} characters "
                         "without surrounding spaces: pass a longer one, or none to have one "
                         "made and printed")
    return AdminKey(key)


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a bind address or name) is this machine alone."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def served_names(host: str) -> tuple[str, ...]:
    """The ``Host`` names a server bound to ``host`` answers to at ``/mcp`` and ``/_sandbox``:
    the loopback names, the bound address, and on a wildcard bind the machine's own name."""
    names = [*LOOPBACK_NAMES, shown_host(host)]
    if host in WILDCARD_HOSTS:
        names += [socket.gethostname(), socket.getfqdn()]
    return tuple(dict.fromkeys(name for name in names if name))


@dataclass(frozen=True)
class AdminAccess:
    """The admin key and the names of one emulator."""

    key: AdminKey
    names: tuple[str, ...] = LOOPBACK_NAMES

    @property
    def allowed_hosts(self) -> list[str]:
        """The ``Host`` values answered: each name, bare or with any port."""
        return [*self.names, *(f"{name}:*" for name in self.names)]

    @property
    def allowed_origins(self) -> list[str]:
        """The ``Origin`` values answered: the emulator's own pages, on any port."""
        return [f"http://{name}:*" for name in self.names]

    @property
    def security(self) -> TransportSecuritySettings:
        """The MCP SDK's Host and Origin check for these names, for ``/mcp`` (which alone
        imports the SDK, at its first request)."""
        from mcp.server.transport_security import TransportSecuritySettings

        return TransportSecuritySettings(enable_dns_rebinding_protection=True,
                                         allowed_hosts=self.allowed_hosts,
                                         allowed_origins=self.allowed_origins)

    def foreign(self, host: str | None, origin: str | None) -> int | None:
        """421 for a ``Host`` not served, 403 for another site's ``Origin`` (none is a
        program's, taken), else ``None``: the SDK's ``TransportSecurityMiddleware`` rule."""
        if not _matches(host, self.allowed_hosts):
            return 421
        if origin and not _matches(origin, self.allowed_origins):
            return 403
        return None

    async def refusal(self, scope: Scope) -> ApiProblem | None:
        """Why an admin request is refused (a foreign Host or Origin, no admin key), or
        ``None`` when it may go on."""
        request = Request(scope)
        status = self.foreign(request.headers.get("host"), request.headers.get("origin"))
        if status is not None:
            return self._foreign(request, status)
        if scope["method"] in _READS and scope["path"] not in _SENSITIVE_READS:
            return None
        given = request.headers.get(ADMIN_KEY_HEADER, "")
        if hmac.compare_digest(given.encode(), self.key.encode()):
            return None
        return ApiProblem(
            ErrorCode.INVALID_API_KEY,
            f"{'This admin key is not valid' if given else 'This needs the admin key'}: send "
            f"it in the {ADMIN_KEY_HEADER} header. `dialkit sandbox serve` prints it at start "
            "('admin key: ...'), or takes yours with --admin-key; in Python it is "
            "Sandbox.admin_key (client.emulator.admin_key).", status=401)

    def _foreign(self, request: Request, status: int) -> ApiProblem:
        """421 for a Host the emulator does not serve, 403 for another site's Origin."""
        if status == 421:
            return ApiProblem(
                ErrorCode.VALIDATION_FAILED,
                f"The Host header {request.headers.get('host')!r} is not a name this emulator "
                f"answers to: address it as {', '.join(self.names)} (with its port), as "
                "printed at start.", status=421, errors=[("/header/Host", "not_allowed")])
        return ApiProblem(
            ErrorCode.VALIDATION_FAILED,
            f"Requests from web pages of another origin ({request.headers.get('origin')}) are "
            "refused: send them from a program (no Origin header) or from a page of "
            f"http://{self.names[0]}:PORT, the emulator's own.",
            status=403, errors=[("/header/Origin", "not_allowed")])


def _matches(value: str | None, allowed: Sequence[str]) -> bool:
    """Whether ``value`` is one of ``allowed``, or starts with ``base:`` for a ``base:*``."""
    if not value:
        return False
    return value in allowed or any(pattern.endswith(":*") and value.startswith(pattern[:-1])
                                   for pattern in allowed)
