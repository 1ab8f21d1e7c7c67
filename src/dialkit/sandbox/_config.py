"""The emulator's configuration: the TOML file of ``dialkit sandbox serve --config``.

Every field is optional except the names of accounts and clients and the keys
themselves. A bad file is refused as a whole with :class:`ConfigError`, whose
message names the file, the field and the reason, so that nothing starts
half-configured. With no file, :func:`default_config` gives one account whose
one client holds every scope, with every switch on and webhooks enabled.
"""

from __future__ import annotations

import ipaddress
import secrets
import string
import tomllib
from datetime import datetime
from pathlib import Path
from typing import Annotated, Literal

from pydantic import (
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    PlainSerializer,
    PlainValidator,
    StringConstraints,
)
from pydantic import ValidationError as PydanticValidationError

from dialkit.contract import Scope, Switch

from .._files._text import read_text
from .._utils._base_error import (
    ConfigError,  # noqa: F401
    InputError,
)

KEY_PATTERN = r"^svc_(live|test)_[a-z0-9]{8,32}_[A-Za-z0-9]{24,64}$"
"""The shape of an API key: prefix, credential id, underscore, secret."""

Scale = Literal["small", "medium", "large"]
"""The sizes of an account's synthetic world (``docs/emulator.md`` gives their counts)."""


def _network(value: object) -> ipaddress.IPv4Network | ipaddress.IPv6Network:
    try:
        return ipaddress.ip_network(str(value))
    except ValueError:
        raise InputError(f"{value!r} is not a valid IPv4 or IPv6 network "
                         "(write it as a CIDR, e.g. 10.0.0.0/8)") from None


Network = Annotated[ipaddress.IPv4Network | ipaddress.IPv6Network, PlainValidator(_network),
                    PlainSerializer(str)]
CountryCode = Annotated[str, StringConstraints(pattern=r"^[A-Z]{2}$")]


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ServerConfig(_Section):
    """The ``[server]`` table."""

    rate_limit_scale: float = Field(1.0, ge=0)
    allow_loopback_webhooks: bool = False
    clock: Literal["real", "manual"] = "real"
    start_time: AwareDatetime | None = None
    docs_base: str = "https://docs.example.invalid"


class KeyConfig(_Section):
    """One ``[[accounts.clients.keys]]`` entry."""

    key: Annotated[str, StringConstraints(pattern=KEY_PATTERN)]
    sending: bool = False
    revoked: bool = False
    ip_allow_list: list[Network] = []
    daily_cap: int | None = Field(None, ge=0)
    per_minute_cap: int | None = Field(None, ge=0)

    @property
    def is_test(self) -> bool:
        """Whether this is a sandbox (``svc_test_``) key."""
        return self.key.startswith("svc_test_")

    @property
    def credential_id(self) -> str:
        """The public part of the key, safe to log and to key caches by."""
        return self.key.split("_")[2]


class ClientConfig(_Section):
    """One ``[[accounts.clients]]`` entry: an API client of the account."""

    name: Annotated[str, StringConstraints(min_length=1, max_length=64)]
    scopes: list[Scope] = []
    enabled: bool = True
    ip_allow_list: list[Network] = []
    keys: list[KeyConfig] = []


class AccountConfig(_Section):
    """One ``[[accounts]]`` entry: an account with its seeded world and clients."""

    name: Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9_-]{0,63}$")]
    seed: int = 7
    scale: Scale = "small"
    sandbox_enabled: bool = True
    webhooks_enabled: bool = True
    api_access_enabled: bool = True
    outbound_approved: bool = True
    sending_suspended: bool = False
    switches: list[Switch] = []
    ip_allow_list: list[Network] = []
    blocked_countries: list[CountryCode] = ["KP", "IR"]
    stale_dnc_registries: list[CountryCode] = []
    block_stale_registry_launches: bool = True
    balance: float = 1000.0
    daily_cap: int | None = Field(None, ge=0)
    spend_limit: float | None = Field(None, ge=0)
    lead_sources: list[str] = ["web_form", "referral", "partner_api", "trade_show"]
    recent_activity: bool = True
    clients: list[ClientConfig] = []


