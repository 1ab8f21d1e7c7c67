"""A service that never answers, or is not there: the call ends when it was told to,
and the message names the address and what to pass (issue 48, item 3).

The silent server is a real socket that listens and never answers, which the
emulator cannot be: the kernel accepts the connection into the backlog, the
request is written, and no byte comes back.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import pytest
from typer.testing import CliRunner

from conftest import KEYS
from dialkit import Client
from dialkit.cli import app
from dialkit.errors import ApiConnectionError, ApiTimeoutError

runner = CliRunner()
KEY = KEYS["full"]


@pytest.fixture
def silent() -> Iterator[str]:
    """The address of a server that accepts connections and never answers."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(8)
        yield f"http://127.0.0.1:{server.getsockname()[1]}"


@pytest.fixture
def closed() -> str:
    """The address of a port nothing listens on (bound, then let go)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def run(*args: str, base_url: str, **env: str | None) -> tuple[int, str, float]:
    """``dialkit ARGS`` against ``base_url``: exit status, standard error, seconds taken.
    ``DIALKIT_TIMEOUT`` is put back as it was after the run (the command sets it)."""
    environment = {"DIALKIT_API_KEY": KEY, "DIALKIT_BASE_URL": base_url,
                   "DIALKIT_PROFILE": None, "DIALKIT_TIMEOUT": None, **env}
    started = time.monotonic()
    result = runner.invoke(app, list(args), env=environment)
    return result.exit_code, result.stderr, time.monotonic() - started


def test_timeout_option_ends_a_silent_server_early_naming_host_and_option(silent: str) -> None:
    status, error, took = run("--timeout", "1", "campaigns", "list", base_url=silent)
    assert status == 1, error
    assert took < 5, f"took {took:.1f} s with --timeout 1"
    assert silent in error and "/v1/campaigns" in error
    assert "--timeout" in error
    assert "deadline=" not in error and "dialkit.Client" not in error  # Python's words


def test_timeout_variable_is_read_as_the_option_is(silent: str) -> None:
    status, error, took = run("campaigns", "list", base_url=silent, DIALKIT_TIMEOUT="1")
    assert status == 1 and took < 5 and silent in error


@pytest.mark.parametrize("value", ["0", "-3", "soon"])
def test_a_timeout_that_is_no_length_is_refused_as_usage(silent: str, value: str) -> None:
    status, error, took = run("--timeout", value, "campaigns", "list", base_url=silent)
    assert status == 2 and "--timeout" in error and took < 5


def test_connection_refused_names_the_address(closed: str) -> None:
    status, error, _ = run("--timeout", "2", "campaigns", "list", base_url=closed)
    assert status == 1
    assert closed in error and "DIALKIT_BASE_URL" in error and "base_url=" not in error


def test_client_deadline_names_the_address(silent: str) -> None:
    started = time.monotonic()
    with Client(KEY, base_url=silent, deadline=1.0) as client, \
            pytest.raises(ApiTimeoutError) as caught:
        client.me()
    assert time.monotonic() - started < 3
    assert f"GET {silent}/v1/me" in str(caught.value) and "deadline of 1 s" in str(caught.value)


def test_client_reads_its_deadline_from_the_variable(silent: str,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DIALKIT_TIMEOUT", "0.5")
    started = time.monotonic()
    with Client(KEY, base_url=silent) as client, pytest.raises(ApiTimeoutError) as caught:
        client.me()
    assert time.monotonic() - started < 3 and "deadline of 0.5 s" in str(caught.value)


def test_a_variable_that_is_no_length_is_refused_naming_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DIALKIT_TIMEOUT", "soon")
    with pytest.raises(ValueError, match="DIALKIT_TIMEOUT='soon'"):
        Client(KEY, base_url="http://127.0.0.1:9")


def test_refused_connection_names_the_address_without_user_or_query(closed: str) -> None:
    with_user = closed.replace("http://", "http://someone:hunter2@")
    with Client(KEY, base_url=with_user, max_retries=0) as client, \
            pytest.raises(ApiConnectionError) as caught:
        client.campaigns.get("cmp_00000000-0000-4000-8000-000000000000")
    message = str(caught.value)
    assert closed in message and "hunter2" not in message and "someone" not in message
