"""A running emulator's keys by label, through its public API (``Sandbox.key``,
``RemoteSandbox.key``), which ``Client.sandbox()`` uses rather than a private helper of
the sandbox (issue 24)."""

from __future__ import annotations

import pytest

from conftest import KEYS
from dialkit import Client
from dialkit.sandbox import RemoteSandbox, Sandbox, attach_environment


def test_a_key_is_found_by_its_label(sandbox: Sandbox) -> None:
    assert sandbox.key("acme/full/test") == KEYS["full"]
    assert sandbox.key("acme/full/sending") == KEYS["sending"]


def test_an_unknown_label_is_refused_listing_the_labels(sandbox: Sandbox) -> None:
    with pytest.raises(ValueError, match=r"no key labelled 'nope'.*acme/full/test") as raised:
        sandbox.key("nope")
    assert KEYS["full"] not in str(raised.value)  # labels, never the keys themselves


def test_an_attached_process_has_the_key_it_was_given(sandbox: Sandbox) -> None:
    remote = RemoteSandbox.from_environment(attach_environment(sandbox, "acme/full/test"))
    assert remote is not None
    assert remote.key() == KEYS["full"]
    with pytest.raises(ValueError, match="no key labelled 'acme/full/test'"):
        remote.key("acme/full/test")  # the attached process knows its one key as "test"


def test_client_sandbox_attaches_with_the_labelled_key(sandbox: Sandbox,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in attach_environment(sandbox, "acme/full/test").items():
        monkeypatch.setenv(name, value)
    with Client.sandbox() as client:
        assert client.me()["client"]["name"] == "full"
    with pytest.raises(ValueError, match="no key labelled 'live'"):
        Client.sandbox(key="live")