class SandboxConfig(_Section):
    """The whole file."""

    server: ServerConfig = ServerConfig()
    accounts: Annotated[list[AccountConfig], Field(min_length=1)]


def _location(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def parse_config(data: dict[str, object], source: str = "config") -> SandboxConfig:
    """Validate already-parsed TOML data; raise :class:`ConfigError` naming each bad field."""
    try:
        config = SandboxConfig.model_validate(data)
    except PydanticValidationError as exc:
        lines = [f"  {_location(e['loc'])}: {e['msg']}" for e in exc.errors()]
        message = f"{source} is not a valid sandbox configuration:\n" + "\n".join(lines)
        raise ConfigError(message) from None
    _check_unique(config, source)
    return config


def _check_unique(config: SandboxConfig, source: str) -> None:
    seen_keys: set[str] = set()
    accounts = [a.name for a in config.accounts]
    for i, name in enumerate(accounts):
        if name in accounts[:i]:
            raise ConfigError(f"{source}: accounts[{i}].name: duplicate account name {name!r}")
    for i, account in enumerate(config.accounts):
        names = [c.name for c in account.clients]
        for j, client in enumerate(account.clients):
            where = f"accounts[{i}].clients[{j}]"
            if client.name in names[:j]:
                raise ConfigError(f"{source}: {where}.name: duplicate client name {client.name!r}")
            for k, key in enumerate(client.keys):
                if key.credential_id in seen_keys:
                    raise ConfigError(
                        f"{source}: {where}.keys[{k}].key: credential id used by another key"
                    )
                seen_keys.add(key.credential_id)


def load_config(path: str | Path) -> SandboxConfig:
    """Read and validate a TOML configuration file, as an editor saved it (Notepad's byte
    order mark too: :func:`read_text`)."""
    path = Path(path)
    try:
        data = tomllib.loads(read_text(path, ConfigError))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path} is not valid TOML: {exc}") from None
    return parse_config(data, str(path))


def generate_key(*, test: bool = True) -> str:
    """A fresh random key of the contract's shape."""
    alphabet = string.ascii_letters + string.digits
    credential = "".join(secrets.choice(string.ascii_lowercase + string.digits) for _ in range(12))
    secret = "".join(secrets.choice(alphabet) for _ in range(32))
    return f"svc_{'test' if test else 'live'}_{credential}_{secret}"


def default_config(start_time: datetime | None = None,
                   keys: tuple[str, str] | None = None, *,
                   clock: Literal["real", "manual"] = "real",
                   allow_loopback_webhooks: bool = False,
                   rate_limit_scale: float = 1.0) -> SandboxConfig:
    """One account, one client with every scope, every switch on, a test and a sending key.

    ``keys`` (test, sending) are the keys of a world kept in a file; new random
    ones otherwise. The rest are the ``[server]`` table's: a ``"manual"`` clock moves
    only by ``Sandbox.advance`` (a pinned world, the demo's), and
    ``allow_loopback_webhooks`` lets the emulator deliver to a receiver on this machine
    (``Receiver.serve()``, which listens on loopback).
    """
    test, sending = keys or (generate_key(), generate_key())
    client = ClientConfig(
        name="default",
        scopes=list(Scope),
        keys=[KeyConfig(key=test), KeyConfig(key=sending, sending=True)],
    )
    account = AccountConfig(name="demo", switches=list(Switch), clients=[client])
    server = ServerConfig(start_time=start_time, clock=clock, rate_limit_scale=rate_limit_scale,
                          allow_loopback_webhooks=allow_loopback_webhooks)
    return SandboxConfig(server=server, accounts=[account])
