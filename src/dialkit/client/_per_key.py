"""What every client of one key shares in a process: the key's
rate-limit bucket, and the locks its guards hold a number by while they judge a contact
to it and send it. The service limits a key, not a client, and a number's caps count
every contact made to it: two clients of one key (a notebook's and a thread pool's, the
CLI's and ``mcp serve``'s in one process) wait on one bucket and take turns at one
number."""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Hashable
from typing import TypeVar, cast

T = TypeVar("T")

_SHARED: dict[tuple[str, str, Hashable], object] = {}
_SHARED_LOCK = threading.Lock()


def per_key(base_url: str, api_key: str, what: Hashable, make: Callable[[], T]) -> T:
    """The one ``what`` of this key at this service in this process, made by ``make`` the
    first time it is asked for. Keyed by a digest of the key, so the registry never holds
    the key itself."""
    at = (base_url, hashlib.sha256(api_key.encode()).hexdigest(), what)
    with _SHARED_LOCK:
        if at not in _SHARED:
            _SHARED[at] = make()
        return cast(T, _SHARED[at])
