"""Running the emulator: in-process on a background thread, or in the foreground for the CLI.

The socket is bound before the server starts, so the port is known at once
(``port=0`` picks a free one). In-process, uvicorn runs its own event loop on a
daemon thread (a notebook kernel already runs one on its main thread);
:func:`start` waits for readiness with a deadline and raises
:class:`SandboxStartError` when the server thread dies during start-up, instead
of waiting forever.
"""

from __future__ import annotations

import logging
import socket
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from types import TracebackType

import httpx
import uvicorn

from .._utils._base_error import (
    InputError,
    SandboxStartError,  # noqa: F401
)
from .._utils._moments import iso_datetime
from .._utils._net import (
    checked_port,
    listening_socket,
    serve_on_a_thread,
    served_url,
    server_config,
)
from .._utils._secrets import MaskedStr
from ..errors import ApiConnectionError, ApiTimeoutError, ServiceUnavailableError
from ._config import SandboxConfig, default_config, generate_key, load_config
from ._http._app import create_app
from ._http._checks._admin_access import (
    ADMIN_KEY_HEADER,
    AdminAccess,
    AdminKey,
    admin_key_or_new,
    is_loopback,
    served_names,
)
from ._http._protocol import protocol_for
from ._state._compliance import verified_caller_ids
from ._state._service import Service
from ._state._store import Store

DEFAULT_KEYS_META = "default_keys"
"""Where a kept world stores its default account's keys (the file is the user's own)."""

STARTUP_DEADLINE_SECONDS = 30.0


class ApiKey(MaskedStr):
    """A key that shows only its last four characters in reprs and notebook outputs."""


class _DroppedConnectionFilter(logging.Filter):
    """Keeps injected connection drops out of uvicorn's error log."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "without completing response" not in record.getMessage()


def keys_of(config: SandboxConfig) -> dict[str, ApiKey]:
    """Every active key by label.

    Each key is ``<account>/<client>/<kind>``, its kind ``test``, ``live`` or
    ``sending``, with ``#2``, ``#3``... for further keys of the same kind. When
    the config has a single client, each is also labelled by ``<kind>`` alone
    (``test``, ``sending``), the short labels of the default configuration.
    """
    single = len(config.accounts) == 1 and len(config.accounts[0].clients) == 1
    labels: dict[str, ApiKey] = {}
    for account in config.accounts:
        for client in account.clients:
            for key in (k for k in client.keys if not k.revoked):
                kind = "sending" if key.sending else ("test" if key.is_test else "live")
                for base in [f"{account.name}/{client.name}/{kind}", *([kind] * single)]:
                    labels[_free(labels, base)] = ApiKey(key.key)
    return labels


def _free(labels: Mapping[str, object], base: str) -> str:
    """``base``, or ``base#2``, ``base#3``... : the first label not yet taken."""
    label, n = base, 2
    while label in labels:
        label, n = f"{base}#{n}", n + 1
    return label


def key_for(labels: Mapping[str, ApiKey], label: str) -> ApiKey:
    """The key of ``label``; a ValueError listing the labels there are otherwise."""
    if label not in labels:
        raise InputError(f"this emulator has no key labelled {label!r}; its labels are "
                         f"{', '.join(sorted(labels))} (see docs/emulator.md, 'Running it')")
    return labels[label]


def check_bind(host: str, admin_key: str | None, allow_remote: bool) -> None:
    """Refuse to serve beyond this machine unless asked to in so many words, and warn.

    On another address the API keys and the admin surface reach the network, so a
    bind that is not loopback needs an admin key of the caller's choosing or
    ``allow_remote``.

    Raises:
        SandboxStartError: ``host`` is not loopback and neither was given.
    """
    if is_loopback(host):
        return
    if admin_key is None and not allow_remote:
        raise SandboxStartError(
            f"{host!r} is not a loopback address: the emulator, its keys and its admin "
            "surface (/_sandbox) would serve the network. To mean it, pass admin_key= with "
            "a key of your own or allow_remote=True; else listen on 127.0.0.1")
    logging.getLogger("dialkit.sandbox").warning(
        "serving on %s: any machine that reaches this one can use the printed API keys; "
        "/_sandbox answers to the names %s", host, ", ".join(served_names(host)))


