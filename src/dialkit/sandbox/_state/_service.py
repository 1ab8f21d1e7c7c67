"""The emulated service's state: configuration, store, clock and the shared machinery.

One :class:`Service` backs one running emulator. Route handlers reach it, and
the caller of the request, through :class:`RequestContext`.
"""

from __future__ import annotations

import secrets
import sqlite3
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from dialkit._utils import _tuning
from dialkit.contract import Operation

from .._config import AccountConfig, SandboxConfig, parse_config
from .._http._checks._auth import Caller, KeyRegistry
from .._http._checks._cursors import CursorCodec
from .._http._checks._faults import Faults
from .._http._checks._idempotency import IdempotencyKeys
from .._http._checks._ratelimit import RateLimiter
from .._world._build import build_world
from ._clock import Clock, isoformat, parse_timestamp
from ._store import Store


class Service:
    """Everything one emulator instance holds."""

    def __init__(self, config: SandboxConfig, db: str | None = None) -> None:
        self.configured = config
        self._use_config(config)
        self.store = Store(db or ":memory:")
        self.anchor = self._anchor()
        self.clock = Clock(manual=config.server.clock == "manual", start=self._clock_start())
        self.limiter = RateLimiter(config.server.rate_limit_scale)
        self.cursors = CursorCodec(self._cursor_secret())
        self.faults = Faults()
        self.idempotency = IdempotencyKeys(self.store, self.clock)
        worlds = tuple((a.name, self._signature(a)) for a in config.accounts)
        if db is None:
            self._copy_built(worlds)
        for account in config.accounts:
            self.seed(account)  # nothing to do for a world copied in
        if db is None:
            _keep_built(worlds, self.store.conn)

    @property
    def world_id(self) -> str:
        """A random id made once per store: kept with a world in a file, new in memory."""
        kept = self.store.meta("world_id")
        if kept is None:
            kept = secrets.token_hex(16)
            self.store.set_meta("world_id", kept)
        return kept

    @property
    def docs_base(self) -> str:
        """Where error documentation lives (the ``type`` of problem bodies)."""
        return self.config.server.docs_base.rstrip("/")

    def _anchor(self) -> datetime:
        """The world's "now": the configured start time, or the hour the store was made."""
        start = self.config.server.start_time
        if start is not None:
            return start.astimezone(UTC)
        stored = self.store.meta("anchor")
        if stored is not None:
            return parse_timestamp(stored)
        anchor = datetime.now(UTC).replace(minute=0, second=0, microsecond=0)
        self.store.set_meta("anchor", isoformat(anchor))
        return anchor

    def _clock_start(self) -> datetime:
        stored = self.store.meta("manual_clock")
        return parse_timestamp(stored) if stored else self.anchor

    def _cursor_secret(self) -> bytes:
        stored = self.store.meta("cursor_secret")
        if stored is None:
            stored = secrets.token_hex(32)
            self.store.set_meta("cursor_secret", stored)
        return bytes.fromhex(stored)

    def _signature(self, account: AccountConfig) -> str:
        """What the account's world is built from: the same signature, the same rows."""
        return (f"{account.seed}/{account.scale}/{isoformat(self.anchor)}"
                f"{'' if account.recent_activity else '/quiet'}")

    def _copy_built(self, worlds: tuple[tuple[str, str], ...]) -> None:
        """Copy in the store of an emulator of this process that built the same worlds, if
        any, keeping this store's own secrets (see :data:`_BUILT`)."""
        with _BUILT_LOCK:
            built = _BUILT.get(worlds) if _tuning.BUILT_WORLDS_KEPT else None
            if built is not None:
                secret = self.store.meta("cursor_secret")
                built.backup(self.store.conn)
                self.store.conn.execute("DELETE FROM meta WHERE key = 'world_id'")
                self.store.set_meta("cursor_secret", secret or "")

    def seed(self, account: AccountConfig, *, force: bool = False) -> None:
        """Build the account's world unless the store already holds this very world."""
        signature = self._signature(account)
        if force or self.store.meta(f"world:{account.name}") != signature:
            self.store.drop_datasets(account.name)
            build_world(self.store, account.name, seed=account.seed, scale=account.scale,
                        anchor=self.anchor, activity=account.recent_activity)
            self.store.set_meta(f"world:{account.name}", signature)

    def reset(self) -> None:
        """Back to the seeded worlds and the configured access: every data set, key and fault
        forgotten, the clock rewound."""
        for account in self.config.accounts:
            self.store.drop_datasets(account.name)
        self._use_config(self.configured)
        self.idempotency.clear()
        self.faults.clear()
        self.clock.rewind()
        self.store.conn.execute("DELETE FROM meta WHERE key = 'manual_clock'")

    def change_access(self, account: str, changes: dict[str, Any],
                      client: str | None = None) -> AccountConfig:
        """Change an account's (or one of its clients') access settings while running.

        The contract lets access changes (a revoked key, a disabled client, an
        allow-list or a switch) take up to 15 seconds; here they apply to the
        next request. Raises ``KeyError`` for an unknown account or client and
        :class:`ConfigError` for a value the configuration would refuse.
        """
        old = self.accounts[account]
        data = old.model_dump()
        if client is None:
            data.update(changes)
        else:
            targets = [c for c in data["clients"] if c["name"] == client]
            if not targets:
                raise KeyError(client)
            targets[0].update(changes)
        where = f"accounts[{self.config.accounts.index(old)}]"
        new = parse_config({"accounts": [data]}, where).accounts[0]
        self._use_config(self.config.model_copy(update={"accounts": [
            new if a.name == account else a for a in self.config.accounts]}))
        return new

    def _use_config(self, config: SandboxConfig) -> None:
        self.config = config
        self.accounts = {a.name: a for a in config.accounts}
        self.keys = KeyRegistry(config)

    def advance_clock(self, seconds: float) -> datetime:
        """Move the manual clock and remember it across restarts."""
        now = self.clock.advance(seconds)
        self.store.set_meta("manual_clock", isoformat(now))
        return now


_BUILT: dict[tuple[tuple[str, str], ...], sqlite3.Connection] = {}
"""In-memory stores just after their worlds were built, by the worlds' signatures: a world
is a function of its signature, and building a small one is most of an emulator's start
(``_tuning.BUILT_WORLD_BYTES``). Tests and notebooks start many emulators of the same
worlds in one process."""
_BUILT_LOCK = threading.Lock()


def _keep_built(worlds: tuple[tuple[str, str], ...], conn: sqlite3.Connection) -> None:
    """Keep a copy of ``conn``, a store whose worlds were just built, under ``worlds``."""
    with _BUILT_LOCK:
        if worlds in _BUILT:
            return
        size = conn.execute("PRAGMA page_count").fetchone()[0] * conn.execute(
            "PRAGMA page_size").fetchone()[0]
        if size > _tuning.BUILT_WORLD_BYTES:
            return
        copy = sqlite3.connect(":memory:", check_same_thread=False)
        conn.backup(copy)
        _BUILT[worlds] = copy
        while len(_BUILT) > _tuning.BUILT_WORLDS_KEPT:
            _BUILT.pop(next(iter(_BUILT))).close()


@dataclass(slots=True)
class RequestContext:
    """What a route handler knows about its request."""

    service: Service
    caller: Caller
    operation: Operation
    request_id: str

    @property
    def dataset(self) -> str:
        """The data set answering this request (made on first use)."""
        return self.caller.dataset

    @property
    def account(self) -> AccountConfig:
        """The caller's account."""
        return self.caller.account

    def now(self) -> str:
        """Service time in storage form."""
        return self.service.clock.stamp()
