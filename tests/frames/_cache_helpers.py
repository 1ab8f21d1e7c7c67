"""Shared by the cache and refresh tests: request counting, clean loads, interruptions."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pandas as pd
import pytest

from client._recording import RecordingTransport
from conftest import add_fault
from dialkit import Client
from dialkit.errors import ApiConnectionError, ServiceUnavailableError
from dialkit.sandbox import Sandbox

CALLS = "/v1/calls"
LEADS = "/v1/leads"
PAGE = 100
"""Rows per page of a frame load (the contract's largest ``limit``)."""
INBOUND = {"direction": "inbound"}
"""About a tenth of the calls: a frame of a few pages."""
EASTERN = "+12125550142"
"""New York: 10:00 local at the emulator's start (15:00 UTC), inside calling hours."""
LONDON_LEADS = [{"phone": f"+44207946{n:04d}", "full_name": f"Lead {n}"} for n in range(200)]
"""Fictional London numbers: 15:00 local at the emulator's start, inside dialling hours."""

ClientAs = Callable[..., Client]


# --- helpers -------------------------------------------------------------------------------


def gets(wire: RecordingTransport, path: str) -> int:
    """How many GET requests went to ``path``."""
    return len(wire.to(path, "GET"))


def reference_calls(client_as: ClientAs, tmp_path: Path,
                    **filters: Any) -> tuple[pd.DataFrame, int]:
    """A clean full load of the calls frame, in a cache of its own: (frame, requests)."""
    wire = RecordingTransport()
    clean = client_as("full", transport=wire, cache_dir=tmp_path / "reference")
    frame = clean.frames.calls(**filters, refresh="full", progress=False)
    return frame, gets(wire, CALLS)


def files_under(root: Path) -> Iterator[Path]:
    """Every file under ``root``, at any depth."""
    return (path for path in root.rglob("*") if path.is_file())


class Interrupting(RecordingTransport):
    """Records requests, and breaks a load at its ``at``-th GET of ``path``.

    ``how`` is ``"drop"`` or ``"error"`` (a real fault rule armed in the
    emulator just before that request, fired once) or ``"interrupt"`` (a
    ``KeyboardInterrupt`` raised as the request goes out, like Ctrl-C).
    """

    def __init__(self, sandbox: Sandbox, path: str, at: int, how: str) -> None:
        super().__init__()
        self.sandbox = sandbox
        self.path = path
        self.at = at
        self.how = how
        self.seen = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.method == "GET" and request.url.path == self.path:
            self.seen += 1
            if self.seen == self.at:
                if self.how == "interrupt":
                    raise KeyboardInterrupt
                rule: dict[str, Any] = {"kind": "drop"} if self.how == "drop" else {
                    "kind": "error", "status": 503, "code": "temporarily_unavailable"}
                add_fault(self.sandbox, path=self.path, method="GET", count=1, **rule)
        return super().handle_request(request)


RAISED: dict[str, type[BaseException]] = {
    "drop": ApiConnectionError, "error": ServiceUnavailableError, "interrupt": KeyboardInterrupt,
}


def interrupted(sandbox: Sandbox, client_as: ClientAs, at: int, how: str = "drop",
                path: str = CALLS, filters: dict[str, Any] | None = None,
                **client_options: Any) -> Client:
    """A client whose first load of ``path`` (calls or leads, with ``filters``) was broken at
    page ``at``: ``at - 1`` pages are saved."""
    wire = Interrupting(sandbox, path, at, how)
    broken = client_as("full", transport=wire, max_retries=0, **client_options)
    load = broken.frames.calls if path == CALLS else broken.frames.leads
    with pytest.raises(RAISED[how]):
        load(**(filters or {}), progress=False)
    assert wire.seen == at
    return broken


def ready_agent(sandbox: Sandbox, client: Client) -> str:
    """The extension of a ready agent of the ``full`` client's data set."""
    client.me()  # the data set is copied from the seeded world on the client's first request
    row = sandbox.service.store.row(
        "SELECT extension FROM agents WHERE dataset = 'client:acme/full' AND state = 'ready' "
        "ORDER BY extension")
    assert row is not None
    return str(row["extension"])
