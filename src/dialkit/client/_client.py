"""``dialkit.Client``: the front door to every operation of the v1 contract."""

from __future__ import annotations

import ipaddress
import math
import os
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self, Unpack, cast

import httpx

from .._guarding import Enforced, GuardSettings
from .._utils._base_error import InputError
from .._utils._secrets import sendable
from .._utils._wiring import frames_of
from ..contract import RATE_LIMIT_PER_KEY, RateLimit
from ._frames_offered import FrameCache, Frames
from ._guard import Guard
from ._http._results import ApiData
from ._http._retry import DEFAULT_DEADLINE_SECONDS
from ._http._transport import Call, Transport
from ._own_writes import OwnWrites
from ._profiles import Profile
from ._profiles import profile as named_profile
from ._resources._appointments import Appointments
from ._resources._base import Area, Options
from ._resources._callbacks import Callbacks
from ._resources._calls import Calls
from ._resources._campaigns import Campaigns
from ._resources._dnc import Consents, Dnc
from ._resources._leads import Leads
from ._resources._messaging import Sms, WhatsApp
from ._resources._reports import Reports
from ._resources._webhooks import WebhookEvents, Webhooks

if TYPE_CHECKING:
    from ..sandbox import RemoteSandbox, Sandbox, SandboxConfig

API_KEY_VARIABLE = "DIALKIT_API_KEY"
"""The environment variable a ``Client()`` reads its key from, where none is given."""
BASE_URL_VARIABLE = "DIALKIT_BASE_URL"
"""The environment variable a ``Client()`` reads the service's address from."""
TIMEOUT_VARIABLE = "DIALKIT_TIMEOUT"
"""The environment variable a ``Client()`` reads its ``deadline`` from, where none is
given: ``dialkit --timeout SECONDS`` sets it for every client of the command."""
_LOCAL_NAMES = frozenset({"localhost"})


