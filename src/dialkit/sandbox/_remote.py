"""An emulator running in another process, attached to over HTTP.

``dialkit demo`` starts one emulator and runs each notebook in a kernel of its
own: :func:`attach_environment` gives the variables that tell such a process
where the emulator is, and :meth:`RemoteSandbox.from_environment` (what
``dialkit.Client.sandbox()`` calls) reads them back. The attached process can
use the emulator, never stop it: it belongs to the process that started it.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

import httpx

from .._utils._base_error import InputError
from .._utils._moments import iso_datetime
from ._http._checks._admin_access import ADMIN_KEY_HEADER, AdminKey
from ._server import (
    Advanced,
    ApiKey,
    Sandbox,
    admin_surface,
    advance_clock,
    key_for,
)

SANDBOX_URL_VARIABLE = "DIALKIT_SANDBOX_URL"
"""The running emulator's base URL; when set, ``Client.sandbox()`` attaches to it."""
SANDBOX_KEY_VARIABLE = "DIALKIT_SANDBOX_KEY"
"""The key the attached client uses."""
SANDBOX_RATE_LIMIT_VARIABLE = "DIALKIT_SANDBOX_RATE_LIMIT_SCALE"
"""The emulator's ``[server] rate_limit_scale`` (1 when unset), so the attached client
limits itself as the emulator does (0: not at all)."""
SANDBOX_ADMIN_KEY_VARIABLE = "DIALKIT_SANDBOX_ADMIN_KEY"
"""The emulator's admin key, for the ``/_sandbox`` writes of the attached process
(optional: reads need none); ``dialkit sandbox serve`` takes it too (``--admin-key``)."""


@dataclass(frozen=True)
class RemoteSandbox:
    """An emulator another process started, seen from a process attached to it.

    It offers what a notebook asks of ``client.emulator``: the address, the key,
    the account's verified caller ids (from the admin surface), and the admin key
    when the environment gives it.
    """

    base_url: str
    keys: Mapping[str, ApiKey]
    rate_limit_scale: float = 1.0
    admin_key: AdminKey | None = None

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> RemoteSandbox | None:
        """The emulator the environment names (``DIALKIT_SANDBOX_URL``), or ``None``.

        Raises:
            ValueError: the URL is set without a key, or the scale is not a number.
        """
        environ = os.environ if environ is None else environ
        url = environ.get(SANDBOX_URL_VARIABLE)
        if not url:
            return None
        key = environ.get(SANDBOX_KEY_VARIABLE)
        if not key:
            raise InputError(f"{SANDBOX_URL_VARIABLE} is set but {SANDBOX_KEY_VARIABLE} is "
                             "not: set both (or neither, to start an emulator in-process)")
        scale = environ.get(SANDBOX_RATE_LIMIT_VARIABLE, "1")
        try:
            rate_limit_scale = float(scale)
        except ValueError:
            rate_limit_scale = math.nan
        if not 0 <= rate_limit_scale < math.inf:  # nan, inf and below 0 are no scale
            raise InputError(f"{SANDBOX_RATE_LIMIT_VARIABLE} is {scale!r}: pass a number "
                             "such as 1 (the documented limits) or 0 (no limit)")
        admin_key = environ.get(SANDBOX_ADMIN_KEY_VARIABLE)
        return cls(url.rstrip("/"), {"test": ApiKey(key)}, rate_limit_scale,
                   AdminKey(admin_key) if admin_key else None)

    @property
    def persistent(self) -> bool:
        """Always true: the world outlives this process (its owner stops it)."""
        return True

    def key(self, label: str = "test") -> ApiKey:
        """The key the environment gave, labelled ``test`` (as :meth:`Sandbox.key`)."""
        return key_for(self.keys, label)

    @property
    def admin_headers(self) -> dict[str, str]:
        """The header that carries the admin key, for ``/_sandbox`` writes (as
        :attr:`Sandbox.admin_headers`); a ValueError when the environment gave none."""
        if self.admin_key is None:
            raise InputError(f"{SANDBOX_ADMIN_KEY_VARIABLE} is not set: set it to the admin "
                             "key the emulator printed at start ('admin key: ...')")
        return {ADMIN_KEY_HEADER: str(self.admin_key)}

    def now(self) -> datetime:
        """The emulator's service time (UTC), read from its ``GET /_sandbox/clock``, as
        :meth:`Sandbox.now` gives it: a receiver's clock for the emulator's deliveries
        (each call is a request)."""
        with admin_surface(self.base_url, "its clock") as http:
            answer = http.get("/_sandbox/clock").raise_for_status()
        return iso_datetime(answer.json()["now"])

    def advance(self, seconds: float, *, deliver: bool = False) -> Advanced:
        """Move the emulator's manual clock ``seconds`` forward, as :meth:`Sandbox.advance`
        does (needs the admin key: :attr:`admin_headers`)."""
        return advance_clock(self.base_url, self.admin_headers, seconds, deliver)

    def caller_ids(self, account: str | None = None) -> list[str]:
        """The verified caller ids of ``account`` (default: the key's own account), for
        ``dialkit.compliance.audit(verified_caller_ids=...)``."""
        with admin_surface(self.base_url, "the caller ids asked") as http:
            if account is None:
                me = http.get("/v1/me", headers={"Authorization": f"Bearer {self.keys['test']}"})
                account = str(me.raise_for_status().json()["account"]["name"])
            answer = http.get("/_sandbox/caller-ids", params={"account": account})
            if answer.status_code == httpx.codes.NOT_FOUND:
                raise InputError(f"the emulator has no account named {account!r}")
            return [str(phone) for phone in answer.raise_for_status().json()["caller_ids"]]

    def stop(self) -> None:
        """Detach; the emulator keeps running for the process that started it."""

    def __repr__(self) -> str:
        return f"RemoteSandbox(base_url={self.base_url!r}, keys={sorted(self.keys)})"


def attach_environment(sandbox: Sandbox, key: str = "test") -> dict[str, str]:
    """The variables that make ``dialkit.Client.sandbox()`` in another process attach to
    ``sandbox`` with its key labelled ``key``, limited as the emulator limits, holding
    its admin key.

    Examples:
        >>> import os, subprocess, sys
        >>> import dialkit.sandbox
        >>> code = "import dialkit; print(dialkit.Client.sandbox().emulator.persistent)"
        >>> with dialkit.sandbox.start() as sandbox:
        ...     run = subprocess.run([sys.executable, "-c", code], capture_output=True,
        ...                          text=True, env=os.environ | attach_environment(sandbox))
        >>> run.stdout  # the other process attached to it, and did not start its own
        'True\\n'
    """
    scale = sandbox.service.config.server.rate_limit_scale
    return {SANDBOX_URL_VARIABLE: sandbox.base_url,
            SANDBOX_KEY_VARIABLE: str(sandbox.key(key)),
            SANDBOX_RATE_LIMIT_VARIABLE: repr(scale),
            SANDBOX_ADMIN_KEY_VARIABLE: str(sandbox.admin_key)}
