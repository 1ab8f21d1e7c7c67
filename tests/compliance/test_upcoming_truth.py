"""On the emulator's seeded worlds, ``upcoming`` finds exactly the scheduled calls the
world planted against the law (issue 38): a pending callback at 22:30 local time, a
lead's next attempt at 07:00, a callback whose number was listed after it was set; every
other pending callback and next attempt lies where the law of the place allows it."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pandas as pd
import pytest

from conftest import START
from dialkit import Client
from dialkit.compliance import HOUSE_RULES, upcoming
from dialkit.sandbox import parse_config, start

KEY = "svc_test_planner01_AAAAbbbbCCCCddddEEEEffff0011"
KIND_OF = {"upcoming_callback_hours": "callback", "upcoming_callback_dnc": "callback",
           "upcoming_attempt_hours": "next_attempt"}


@pytest.fixture(scope="module", params=["small", "medium"])
def judged(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[tuple[pd.DataFrame, dict[str, list[dict[str, str]]], pd.DataFrame]]:
    config = {"server": {"rate_limit_scale": 0, "clock": "manual", "start_time": START},
              "accounts": [{"name": "acme", "seed": 7, "scale": request.param,
                            "clients": [{"name": "planner", "keys": [{"key": KEY}], "scopes": [
                                "calls:read", "leads:read", "dnc:check", "callbacks:read",
                                "campaigns:read"]}]}]}
    with pytest.MonkeyPatch.context() as patch, start(parse_config(config)) as sandbox:
        patch.setenv("DIALKIT_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
        truth = httpx.get(f"{sandbox.base_url}/_sandbox/upcoming-truth",
                          params={"account": "acme"}).json()["problems"]
        with Client(KEY, base_url=sandbox.base_url, rate_limit=None) as client:
            found = upcoming(client, horizon="14D", as_of=START)
            with_policy = upcoming(client, horizon="14D", as_of=START, policy=HOUSE_RULES)
    yield found, truth, with_policy


def test_the_world_plants_every_kind(judged: tuple[pd.DataFrame, dict, pd.DataFrame],
                                     request: pytest.FixtureRequest) -> None:
    """Every kind at medium; the small world's paused campaigns may hold one pending
    callback only, so it plants the hours kinds at least."""
    _, truth, _ = judged
    hours = {"upcoming_callback_hours", "upcoming_attempt_hours"}
    assert hours <= set(truth) <= set(KIND_OF) and all(truth.values())
    if "medium" in request.node.name:
        assert set(truth) == set(KIND_OF)


def test_upcoming_finds_exactly_the_planted_calls(
        judged: tuple[pd.DataFrame, dict, pd.DataFrame]) -> None:
    found, truth, _ = judged
    planted = {(p["lead_id"], p["rule"], KIND_OF[kind]) for kind, problems in truth.items()
               for p in problems}
    assert set(zip(found["lead_id"], found["rule"], found["kind"].astype(str),
                   strict=True)) == planted
    due = {p["lead_id"]: pd.Timestamp(p["due_at"]) for problems in truth.values()
           for p in problems}
    assert (found["at"] == found["lead_id"].map(due)).all()
    assert (found["basis"] == "law").all()
    assert (found["due_in"] == found["at"] - pd.Timestamp(START)).all()


def test_a_policy_adds_only_policy_findings(
        judged: tuple[pd.DataFrame, dict, pd.DataFrame]) -> None:
    found, _, with_policy = judged
    law = with_policy[with_policy["basis"] == "law"]
    assert set(zip(law["lead_id"], law["rule"], strict=True)) == set(
        zip(found["lead_id"], found["rule"], strict=True))
    assert (with_policy.loc[with_policy["basis"] == "policy", "policy"]
            == HOUSE_RULES.name).all()