class Client:
    """A client of the dialing service for one key; safe to share between threads.

    Every operation of the contract is a method of one resource attribute
    (``client.leads.import_batch``, ``client.webhooks.rotate_secret``, ...).
    Lists are lazy iterators over every page; writes carry an Idempotency-Key
    kept across retries; transient failures are retried; requests wait on the
    key's token bucket instead of drawing 429s; errors raise
    :mod:`dialkit.errors` exceptions.

    Args:
        api_key: The key; defaults to the environment variable ``DIALKIT_API_KEY``.
        base_url: The service's address (``https://...``, with or without
            ``/v1``); defaults to ``DIALKIT_BASE_URL``. Plain http is accepted
            only for a local address (an emulator).
        timeout: Seconds to wait for each answer.
        max_retries: Retries of a transient failure, at most.
        correlation_id: ``X-Correlation-ID`` sent with every call.
        rate_limit: The key's token bucket, by default the contract's 10/s with
            a burst of 20; ``None`` turns client-side limiting off.
        deadline: Seconds a call may take in total, retries and waits included
            (waits on the key's rate limit too, and the guard's for a number's turn);
            default ``$DIALKIT_TIMEOUT``, else 120.
        transport: An httpx transport (tests that need a broken network).
        cache_dir: Where ``client.frames`` keeps its Parquet cache, and the guard the
            locks that hold a number across processes while a contact to it is judged
            and sent; default ``$DIALKIT_CACHE_DIR``, else the platform's user cache
            folder.
        profile: A profile of the config file (:func:`dialkit.client.profiles`) whose
            key and base URL are used where ``api_key`` and ``base_url`` are not
            given; default ``$DIALKIT_PROFILE``. A named profile comes before the
            ``DIALKIT_API_KEY`` and ``DIALKIT_BASE_URL`` variables.
        guard: What the guard on the operations that reach a person enforces:
            ``"law"`` (default), ``"law_and_policy"`` or ``"off"``, or a
            :class:`~dialkit.client.GuardSettings` with the policy (``docs/client.md``).

    Examples:
        >>> client = dialkit.Client.sandbox()
        >>> call = next(client.calls.list(direction="outbound"))
        >>> print(call.id, call.direction)
        call_... outbound
        >>> client.close()
    """

    def __init__(
        self,
        api_key: str | None = None,
        *,
        base_url: str | None = None,
        timeout: float = 30.0,
        max_retries: int = 5,
        correlation_id: str | None = None,
        rate_limit: RateLimit | None = RATE_LIMIT_PER_KEY,
        deadline: float | None = None,
        transport: httpx.BaseTransport | None = None,
        cache_dir: str | Path | None = None,
        profile: str | None = None,
        guard: str | GuardSettings = "law",
    ) -> None:
        if max_retries < 0:
            raise InputError(f"max_retries must be 0 or more, not {max_retries}")
        if not 0 < timeout < math.inf:
            raise InputError(f"timeout is seconds per attempt: pass a number above 0, "
                             f"not {timeout}")
        deadline = _deadline() if deadline is None else deadline
        if not deadline > 0:  # infinity means no deadline; NaN fails every comparison
            raise InputError(f"deadline is seconds per call: pass a number above 0, "
                             f"not {deadline}")
        # a key and an address given (Client.sandbox() gives both) need no profile
        chosen = named_profile(profile) if api_key is None or base_url is None else None
        self._transport = Transport(
            api_key=_api_key(api_key, chosen), base_url=_base_url(base_url, chosen),
            timeout=timeout,
            max_retries=max_retries, deadline=deadline, correlation_id=correlation_id,
            rate_limit=rate_limit, transport=transport,
        )
        self._identity = Area(self._transport)
        self.own_writes = OwnWrites()
        """What this client's own writes changed, and when, from its first request: what
        :attr:`frames` reads to know its cached frames stale, whenever it is first used."""
        self._transport.on_write(self.own_writes.record)
        settings = guard if isinstance(guard, GuardSettings) else GuardSettings(
            cast(Enforced, guard))
        self.guard = Guard(self._transport, settings, cache_dir=cache_dir)
        """The guard on the operations that reach a person: its ``overrides`` and
        ``resumes`` (``docs/client.md``)."""
        self._cache_dir = cache_dir
        self._service = self._transport.base_url
        self._frames: Frames | None = None
        self.emulator: Sandbox | RemoteSandbox | None = None
        """The emulator of :meth:`sandbox`: one it started, stopped by :meth:`close`, or
        one another process runs, which it leaves running."""
        self.leads = Leads(self._transport, self.guard)
        self.campaigns = Campaigns(self._transport, self.guard)
        self.calls = Calls(self._transport, self.guard)
        self.webhooks = Webhooks(self._transport)
        self.webhook_events = WebhookEvents(self._transport)
        self.dnc = Dnc(self._transport)
        self.consents = Consents(self._transport)
        self.callbacks = Callbacks(self._transport, self.guard)
        self.appointments = Appointments(self._transport)
        self.sms = Sms(self._transport, self.guard)
        self.whatsapp = WhatsApp(self._transport)
        self.reports = Reports(self._transport)

    @classmethod
    def sandbox(
        cls, config: SandboxConfig | str | Path | None = None, *, key: str = "test",
        db: str | Path | None = None, start_time: datetime | str | None = None,
        **client_options: Any,
    ) -> Self:
        """Start the emulator in this process and return a client pointed at it.

        When the environment names a running emulator (``DIALKIT_SANDBOX_URL`` and
        ``DIALKIT_SANDBOX_KEY``, as ``dialkit demo`` sets them for its notebooks)
        and neither ``config`` nor ``db`` is given, the client attaches to that
        one instead, and :meth:`close` leaves it running. The emulator is
        ``client.emulator``; its ``admin_headers`` carry the admin key that the
        writes of its admin surface (``/_sandbox``) need.

        Args:
            config: The emulator's configuration (see ``docs/emulator.md``);
                ``None`` for one account with every scope and switch on.
            key: The label of the emulator's key to use: ``"<account>/<client>/<kind>"``
                (kind ``test``, ``live`` or ``sending``), or the kind alone when the
                configuration has one client (``"test"``, ``"sending"``). An
                unknown label raises ``ValueError`` listing the labels there are.
            db: A SQLite file that keeps the world across sessions: its data, its
                keys (for the default configuration) and its identity, so the
                frames cached in one session are found again in the next. Without
                it the world lives in memory, and its frames are cached in a
                folder of the temporary folder (unless ``cache_dir`` is given):
                :meth:`close` removes them, and the folder goes when the client is
                collected or the interpreter exits.
            start_time: The default world's "now" (ISO 8601 text or an aware
                datetime; default the current hour): the same moment gives the
                same world, so a notebook's numbers repeat from run to run. An
                attached emulator keeps its own world.
            client_options: Other :class:`Client` arguments. The rate limit
                follows the emulator's ``rate_limit_scale`` unless given.

        Examples:
            >>> with dialkit.Client.sandbox() as client:
            ...     print(client.me()["client"]["scopes"])
            ['appointments:read', ..., 'calls:read', ..., 'whatsapp:send']
        """
        from .. import sandbox

        attached = sandbox.RemoteSandbox.from_environment()
        if attached is not None and config is None and db is None:
            client_options.setdefault("rate_limit",
                                      _scaled(RATE_LIMIT_PER_KEY, attached.rate_limit_scale))
            client = cls(attached.key(key), base_url=attached.base_url,
                         **client_options)
            client.emulator = attached
            return client
        emulator = sandbox.start(config, db=db, start_time=start_time)
        try:
            scale = emulator.service.config.server.rate_limit_scale
            client_options.setdefault("rate_limit", _scaled(RATE_LIMIT_PER_KEY, scale))
            api_key = emulator.key(key)
            client = cls(api_key, base_url=emulator.base_url, **client_options)
        except BaseException:
            emulator.stop()
            raise
        client.emulator = emulator
        client._service = f"sandbox:{emulator.world_id}"
        if not emulator.persistent and client._cache_dir is None:
            from .._files._leftovers import PASSING_FRAMES, passing_folder

            # never comes back; kept while anything can still send (the transport)
            client._cache_dir = client.guard.cache_dir = passing_folder(
                PASSING_FRAMES, client._transport)
        return client

    @property
    def base_url(self) -> str:
        """The service's address."""
        return self._transport.base_url

    @property
    def credential_id(self) -> str:
        """The key's credential id: what names the key without its secret."""
        return self._transport.credential_id

    @property
    def service_identity(self) -> str:
        """What the cache knows the service by: the base URL, or for an emulator started
        by :meth:`sandbox`, ``sandbox:<world id>`` (the port changes between sessions)."""
        return self._service

    @property
    def frames(self) -> Frames:
        """Typed DataFrames of the account's data, cached as Parquet (see ``docs/frames.md``)."""
        if self._frames is None:  # the frames layer's, as the dialkit package wired it
            self._frames = frames_of(self, self._cache_dir)
        return self._frames

    @property
    def cache(self) -> FrameCache:
        """The Parquet cache behind :attr:`frames`: ``info()``, ``clear()``, file paths."""
        return self.frames.cache

    def me(self, **options: Unpack[Options]) -> ApiData:
        """The key's identity: account, API client and key (shape not shown: plain data)."""
        return self._identity._data(Call("me", **options))

    def close(self) -> None:
        """Close the connections, and stop the emulator this client started.

        The cached frames of an emulator whose world lived in memory are
        removed with it: no later session can reach that world again.
        """
        self._transport.close()
        if self.emulator is not None:
            if not self.emulator.persistent and self._frames is not None:
                self._frames.cache.remove()
            self.emulator.stop()
            self.emulator = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Client(base_url={self.base_url!r}, api_key='{self._transport.key_hint}')"


