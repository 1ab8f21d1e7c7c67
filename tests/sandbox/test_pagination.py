"""Cursor pagination over HTTP: limits, complete walks in the documented order, and
every way a cursor can be invalid for a request (400 ``invalid_cursor``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest
from test_auth import campaign_in

from conftest import KEYS, assert_problem, base_config, client_for, write
from dialkit.contract import DEFAULT_PAGE_LIMIT, MAX_CURSOR_LENGTH, MAX_PAGE_LIMIT
from dialkit.sandbox import Sandbox

BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


def page(http: httpx.Client, path: str, **params: Any) -> dict[str, Any]:
    """One page of a list, checked for the contract's list shape."""
    response = http.get(path, params=params)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    assert set(body) == {"data", "page"} and set(body["page"]) == {"next_cursor", "has_more"}
    assert body["page"]["has_more"] == (body["page"]["next_cursor"] is not None)
    cursor = body["page"]["next_cursor"]
    assert cursor is None or 1 <= len(cursor) <= MAX_CURSOR_LENGTH
    return body


def walk(http: httpx.Client, path: str, limit: int, **filters: Any) -> list[dict[str, Any]]:
    """Every item of a list, following ``next_cursor`` until the last page."""
    items: list[dict[str, Any]] = []
    cursor = None
    while True:
        params = {"limit": limit, **filters} | ({} if cursor is None else {"cursor": cursor})
        body = page(http, path, **params)
        assert len(body["data"]) <= limit
        items += body["data"]
        cursor = body["page"]["next_cursor"]
        if cursor is None:
            return items


def first_cursor(http: httpx.Client, path: str, **filters: Any) -> str:
    """The ``next_cursor`` of a list's first page of one item."""
    cursor = page(http, path, limit=1, **filters)["page"]["next_cursor"]
    assert isinstance(cursor, str)
    return cursor


def assert_newest_first(items: list[dict[str, Any]]) -> None:
    """Strictly descending by ``(created_at, id)``: the documented order, no duplicates."""
    keys = [(item["created_at"], item["id"]) for item in items]
    assert all(a > b for a, b in zip(keys, keys[1:], strict=False)), keys


# Limits.

@pytest.mark.parametrize("limit", ["0", str(MAX_PAGE_LIMIT + 1), "-1", "ten", "1.5", ""])
def test_limit_outside_1_to_100_is_refused(api: httpx.Client, limit: str) -> None:
    body = assert_problem(api.get("/v1/campaigns", params={"limit": limit}), 400,
                          "validation_failed")
    assert body["errors"][0]["pointer"] == "/query/limit"


@pytest.mark.parametrize("limit", [1, 7, MAX_PAGE_LIMIT])
def test_limit_sets_the_page_size(api: httpx.Client, limit: int) -> None:
    assert len(page(api, "/v1/calls", limit=limit)["data"]) == limit


def test_default_page_size_is_50(api: httpx.Client) -> None:
    body = page(api, "/v1/calls")
    assert len(body["data"]) == DEFAULT_PAGE_LIMIT and body["page"]["has_more"]


# Complete walks.

@pytest.mark.parametrize("limit", [1, 2, 3])
def test_walk_returns_every_campaign_once_newest_first(api: httpx.Client, limit: int) -> None:
    everything = page(api, "/v1/campaigns", limit=MAX_PAGE_LIMIT)
    assert not everything["page"]["has_more"]
    items = walk(api, "/v1/campaigns", limit)
    assert items == everything["data"]
    assert_newest_first(items)


def test_walk_with_filter_returns_only_matching_items(api: httpx.Client) -> None:
    items = walk(api, "/v1/campaigns", 1, status="completed")
    assert len(items) > 1 and {item["status"] for item in items} == {"completed"}
    assert_newest_first(items)


def test_walk_over_many_items_has_no_gap(api: httpx.Client) -> None:
    full_pages = walk(api, "/v1/calls", MAX_PAGE_LIMIT)
    assert len(full_pages) > 2 * MAX_PAGE_LIMIT
    assert_newest_first(full_pages)
    odd_pages = walk(api, "/v1/calls", 73)
    assert [c["id"] for c in odd_pages] == [c["id"] for c in full_pages]


def test_items_created_at_the_same_instant_are_ordered_by_id(api: httpx.Client) -> None:
    campaign = campaign_in(api, "draft")
    leads = [{"phone": f"+1415555{n:04d}"} for n in range(2001, 2008)]
    response = write(api, "/v1/leads/import", {"leads": leads}, params={"campaign_id": campaign})
    assert response.status_code == 200, response.text
    items = walk(api, "/v1/leads", 2, campaign_id=campaign)
    assert_newest_first(items)
    created = {item["created_at"] for item in items if item["phone"] in
               {lead["phone"] for lead in leads}}
    assert len(created) == 1, "the manual clock did not stand still during the import"


