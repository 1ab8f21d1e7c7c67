"""The dispositions report over HTTP: date range, campaign filter, ordering and limits."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from datetime import date
from typing import Any

import httpx
import pytest

from conftest import assert_problem

PATH = "/v1/reports/dispositions"
TODAY = "2026-11-02"


def _report(http: httpx.Client, **params: Any) -> dict[str, Any]:
    response = http.get(PATH, params=params)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def _counts(report: dict[str, Any]) -> Counter[str]:
    return Counter({row["disposition_code"]: row["count"] for row in report["data"]})


def test_default_is_the_last_seven_days(api: httpx.Client) -> None:
    report = _report(api)
    assert (report["from"], report["to"], report["campaign_id"]) == ("2026-10-27", TODAY, None)
    assert report == _report(api, **{"from": "2026-10-27", "to": TODAY})
    assert report["total"] > 0


def test_rows_are_sorted_by_count_and_add_up(api: httpx.Client) -> None:
    report = _report(api, **{"from": "2026-10-01"})
    counts = [row["count"] for row in report["data"]]
    assert counts == sorted(counts, reverse=True)
    assert all(set(row) == {"disposition_code", "count"} for row in report["data"])
    assert all(row["disposition_code"] and row["count"] > 0 for row in report["data"])
    assert report["total"] == sum(counts)


def test_adjacent_ranges_add_up(api: httpx.Client) -> None:
    whole = _report(api, **{"from": "2026-10-10", "to": TODAY})
    first = _report(api, **{"from": "2026-10-10", "to": "2026-10-20"})
    second = _report(api, **{"from": "2026-10-21", "to": TODAY})
    assert first["total"] and second["total"]
    assert _counts(first) + _counts(second) == _counts(whole)


def test_campaign_filter_splits_the_total(api: httpx.Client) -> None:
    campaigns = api.get("/v1/campaigns", params={"limit": 100}).json()["data"]
    window = {"from": "2026-10-01", "to": TODAY}
    whole = _report(api, **window)
    parts = [_report(api, campaign_id=c["id"], **window) for c in campaigns]
    assert all(p["campaign_id"] == c["id"] for p, c in zip(parts, campaigns, strict=True))
    assert 0 < max(p["total"] for p in parts) < whole["total"]
    assert sum(p["total"] for p in parts) <= whole["total"]


def test_empty_range_and_unknown_campaign_count_nothing(api: httpx.Client) -> None:
    assert _report(api, **{"from": "2020-01-01", "to": "2020-01-31"})["data"] == []
    unknown = _report(api, campaign_id="cmp_00000000-0000-4000-8000-000000000000")
    assert (unknown["total"], unknown["data"]) == (0, [])


@pytest.mark.parametrize(("params", "days"), [
    ({"from": "2026-08-03", "to": TODAY}, 92),
    ({"from": TODAY, "to": TODAY}, 1),
    ({"to": "2026-10-31"}, 7),
])
def test_range_within_the_limit_is_answered(api: httpx.Client, params: dict[str, str],
                                            days: int) -> None:
    report = _report(api, **params)
    assert (date.fromisoformat(report["to"]) - date.fromisoformat(report["from"])).days + 1 == days


@pytest.mark.parametrize(("params", "pointer", "code"), [
    ({"from": "2026-08-02", "to": TODAY}, "/query/to", "range_too_long"),
    ({"from": "2026-01-01"}, "/query/to", "range_too_long"),
    ({"from": TODAY, "to": "2026-11-01"}, "/query/to", "before_from"),
    ({"from": "02/11/2026"}, "/query/from", "invalid_type"),
    ({"to": "yesterday"}, "/query/to", "invalid_type"),
    ({"to": "0"}, "/query/to", "invalid_type"),  # not a Unix time: 1970-01-01
    ({"from": "1793000000", "to": TODAY}, "/query/from", "invalid_type"),
    ({"campaign_id": "cmp_1"}, "/query/campaign_id", "invalid"),
    ({"from_": TODAY}, "/query/from_", "unknown_field"),
    ({"limit": 10}, "/query/limit", "unknown_field"),
])
def test_bad_queries_are_refused(api: httpx.Client, params: dict[str, str], pointer: str,
                                 code: str) -> None:
    problem = assert_problem(api.get(PATH, params=params), 400, "validation_failed")
    assert {"pointer": pointer, "code": code} in problem["errors"]


def test_needs_the_reports_scope(key_client: Callable[[str], httpx.Client]) -> None:
    assert _report(key_client("reader"))["total"] > 0
    assert_problem(key_client("noscope").get(PATH), 403, "insufficient_scope")


@pytest.mark.parametrize(("params", "first", "last"), [
    ({"to": "0001-01-01"}, "0001-01-01", "0001-01-01"),
    ({"to": "0001-01-03"}, "0001-01-01", "0001-01-03"),
    ({"from": "9999-12-31", "to": "9999-12-31"}, "9999-12-31", "9999-12-31"),
])
def test_ranges_at_the_ends_of_the_calendar_are_answered(api: httpx.Client,
                                                         params: dict[str, str], first: str,
                                                         last: str) -> None:
    answer = api.get("/v1/reports/dispositions", params=params)
    assert answer.status_code == 200, answer.text
    assert (answer.json()["from"], answer.json()["to"], answer.json()["total"]) == (first, last, 0)
