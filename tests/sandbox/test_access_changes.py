"""Access changes while the emulator runs (contract authentication rule 7).

The admin surface changes an account's or a client's access; the contract
allows such changes 15 seconds, the emulator applies them to the next request.
A reset restores the configured access.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest

from conftest import KEYS, assert_problem, write
from dialkit.sandbox import Sandbox


def change(sandbox: Sandbox, path: str, body: dict[str, Any]) -> httpx.Response:
    return httpx.patch(f"{sandbox.base_url}/_sandbox/accounts/{path}", json=body,
                       headers=sandbox.admin_headers)


def paused_campaign(http: httpx.Client) -> str:
    campaigns = http.get("/v1/campaigns", params={"status": "paused"}).json()["data"]
    return str(campaigns[0]["id"])


def test_a_revoked_key_is_refused_from_the_next_request(sandbox: Sandbox,
                                                        api: httpx.Client) -> None:
    assert api.get("/v1/me").status_code == 200
    keys = [{"key": KEYS["full"], "revoked": True}, {"key": KEYS["full_live"]}]
    assert change(sandbox, "acme/clients/full", {"keys": keys}).status_code == 200
    assert_problem(api.get("/v1/me"), 401, "invalid_api_key")


def test_a_disabled_client_is_refused(sandbox: Sandbox, api: httpx.Client,
                                      key_client: Callable[[str], httpx.Client]) -> None:
    assert change(sandbox, "acme/clients/full", {"enabled": False}).status_code == 200
    assert_problem(api.get("/v1/me"), 403, "api_access_disabled")
    assert key_client("other").get("/v1/me").status_code == 200


def test_an_allow_list_change_applies_to_the_next_request(sandbox: Sandbox,
                                                          api: httpx.Client) -> None:
    assert change(sandbox, "acme", {"ip_allow_list": ["10.0.0.0/8"]}).status_code == 200
    assert_problem(api.get("/v1/me"), 403, "ip_not_allowed")
    assert change(sandbox, "acme", {"ip_allow_list": ["127.0.0.0/8"]}).status_code == 200
    assert api.get("/v1/me").status_code == 200


def test_a_switch_turned_off_refuses_tier_2(sandbox: Sandbox, api: httpx.Client) -> None:
    assert change(sandbox, "acme", {"switches": []}).status_code == 200
    assert_problem(write(api, f"/v1/campaigns/{paused_campaign(api)}/resume"), 403,
                   "tier_not_enabled")


def test_a_scope_taken_away_is_refused(sandbox: Sandbox, api: httpx.Client) -> None:
    assert change(sandbox, "acme/clients/full", {"scopes": ["calls:read"]}).status_code == 200
    assert api.get("/v1/calls", params={"limit": 1}).status_code == 200
    assert_problem(api.get("/v1/campaigns"), 403, "insufficient_scope")


def test_reset_restores_the_configured_access(sandbox: Sandbox, api: httpx.Client) -> None:
    assert change(sandbox, "acme", {"api_access_enabled": False}).status_code == 200
    assert_problem(api.get("/v1/me"), 403, "api_access_disabled")
    httpx.post(f"{sandbox.base_url}/_sandbox/reset",
               headers=sandbox.admin_headers).raise_for_status()
    assert api.get("/v1/me").status_code == 200


@pytest.mark.parametrize(("path", "body", "status", "code"), [
    ("acme", {"name": "other"}, 400, "validation_failed"),
    ("acme", {"switches": ["no_such_switch"]}, 400, "validation_failed"),
    ("acme/clients/full", {"scopes": ["calls:read"], "surprise": 1}, 400, "validation_failed"),
    ("acme/clients/full", {"ip_allow_list": ["not-a-network"]}, 400, "validation_failed"),
    ("nobody", {"switches": []}, 404, "not_found"),
    ("acme/clients/nobody", {"enabled": False}, 404, "not_found"),
])
def test_bad_changes_are_refused_and_change_nothing(sandbox: Sandbox, api: httpx.Client,
                                                    path: str, body: dict[str, Any],
                                                    status: int, code: str) -> None:
    assert_problem(change(sandbox, path, body), status, code)
    assert api.get("/v1/campaigns").status_code == 200