@dataclass(frozen=True)
class Advanced:
    """What moving an emulator's manual clock did (:meth:`Sandbox.advance`).

    Attributes:
        now: The service's time after it (UTC).
        simulated: What the dialer did over the interval, counted (``calls_placed``,
            ``calls_answered``, ``events_recorded``, ``callbacks_due``, ...).
        delivered: The webhook deliveries attempted before it answered (``deliver=True``;
            0 otherwise, the deliveries then made by the emulator's own loop).
    """

    now: datetime
    simulated: Mapping[str, int]
    delivered: int = 0


ADMIN_TIMEOUT_SECONDS = 30.0
"""How long a request to an emulator's admin surface may take (a long advance dials)."""


@contextmanager
def admin_surface(base_url: str, asked: str) -> Iterator[httpx.Client]:
    """A client of the admin surface of the emulator at ``base_url``, its failures to
    answer (``asked``: what was asked, in words) raised as the service's would be, naming
    the emulator and what to check: an emulator another process started may have stopped."""
    try:
        with httpx.Client(base_url=base_url, timeout=ADMIN_TIMEOUT_SECONDS) as http:
            yield http
    except httpx.TimeoutException:
        raise ApiTimeoutError(f"the emulator at {base_url} did not answer {asked} within "
                              f"{ADMIN_TIMEOUT_SECONDS:g} s") from None
    except httpx.TransportError as error:
        raise ApiConnectionError(f"the emulator at {base_url} did not answer {asked} "
                                 f"({type(error).__name__}: {error}): is it still running "
                                 "(dialkit sandbox)?") from None
    except httpx.HTTPStatusError as error:
        raise ServiceUnavailableError(f"the emulator at {base_url} failed {asked}: "
                                      f"{_detail(error.response)}",
                                      status=error.response.status_code) from None


def advance_clock(base_url: str, headers: Mapping[str, str], seconds: float,
                  deliver: bool = False) -> Advanced:
    """``POST /_sandbox/clock`` of the emulator at ``base_url``: its manual clock moved
    ``seconds`` forward, its dialer run over them (:meth:`Sandbox.advance`)."""
    with admin_surface(base_url, "a move of its clock") as http:
        answer = http.post("/_sandbox/clock", json={"advance_seconds": seconds,
                                                    "deliver": deliver},
                           headers=dict(headers))
        if answer.is_client_error:  # a real clock, a negative interval, a wrong admin key
            raise InputError(f"the emulator's clock was not moved {seconds!r} s: "
                             f"{_detail(answer)}")
        body = answer.raise_for_status().json()
    delivered = int(body.get("delivered", 0))  # an emulator before it waits for none
    return Advanced(iso_datetime(body["now"]), dict(body["simulated"]), delivered)