def test_limit_may_change_between_pages(api: httpx.Client) -> None:
    everything = page(api, "/v1/campaigns", limit=MAX_PAGE_LIMIT)["data"]
    first = page(api, "/v1/campaigns", limit=2)
    rest = page(api, "/v1/campaigns", limit=MAX_PAGE_LIMIT, cursor=first["page"]["next_cursor"])
    assert first["data"] + rest["data"] == everything


def test_same_cursor_gives_the_same_page_again(api: httpx.Client) -> None:
    cursor = first_cursor(api, "/v1/campaigns")
    assert page(api, "/v1/campaigns", limit=2, cursor=cursor) == \
        page(api, "/v1/campaigns", limit=2, cursor=cursor)


# Invalid cursors.

def flipped(cursor: str, position: int) -> str:
    """``cursor`` with one character changed: its lowest bit flipped, or '.' made 'A'."""
    char = cursor[position]
    new = "A" if char not in BASE64URL else BASE64URL[BASE64URL.index(char) ^ 1]
    return cursor[:position] + new + cursor[position + 1:]


def positions(cursor: str) -> list[int]:
    """Characters worth altering: each end and the middle of both parts, and the separator."""
    dot = cursor.index(".") if "." in cursor else len(cursor) // 2
    return sorted({0, dot // 2, dot - 1, dot, dot + 1, len(cursor) - 1})


@pytest.mark.parametrize("role", ["full", "other", "full_live"])
@pytest.mark.parametrize("path", ["/v1/campaigns", "/v1/calls"])
def test_altered_cursor_is_refused(key_client: Callable[[str], httpx.Client], role: str,
                                   path: str) -> None:
    http = key_client(role)
    cursor = first_cursor(http, path)
    for position in positions(cursor):
        response = http.get(path, params={"limit": 1, "cursor": flipped(cursor, position)})
        assert_problem(response, 400, "invalid_cursor")


@pytest.mark.parametrize(("source", "target"), [
    ("/v1/campaigns", "/v1/calls"),
    ("/v1/calls", "/v1/campaigns"),
    ("/v1/campaigns", "/v1/leads"),
])
def test_cursor_of_another_list_is_refused(api: httpx.Client, source: str, target: str) -> None:
    cursor = first_cursor(api, source)
    assert_problem(api.get(target, params={"cursor": cursor}), 400, "invalid_cursor")


@pytest.mark.parametrize(("made_with", "used_with"), [
    ({"status": "completed"}, {}),
    ({}, {"status": "completed"}),
    ({"status": "completed"}, {"status": "draft"}),
])
def test_cursor_with_other_filters_is_refused(api: httpx.Client, made_with: dict[str, str],
                                              used_with: dict[str, str]) -> None:
    cursor = first_cursor(api, "/v1/campaigns", **made_with)
    response = api.get("/v1/campaigns", params={"cursor": cursor, **used_with})
    assert_problem(response, 400, "invalid_cursor")


@pytest.mark.parametrize("role", ["other", "reader", "full_live"])
def test_cursor_of_another_client_or_data_set_is_refused(
        api: httpx.Client, key_client: Callable[[str], httpx.Client], role: str) -> None:
    cursor = first_cursor(api, "/v1/campaigns")
    response = key_client(role).get("/v1/campaigns", params={"cursor": cursor})
    assert_problem(response, 400, "invalid_cursor")


def test_cursor_expires_after_24_hours(make_sandbox: Callable[..., Sandbox]) -> None:
    running = make_sandbox(base_config())
    with client_for(running, KEYS["full"]) as http:
        cursor = first_cursor(http, "/v1/campaigns")
        clock = "/_sandbox/clock"
        http.post(clock, json={"advance_seconds": 86_000}).raise_for_status()
        assert http.get("/v1/campaigns", params={"cursor": cursor}).status_code == 200
        http.post(clock, json={"advance_seconds": 402}).raise_for_status()
        assert_problem(http.get("/v1/campaigns", params={"cursor": cursor}), 400,
                       "invalid_cursor")


@pytest.mark.parametrize("cursor", ["abc", "a.b", "...", "x" * MAX_CURSOR_LENGTH, "%00",
                                    ".\u00fb\x1f", "abc.\u00e9t\u00e9"],
                         ids=["short", "two parts", "dots", "longest", "nul", "non-ascii body",
                              "non-ascii signature"])
def test_made_up_cursor_is_refused(api: httpx.Client, cursor: str) -> None:
    assert_problem(api.get("/v1/campaigns", params={"cursor": cursor}), 400, "invalid_cursor")


@pytest.mark.parametrize("cursor", ["", "x" * (MAX_CURSOR_LENGTH + 1)], ids=["empty", "1025"])
def test_cursor_outside_1_to_1024_chars_is_refused(api: httpx.Client, cursor: str) -> None:
    response = api.get("/v1/campaigns", params={"cursor": cursor})
    assert response.status_code == 400, response.text
    body = response.json()
    assert body["code"] in ("validation_failed", "invalid_cursor")
    assert body["errors"][0]["pointer"] == "/query/cursor"
