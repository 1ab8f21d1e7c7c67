"""The emulator of the dialing service: ``dialkit sandbox serve`` or :func:`start` in-process.

It serves every operation of the v1 contract under ``/v1`` from a deterministic
synthetic world in SQLite, with the contract's authentication, idempotency,
pagination, rate limits and state machines, plus an admin surface under
``/_sandbox/`` (reset, manual clock, fault injection, the planted problems).
"""

from .._utils import _extras

with _extras.needs("sandbox"):
    from .._utils._base_error import ConfigError, SandboxStartError
    from ._config import (
        AccountConfig,
        ClientConfig,
        KeyConfig,
        SandboxConfig,
        Scale,
        ServerConfig,
        default_config,
        load_config,
        parse_config,
    )
    from ._remote import RemoteSandbox, attach_environment
    from ._serve import serve
    from ._server import Advanced, ApiKey, Sandbox, start

__all__ = [
    "AccountConfig",
    "Advanced",
    "ApiKey",
    "ClientConfig",
    "ConfigError",
    "KeyConfig",
    "RemoteSandbox",
    "Sandbox",
    "SandboxConfig",
    "SandboxStartError",
    "Scale",
    "ServerConfig",
    "attach_environment",
    "default_config",
    "load_config",
    "parse_config",
    "serve",
    "start",
]