def _detail(answer: httpx.Response) -> str:
    """What a refusal of the admin surface says (its problem's ``detail``), else its text."""
    try:
        return str(answer.json()["detail"])
    except (ValueError, KeyError, TypeError):
        return answer.text[:200]


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket (so the port is known before the server runs)."""
    try:
        return listening_socket(host, port)
    except OSError as exc:
        raise SandboxStartError(f"cannot listen on {host}:{port}: {exc.strerror}") from None


def resolve_config(config: SandboxConfig | str | Path | None,
                   db: str | Path | None = None,
                   start_time: datetime | str | None = None) -> SandboxConfig:
    """A config object from ``None`` (the default account), a path, or an object.

    The default account of a world kept in ``db`` keeps its keys: they are
    made once and stored in the file, so a re-opened world answers to the keys
    (and the caches) of its earlier sessions. ``start_time`` pins the default
    world's "now", so that it is the same world on every run.

    Raises:
        ValueError: ``start_time`` with a ``config``, whose ``[server]`` holds it.
    """
    if config is None:
        keys = None if db is None else stored_keys(str(db))
        moment = None if start_time is None else _utc(start_time)
        return default_config(start_time=moment, keys=keys)
    if start_time is not None:
        raise InputError("start_time is for the default world: with a config, set "
                         "[server] start_time in it")
    if isinstance(config, SandboxConfig):
        return config
    return load_config(config)


def stored_keys(db: str) -> tuple[str, str]:
    """The default account's (test, sending) keys kept in the store at ``db``, made once
    (the store's file is owner-only)."""
    store = Store(db)
    try:
        kept = store.meta(DEFAULT_KEYS_META)
        if kept is None:
            kept = f"{generate_key()} {generate_key()}"
            store.set_meta(DEFAULT_KEYS_META, kept)
        test, sending = kept.split()
        return test, sending
    finally:
        store.close()


def make_server(service: Service, admin: AdminAccess, *,
                log_level: str = "warning") -> uvicorn.Server:
    """A uvicorn server for ``service`` (not started), its admin surface held by ``admin``.

    Held to the limits of every server dialkit starts (:func:`dialkit._utils._net.server_config`),
    so it trusts no ``X-Forwarded-For``: uvicorn would take one from a loopback caller,
    and any local program could name an allowed address and pass an IP allow-list or the
    per-address rate limit. The source address is the connection's own.
    """
    logging.getLogger("uvicorn.error").addFilter(_DroppedConnectionFilter())
    return uvicorn.Server(server_config(create_app(service, admin), log_level=log_level,
                                        lifespan="on", timeout_graceful_shutdown=2,
                                        date_header=False,  # the service clock's: _stamped
                                        http=protocol_for(service.docs_base)))


@dataclass(frozen=True)
class Prepared:
    """An emulator ready to serve: its socket listening, its world open."""

    config: SandboxConfig
    admin: AdminAccess
    sock: socket.socket
    service: Service


def prepare(config: SandboxConfig | str | Path | None, *, host: str, port: int,
            db: str | Path | None, admin_key: str | None, allow_remote: bool,
            start_time: datetime | str | None = None) -> Prepared:
    """What :func:`start` and :func:`dialkit.sandbox.serve` do before serving: the address
    checked and bound, the admin key made, the world opened (the socket closed if it
    cannot be). The port is checked first: a ``db`` is made by nothing refused."""
    checked_port(port)
    check_bind(host, admin_key, allow_remote)
    admin = AdminAccess(admin_key_or_new(admin_key), served_names(host))
    resolved = resolve_config(config, db, start_time)
    sock = bind(host, port)
    try:
        service = Service(resolved, None if db is None else str(db))
    except BaseException:
        sock.close()
        raise
    return Prepared(resolved, admin, sock, service)


@dataclass
class Sandbox:
    """A running emulator: its address, its keys, its admin key, and how to stop it."""

    base_url: str
    keys: Mapping[str, ApiKey]
    admin_key: AdminKey
    """What ``/_sandbox`` writes (and the tool audit log) need: see :attr:`admin_headers`."""
    service: Service
    _server: uvicorn.Server
    _thread: threading.Thread

    @property
    def world_id(self) -> str:
        """The identity of this emulator's world: the same for every session of a world
        kept in a file, new for each world in memory."""
        return self.service.world_id

    @property
    def persistent(self) -> bool:
        """Whether the world is kept in a file (``db=``) and outlives this session."""
        return self.service.store.path != ":memory:"

    def key(self, label: str = "test") -> ApiKey:
        """The API key labelled ``label`` (``test``, ``sending``, ``acme/crm/live``...: see
        ``keys``); a ValueError listing the labels there are otherwise."""
        return key_for(self.keys, label)

    @property
    def admin_headers(self) -> dict[str, str]:
        """The header that carries :attr:`admin_key`, for requests to ``/_sandbox``.

        Examples:
            >>> import httpx
            >>> import dialkit.sandbox
            >>> with dialkit.sandbox.start() as sandbox:
            ...     httpx.post(sandbox.base_url + "/_sandbox/reset",
            ...                headers=sandbox.admin_headers)
            <Response [200 OK]>
        """
        return {ADMIN_KEY_HEADER: str(self.admin_key)}

    def now(self) -> datetime:
        """The emulator's service time (UTC): what its deliveries are signed with, so a
        receiver of them takes it as its clock (``Receiver(..., now=sandbox.now)``); on a
        manual clock it moves only by :meth:`advance`."""
        return self.service.clock.now()

    def advance(self, seconds: float, *, deliver: bool = False) -> Advanced:
        """Move a manual clock ``seconds`` forward (``clock = "manual"``, as the demo's
        and a pinned world's): the running campaigns dial through the time passed (the
        dialer simulation), callbacks come due, and each event is recorded and delivered
        to the account's webhooks as it would have been. The deliveries go out as the
        emulator's loop sends them, within moments; ``deliver=True`` answers only once
        each one then due was attempted, so that a receiver has what it will get (a
        notebook or a test reads it next).

        Raises:
            InputError: The clock is real (it moves by itself), or ``seconds`` is negative.

        Examples:
            >>> import dialkit.sandbox
            >>> pinned = dialkit.sandbox.default_config(start_time="2026-11-02T15:00:00Z",
            ...                                         clock="manual")
            >>> with dialkit.sandbox.start(pinned) as sandbox:
            ...     sandbox.advance(600).now.isoformat()
            '2026-11-02T15:10:00+00:00'
        """
        return advance_clock(self.base_url, self.admin_headers, seconds, deliver)

    def caller_ids(self, account: str | None = None) -> list[str]:
        """The verified caller ids of ``account`` (default: the first configured), for
        ``dialkit.compliance.audit(verified_caller_ids=...)``: the contract has no
        operation that lists them."""
        name = account or self.service.config.accounts[0].name
        if name not in self.service.accounts:
            raise InputError(f"no account named {name!r}: pass one of "
                             f"{', '.join(self.service.accounts)}")
        return verified_caller_ids(self.service.store, name)

    def __repr__(self) -> str:
        return f"Sandbox(base_url={self.base_url!r}, keys={sorted(self.keys)})"

    def stop(self) -> None:
        """Stop the server and wait for its thread (idempotent)."""
        self._server.should_exit = True
        self._thread.join(timeout=10)
        self.service.store.close()

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()


def start(config: SandboxConfig | str | Path | None = None, *, host: str = "127.0.0.1",
          port: int = 0, db: str | Path | None = None,
          start_time: datetime | str | None = None, admin_key: str | None = None,
          allow_remote: bool = False) -> Sandbox:
    """Start an emulator in this process and return it once it answers.

    Args:
        config: ``None`` for one account with every scope and switch, a path to a
            TOML file, or a :class:`SandboxConfig`.
        host: The address to listen on: loopback, unless ``admin_key`` or
            ``allow_remote`` is given.
        port: The port; 0 picks a free one.
        db: A SQLite file to keep the data in (in memory when ``None``).
        start_time: The default world's "now" (an aware datetime or ISO 8601
            text), for the same world on every run; default the current hour.
        admin_key: The key ``/_sandbox`` writes need (16 characters or more); default
            a new random one (``Sandbox.admin_key``).
        allow_remote: Listen on a non-loopback ``host`` with a random admin key.

    Raises:
        SandboxStartError: The port cannot be bound, or ``host`` is not loopback and
            neither ``admin_key`` nor ``allow_remote`` was given.
        ValueError: ``admin_key`` is too short.

    Examples:
        >>> import httpx
        >>> import dialkit.sandbox
        >>> with dialkit.sandbox.start() as sandbox:
        ...     httpx.get(sandbox.base_url + "/v1/me",
        ...               headers={"Authorization": f"Bearer {sandbox.keys['test']}"})
        <Response [200 OK]>
    """
    ready = prepare(config, host=host, port=port, db=db, start_time=start_time,
                    admin_key=admin_key, allow_remote=allow_remote)
    sock, service = ready.sock, ready.service
    server = make_server(service, ready.admin)
    thread = serve_on_a_thread(
        server, sock, name="dialkit-sandbox", within=STARTUP_DEADLINE_SECONDS,
        error=lambda why: SandboxStartError(f"the emulator did not start: {why}"))
    return Sandbox(served_url(sock), keys_of(ready.config), ready.admin.key, service, server,
                   thread)


def _utc(moment: datetime | str) -> datetime:
    """An aware datetime from a datetime or ISO 8601 text, or ``ValueError`` saying so."""
    try:
        parsed = iso_datetime(moment) if isinstance(moment, str) else moment
    except ValueError:
        raise InputError(f"start_time {moment!r} is not ISO 8601: pass e.g. "
                         "'2026-11-02T15:00:00Z'") from None
    if parsed.tzinfo is None:
        raise InputError(f"start_time {moment!r} has no time zone: add Z or an offset")
    return parsed
