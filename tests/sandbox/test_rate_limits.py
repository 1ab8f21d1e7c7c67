"""Rate limits over HTTP: the token buckets per key, API client, account and source address.

Each case gets an emulator whose configuration makes one bucket the first to
run dry. Requests come from several loopback addresses (127.0.0.x) so the
per-address bucket can be kept out of the way, or be the one that trips.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from conftest import assert_problem
from dialkit.sandbox import Sandbox

SCALE = 0.05
"""Bursts become: key 1, client 2, account 3, address 2; refilling a token takes 0.7-2 s."""

Layout = dict[str, dict[str, list[str]]]
"""account name -> client name -> labels of its keys."""


def key(label: str) -> str:
    """The test key named ``label`` (a few lower-case letters and digits)."""
    return f"svc_test_rate{label:0>4}_{'Ab1' * 8}"


def config(layout: Layout, scale: float) -> dict[str, Any]:
    """An emulator configuration with the accounts, clients and keys of ``layout``."""
    return {
        "server": {"rate_limit_scale": scale, "clock": "manual",
                   "start_time": "2026-11-02T15:00:00Z"},
        "accounts": [
            {"name": account, "clients": [
                {"name": client, "keys": [{"key": key(label)} for label in labels]}
                for client, labels in clients.items()]}
            for account, clients in layout.items()],
    }


def me(running: Sandbox, label: str, address: int = 1) -> httpx.Response:
    """GET /v1/me with key ``label`` from the source address 127.0.0.<address>."""
    transport = httpx.HTTPTransport(local_address=f"127.0.0.{address}")
    with httpx.Client(transport=transport, timeout=10) as http:
        return http.get(running.base_url + "/v1/me",
                        headers={"Authorization": f"Bearer {key(label)}"})


CASES: dict[str, tuple[Layout, list[tuple[str, int]], tuple[str, int]]] = {
    "per key": ({"a": {"c": ["k1", "k2"]}},
                [("k1", 11), ("k1", 12)], ("k2", 13)),
    "per client": ({"a": {"c": ["k1", "k2", "k3"], "d": ["k4"]}},
                   [("k1", 11), ("k2", 12), ("k3", 13)], ("k4", 14)),
    "per account": ({"a": {"c1": ["k1"], "c2": ["k2"], "c3": ["k3"], "c4": ["k4"]},
                     "b": {"c": ["k5"]}},
                    [("k1", 11), ("k2", 12), ("k3", 13), ("k4", 14)], ("k5", 15)),
    "per source address": ({"a": {"c": ["k1"]}, "b": {"c": ["k2"]}, "c": {"c": ["k3"]}},
                           [("k1", 11), ("k2", 11), ("k3", 11)], ("k3", 12)),
}
"""(layout, requests of which only the last trips the bucket, a request on other buckets)."""


@pytest.mark.parametrize(("layout", "requests", "control"), CASES.values(), ids=CASES)
def test_each_bucket_trips_on_its_own(make_sandbox: Callable[..., Sandbox], layout: Layout,
                                      requests: list[tuple[str, int]],
                                      control: tuple[str, int]) -> None:
    running = make_sandbox(config(layout, SCALE))
    for label, address in requests[:-1]:
        assert me(running, label, address).status_code == 200
    refused = me(running, *requests[-1])
    assert_problem(refused, 429, "rate_limit_exceeded")
    assert int(refused.headers["retry-after"]) >= 1
    assert me(running, *control).status_code == 200


def test_burst_with_one_key_is_limited_then_recovers(make_sandbox: Callable[..., Sandbox]) -> None:
    running = make_sandbox(config({"a": {"c": ["k1"]}}, 1))
    headers = {"Authorization": f"Bearer {key('k1')}"}
    with httpx.Client(base_url=running.base_url, headers=headers) as http:
        statuses = [http.get("/v1/me") for _ in range(30)]
        refused = [r for r in statuses if r.status_code == 429]
        assert [r.status_code for r in statuses[:20]] == [200] * 20
        assert refused, "30 quick requests never met the per-key limit of burst 20"
        body = assert_problem(refused[0], 429, "rate_limit_exceeded")
        assert "retry" in body["detail"].lower()
        time.sleep(int(refused[-1].headers["retry-after"]))
        assert http.get("/v1/me").status_code == 200


def test_scale_zero_never_limits(make_sandbox: Callable[..., Sandbox]) -> None:
    running = make_sandbox(config({"a": {"c": ["k1"]}}, 0))
    headers = {"Authorization": f"Bearer {key('k1')}"}
    with httpx.Client(base_url=running.base_url, headers=headers) as http:
        assert {http.get("/v1/me").status_code for _ in range(100)} == {200}