def _api_key(value: str | None, profile: Profile | None) -> str:
    key = value if value is not None else (
        profile.api_key if profile is not None and profile.api_key
        else os.environ.get(API_KEY_VARIABLE))
    if not key:
        raise InputError(f"no API key: pass api_key= or set {API_KEY_VARIABLE} "
                         "(or use dialkit.Client.sandbox() to try the emulator)")
    return sendable(key, "the API key")


def _base_url(value: str | None, profile: Profile | None) -> str:
    """The base URL without a trailing ``/`` or ``/v1``; https unless local."""
    url = value if value is not None else (
        profile.base_url if profile is not None and profile.base_url
        else os.environ.get(BASE_URL_VARIABLE))
    if not url:
        raise InputError(f"no base URL: pass base_url= or set {BASE_URL_VARIABLE} "
                         "(or use dialkit.Client.sandbox() to try the emulator)")
    try:
        parsed = httpx.URL(url.rstrip("/").removesuffix("/v1"))
    except httpx.InvalidURL:
        parsed = httpx.URL()  # no scheme: refused below, as any other
    if parsed.scheme not in ("https", "http") or not parsed.host:
        raise InputError(f"base_url {url!r} is not an http(s) address such as "
                         "'https://api.example.com'")
    if parsed.scheme == "http" and not _is_local(parsed.host):
        raise InputError(f"base_url {url!r} uses plain http, which would send the API key "
                         "unencrypted: use https (http is accepted only for localhost)")
    return str(parsed)


def _deadline() -> float:
    """The deadline of ``$DIALKIT_TIMEOUT``, else :data:`DEFAULT_DEADLINE_SECONDS`."""
    text = os.environ.get(TIMEOUT_VARIABLE, "").strip()
    if not text:
        return DEFAULT_DEADLINE_SECONDS
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not 0 < seconds < math.inf:
        raise InputError(f"{TIMEOUT_VARIABLE}={text!r} is not a number of seconds: set it "
                         "to a number above 0, such as 300, or unset it for 120")
    return seconds


def _is_local(host: str) -> bool:
    if host in _LOCAL_NAMES or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _scaled(limit: RateLimit, scale: float) -> RateLimit | None:
    """The emulator's per-key bucket for its ``rate_limit_scale`` (0: no limit)."""
    if scale == 0:
        return None
    return RateLimit(rate=limit.rate * scale, burst=max(1, round(limit.burst * scale)))
