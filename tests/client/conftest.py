"""Fixtures of the client's tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from conftest import KEYS
from dialkit import Client
from dialkit.sandbox import Sandbox

from ._recording import RecordingTransport


@pytest.fixture
def recorded_sender(sandbox: Sandbox) -> Iterator[tuple[Client, RecordingTransport]]:
    """A guarded client with the sending key whose requests are recorded."""
    wire = RecordingTransport()
    with Client(KEYS["sending"], base_url=sandbox.base_url, rate_limit=None,
                transport=wire) as made:
        yield made, wire
