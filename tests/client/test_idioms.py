"""The ways a notebook or a script reaches the client in one expression (issue 78), each
against the emulator over real HTTP: a client never named, whose resources and pages
outlive the statement that made it, must keep sending until nothing can send through it
any more, and only then close its connections.

The collection close of issue 72 closed a client as soon as the ``Client`` object was
unreferenced: ``for call in dialkit.Client.sandbox().calls.list(): ...`` raised
``ClientClosedError`` on its first page. CPython collects an unreferenced object at
once, so each case below is decided the moment the client's name (or the chain's
temporary) is gone; ``gc.collect()`` is called too, for a cycle.
"""

from __future__ import annotations

import gc
import warnings
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import pytest

import dialkit
from conftest import KEYS
from dialkit.errors import ClientClosedError
from dialkit.sandbox import Sandbox, attach_environment

Make = Callable[[], dialkit.Client]


@pytest.fixture
def make(sandbox: Sandbox) -> Make:
    """``dialkit.Client(api_key=..., base_url=...)`` of the session emulator, as a user
    writes it, made anew at each call."""
    def made() -> dialkit.Client:
        return dialkit.Client(api_key=KEYS["full"], base_url=sandbox.base_url,
                              rate_limit=None)
    return made


def _collected() -> None:
    gc.collect()


def test_a_chain_from_the_sandbox_lists_every_page(sandbox: Sandbox,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The first line people write. ``Client.sandbox()`` attaches to the session's emulator
    (as in ``dialkit demo``'s notebooks), not building a world of its own (25 s); the
    README's chains start their own (tests/client/test_readme.py)."""
    for name, value in attach_environment(sandbox, "acme/full/test").items():
        monkeypatch.setenv(name, value)
    seen = []
    for call in dialkit.Client.sandbox().calls.list(limit=20):
        if len(seen) % 20 == 0:  # before each page's first call is kept
            _collected()
        seen.append(call.id)
        if len(seen) == 45:  # three pages: two more requests after the client's statement
            break
    assert len(set(seen)) == 45


def test_a_chain_imports_a_batch(make: Make) -> None:
    campaign = next(make().campaigns.list(status="paused"))
    result = make().leads.import_batch(campaign.id, [{"phone": "+14155550123",
                                                      "full_name": "Ada Lovelace"}])
    assert [lead.status for lead in result] == ["accepted"]


def test_a_chain_checks_the_dnc_list(make: Make) -> None:
    (answer,) = make().dnc.check(["+14155550123"])
    assert answer.phone == "+14155550123" and answer.listed in (True, False)


def test_a_chain_consumed_whole_by_list(make: Make) -> None:
    leads = list(make().leads.list(limit=3))
    assert len(leads) > 3 and len({lead.id for lead in leads}) == len(leads)


def test_a_paginator_consumed_after_the_statement_that_made_it(make: Make) -> None:
    pages = make().calls.list(direction="outbound", limit=5)
    _collected()
    first = next(pages)
    _collected()
    rest = [call.id for _, call in zip(range(10), pages, strict=False)]
    assert first.direction == "outbound" and len(rest) == 10 and first.id not in rest


def test_a_resource_kept_while_its_client_is_not(make: Make) -> None:
    calls = make().calls
    _collected()
    call = next(calls.list(limit=1))
    assert calls.get(call.id).id == call.id


def test_frames_of_a_chain(make: Make) -> None:
    frames = make().frames
    _collected()
    assert len(frames.campaigns()) > 0


def test_a_client_made_in_a_thread_used_in_another(make: Make) -> None:
    with ThreadPoolExecutor(1) as pool:
        client = pool.submit(make).result()
        in_thread = pool.submit(lambda: [c.id for c in make().campaigns.list()]).result()
    with client:
        assert [c.id for c in client.campaigns.list()] == in_thread


def test_with_and_without_a_block(make: Make) -> None:
    with make() as client:
        inside = client.me()
    kept = make()
    try:
        assert kept.me()["client"] == inside["client"]
    finally:
        kept.close()
    with pytest.raises(ClientClosedError, match="this client was closed"):
        client.me()


def test_a_client_dropped_unused_leaves_no_socket_to_warn_about(make: Make) -> None:
    """What issue 72 wanted of the collection close, kept: a client that sent once, then
    was dropped unclosed (``client = ...`` run again in a notebook), has its connections
    closed once nothing can send through them."""
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always", ResourceWarning)
        client = make()
        client.me()
        del client
        _collected()
    assert [str(w.message) for w in said if issubclass(w.category, ResourceWarning)] == []
