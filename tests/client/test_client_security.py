"""Constructing a client, and keeping its secrets: the key and webhook signing secrets.

The key comes from arguments or the environment, travels only in the
Authorization header, and only over https (plain http only to this machine).
Nothing the client shows (reprs, logs, exceptions, tracebacks) holds a key or
a signing secret in full.
"""

from __future__ import annotations

import logging
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import certifi
import httpx
import pytest

import dialkit
from conftest import KEYS, add_fault
from dialkit import Client
from dialkit.client import API_KEY_VARIABLE, BASE_URL_VARIABLE
from dialkit.client._http._transport import tls_context
from dialkit.errors import ApiError, AuthenticationError, NotFoundError
from dialkit.sandbox import Sandbox

from ._recording import RecordingTransport

MakeClient = Callable[..., Client]
UNKNOWN_CAMPAIGN = "cmp_00000000-0000-4000-8000-000000000000"
UNKNOWN_KEY = "svc_test_unknown01_ZZZZyyyyXXXXwwwwVVVVuuuu0010"
PHONE = "+442079460201"


# Where the key and the address come from. ---------------------------------------------------------

def test_key_and_base_url_default_to_the_environment(sandbox: Sandbox,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(API_KEY_VARIABLE, KEYS["reader"])
    monkeypatch.setenv(BASE_URL_VARIABLE, sandbox.base_url)
    with Client(rate_limit=None) as client:
        assert client.base_url == sandbox.base_url
        assert client.me()["client"]["name"] == "reader"


def test_arguments_win_over_the_environment(sandbox: Sandbox,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(API_KEY_VARIABLE, KEYS["revoked"])
    monkeypatch.setenv(BASE_URL_VARIABLE, "https://api.example.com")
    with Client(KEYS["full"], base_url=sandbox.base_url, rate_limit=None) as client:
        assert client.me()["client"]["name"] == "full"


@pytest.mark.parametrize("value", [None, ""], ids=["unset", "empty"])
@pytest.mark.parametrize("variable", [API_KEY_VARIABLE, BASE_URL_VARIABLE])
def test_missing_key_or_base_url_names_the_variable(monkeypatch: pytest.MonkeyPatch,
                                                    variable: str, value: str | None) -> None:
    monkeypatch.setenv(API_KEY_VARIABLE, KEYS["full"])
    monkeypatch.setenv(BASE_URL_VARIABLE, "https://api.example.com")
    if value is None:
        monkeypatch.delenv(variable)
    else:
        monkeypatch.setenv(variable, value)
    with pytest.raises(ValueError, match=variable):
        Client()


@pytest.mark.parametrize("key", [KEYS["full"] + "\n", " " + KEYS["full"], "svc_test_a b_c"],
                         ids=["line break", "leading space", "inner space"])
def test_key_with_whitespace_is_refused_without_showing_it(key: str) -> None:
    with pytest.raises(ValueError, match="which no HTTP header can carry") as caught:
        Client(key, base_url="https://api.example.com")
    assert key.strip() not in str(caught.value)


ACCEPTED_URLS = {
    "https": ("https://api.example.com", "https://api.example.com"),
    "https with /v1": ("https://api.example.com/v1", "https://api.example.com"),
    "https with /v1/": ("https://api.example.com/v1/", "https://api.example.com"),
    "localhost": ("http://localhost:8000", "http://localhost:8000"),
    "127.0.0.1 with /v1": ("http://127.0.0.1:8000/v1", "http://127.0.0.1:8000"),
    "::1": ("http://[::1]:8000", "http://[::1]:8000"),
    "*.localhost": ("http://api.localhost", "http://api.localhost"),
}


@pytest.mark.parametrize(("url", "expected"), ACCEPTED_URLS.values(), ids=ACCEPTED_URLS)
def test_https_and_local_http_base_urls_are_accepted(url: str, expected: str) -> None:
    with Client(KEYS["full"], base_url=url) as client:
        assert client.base_url == expected


REFUSED_URLS = {
    "http to a public host": ("http://api.example.com", "plain http"),
    "http to a private address": ("http://10.0.0.1:8000", "plain http"),
    "http to a lookalike of localhost": ("http://localhost.example.com", "plain http"),
    "http to a name starting 127.0.0.1": ("http://127.0.0.1.example.com", "plain http"),
    "no scheme": ("api.example.com", "not an http"),
    "other scheme": ("ftp://api.example.com", "not an http"),
    "no host": ("https://", "not an http"),
}


@pytest.mark.parametrize(("url", "says"), REFUSED_URLS.values(), ids=REFUSED_URLS)
def test_unsafe_or_malformed_base_urls_are_refused(url: str, says: str) -> None:
    with pytest.raises(ValueError, match=says):
        Client(KEYS["full"], base_url=url)


def test_base_url_with_v1_reaches_the_service(sandbox: Sandbox) -> None:
    with Client(KEYS["full"], base_url=sandbox.base_url + "/v1/", rate_limit=None) as client:
        assert client.base_url == sandbox.base_url
        assert client.me()["client"]["name"] == "full"


# Correlation ids. ---------------------------------------------------------------------------------

BAD_CORRELATION_IDS = ["", "has space", "ünïcode", "a/b", "x" * 129, "line\nbreak"]


@pytest.mark.parametrize("value", BAD_CORRELATION_IDS)
def test_bad_correlation_id_is_refused_before_sending(client_as: MakeClient, value: str) -> None:
    with pytest.raises(ValueError, match="correlation_id"):
        client_as("full", correlation_id=value)
    spy = RecordingTransport()
    client = client_as("full", transport=spy)
    with pytest.raises(ValueError, match="correlation_id"):
        client.me(correlation_id=value)
    assert spy.sent == []


def test_correlation_id_is_sent_and_a_call_overrides_the_client(
        client_as: MakeClient, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="dialkit.sandbox")
    spy = RecordingTransport()
    client = client_as("full", transport=spy, correlation_id="client.level:1")
    client.me()
    client.me(correlation_id="call-level_" + "x" * 117)
    assert [s.correlation_id for s in spy.sent] == ["client.level:1", "call-level_" + "x" * 117]
    logged = [r.getMessage() for r in caplog.records if r.name == "dialkit.sandbox"]
    assert any(line.endswith("correlation client.level:1") for line in logged)
    assert any(line.endswith("correlation call-level_" + "x" * 117) for line in logged)


def test_no_correlation_id_is_sent_unless_given(client_as: MakeClient) -> None:
    spy = RecordingTransport()
    client_as("full", transport=spy).me()
    assert [s.correlation_id for s in spy.sent] == [None]


# The key travels only in the Authorization header. ------------------------------------------------

CREDENTIAL_LEAKS: dict[str, Callable[[Client], object]] = {
    "own key in a query parameter": lambda c: list(c.leads.list(external_id=KEYS["full"])),
    "another key in the body": lambda c: c.leads.create(
        campaign_id=UNKNOWN_CAMPAIGN, phone=PHONE, full_name=KEYS["other"]),
    "live key in a custom field": lambda c: c.leads.create(
        campaign_id=UNKNOWN_CAMPAIGN, phone=PHONE, custom_fields={"note": KEYS["full_live"]}),
    "key in the path": lambda c: c.campaigns.get(KEYS["full"]),
    "key as correlation id": lambda c: c.me(correlation_id=KEYS["full"]),
    "key as idempotency key": lambda c: c.campaigns.pause(UNKNOWN_CAMPAIGN,
                                                          idempotency_key=KEYS["other"]),
}


@pytest.mark.parametrize("leak", CREDENTIAL_LEAKS.values(), ids=CREDENTIAL_LEAKS)
def test_key_outside_the_authorization_header_is_refused_before_sending(
        client_as: MakeClient, leak: Callable[[Client], object]) -> None:
    spy = RecordingTransport()
    client = client_as("full", transport=spy)
    with pytest.raises(ValueError, match="contains an API key") as caught:
        leak(client)
    assert spy.sent == []
    assert not any(key in str(caught.value) for key in KEYS.values())


def test_own_key_of_an_unusual_shape_is_refused_in_the_body_too() -> None:
    key = "svc_live_odd-shape_0123456789abcdef"
    sent: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        return httpx.Response(200, json={})

    client = Client(key, base_url="https://api.example.test", rate_limit=None,
                    transport=httpx.MockTransport(answer))
    with pytest.raises(ValueError, match="contains an API key"):
        client.leads.create(campaign_id=UNKNOWN_CAMPAIGN, phone=PHONE, full_name=key)
    assert sent == []


ECHOES: dict[str, Callable[[str], httpx.Response]] = {
    "problem detail": lambda key: httpx.Response(
        400, json={"code": "validation_failed", "detail": f"Unexpected value {key}."}),
    "HTML page": lambda key: httpx.Response(
        403, text=f"<p>Forbidden: Bearer {key}</p>", headers={"Content-Type": "text/html"}),
}


@pytest.mark.parametrize("echo", ECHOES.values(), ids=ECHOES)
@pytest.mark.parametrize("key", [KEYS["full"], "svc_live_odd-shape_0123456789abcdef"],
                         ids=["key", "key of an unusual shape"])
def test_an_answer_that_echoes_the_key_is_masked(echo: Callable[[str], httpx.Response],
                                                 key: str) -> None:
    client = Client(key, base_url="https://api.example.test", rate_limit=None, max_retries=0,
                    transport=httpx.MockTransport(lambda request: echo(key)))
    with pytest.raises(ApiError) as caught:
        client.me()
    error = caught.value
    assert "…" + key[-4:] in error.detail
    shown = [error.detail, str(error), repr(error), *map(str, error.args),
             "".join(traceback.format_exception(error))]
    assert not any(key in text for text in shown)


# Nothing shows a secret in full. ------------------------------------------------------------------

def shows(value: Any) -> str:
    """Everything a value can show: str and repr."""
    return f"{value}\n{value!r}"


def test_no_key_or_signing_secret_reaches_logs_reprs_or_errors(
        sandbox: Sandbox, client_as: MakeClient, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    client = client_as("full", correlation_id="secrets-session")
    created = client.webhooks.create(url="https://hooks.example.com/in",
                                     events=["call.completed"], idempotency_key="wh-create-1")
    add_fault(sandbox, path="/v1/webhooks/*/rotate-secret", code="temporarily_unavailable",
              retry_after=0, count=1)  # a retry, logged
    rotated = client.webhooks.rotate_secret(created.id)
    replayed = client.webhooks.create(url="https://hooks.example.com/in",
                                      events=["call.completed"], idempotency_key="wh-create-1")
    listed = list(client.webhooks.list())
    assert created.secret is not None and rotated.secret is not None
    assert str(created.secret).startswith("whsec_") and str(rotated.secret).startswith("whsec_")
    assert created.secret != rotated.secret and replayed.secret is None
    stranger = Client(UNKNOWN_KEY, base_url=client.base_url, rate_limit=None)
    errors: list[ApiError] = []
    with pytest.raises(AuthenticationError) as unknown:
        stranger.me()
    errors.append(unknown.value)
    with pytest.raises(NotFoundError) as missing:
        client.campaigns.get(UNKNOWN_CAMPAIGN)
    errors.append(missing.value)
    stranger.close()

    secrets = [KEYS["full"], UNKNOWN_KEY, str(created.secret), str(rotated.secret)]
    shown = [shows(client), shows(stranger), shows(created), shows(rotated), shows(replayed),
             *map(shows, listed)]
    for error in errors:
        shown += [shows(error), "".join(traceback.format_exception(error))]
    for record in caplog.records:
        shown += [record.getMessage(), *map(shows, record.args or ())]
    logged = {record.name for record in caplog.records}
    assert {"dialkit.client", "dialkit.sandbox", "httpx", "httpcore.http11"} <= logged
    assert any(r.getMessage().startswith("retrying POST") for r in caplog.records)
    leaks = [(secret[-4:], text) for secret in secrets for text in shown if secret in text]
    assert leaks == []
    assert "…" + created.secret[-4:] in repr(created)


# The emulator started by the client. -------------------------------------------------------------

def test_client_sandbox_starts_an_emulator_and_close_stops_it() -> None:
    client = dialkit.Client.sandbox()
    emulator = client.emulator
    try:
        assert emulator is not None
        key = str(emulator.keys["test"])
        assert client.me()["key"]["mode"] == "test"
        assert key not in repr(client) and f"api_key='…{key[-4:]}'" in repr(client)
    finally:
        client.close()
    assert client.emulator is None
    with pytest.raises(httpx.ConnectError):
        httpx.get(emulator.base_url + "/v1/me", timeout=2)
    with pytest.raises(RuntimeError, match="closed"):
        client.me()


@pytest.mark.parametrize(("key", "credential_id"), [
    (KEYS["full"], "fullkey01"),
    ("an-unusual-key-of-another-form-0042", None),
])
def test_credential_id_names_the_key_without_its_secret(key: str,
                                                        credential_id: str | None) -> None:
    with Client(key, base_url="https://api.example.test") as client:
        named = client.credential_id
    if credential_id is not None:
        assert named == credential_id
    else:
        assert named.startswith("sha256-") and "0042" not in named and key not in named
    assert key.rsplit("_", 1)[-1] not in named


def test_a_negative_max_retries_is_refused() -> None:
    with pytest.raises(ValueError, match="max_retries"):
        Client(KEYS["full"], base_url="https://api.example.test", max_retries=-1)


def test_clients_share_one_tls_context_until_the_trust_settings_change(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Loading the authorities costs ~50 ms a client, so clients share one context; one
    made after ``SSL_CERT_FILE`` names another bundle trusts that bundle, not the first's."""
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)
    shared = tls_context()
    assert tls_context() is shared
    assert shared.cert_store_stats()["x509_ca"] > 100  # certifi's bundle
    bundle = Path(certifi.where()).read_text()
    end = "-----END CERTIFICATE-----\n"
    (tmp_path / "one.pem").write_text(bundle[:bundle.index(end) + len(end)])
    monkeypatch.setenv("SSL_CERT_FILE", str(tmp_path / "one.pem"))
    own = tls_context()
    assert own is not shared and own.cert_store_stats()["x509_ca"] == 1
    monkeypatch.delenv("SSL_CERT_FILE")
    assert tls_context() is shared
