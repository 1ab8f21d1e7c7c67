"""The judges before a call take their frames in every container the audit takes (a
pandas or Polars DataFrame, a pyarrow Table) and answer alike. ``next_allowed`` refused
Polars and Arrow leads, and failed on Polars calls, texts or DNC results with Polars'
``AttributeError``; ``upcoming`` and ``repair`` failed on any frame given of Polars."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd
import pyarrow as pa
import pytest

from dialkit.compliance import next_allowed, repair, upcoming

SALT_LAKE = "+18015550123"
LEADS = pd.DataFrame({"id": ["lead_1"], "campaign_id": ["cmp_1"], "phone": [SALT_LAKE],
                      "status": ["new"],
                      "next_attempt_at": [pd.Timestamp("2026-11-23T05:00Z")]})
CALLS = pd.DataFrame({
    "id": ["call_1"], "direction": "outbound", "from_number": "+14155550100",
    "to_number": [SALT_LAKE], "created_at": [pd.Timestamp("2026-11-22T05:00Z")],
    "answered_at": pd.NaT, "ended_at": pd.NaT, "campaign_id": "cmp_1", "disposition": None})
TEXTS = pd.DataFrame({"message_id": ["sms_1"], "to": [SALT_LAKE],
                      "created_at": [pd.Timestamp("2026-11-22T06:00Z")]})
DNC = pd.DataFrame({"phone": [SALT_LAKE], "listed": [True],
                    "checked_at": [pd.Timestamp("2026-11-20T00:00Z")],
                    "listed_at": [pd.Timestamp("2026-01-05T00:00Z")]})
CALLBACKS = pd.DataFrame({"id": ["cb_1"], "lead_id": ["lead_1"], "campaign_id": ["cmp_1"],
                          "scheduled_at": [pd.Timestamp("2026-11-23T06:00Z")],
                          "status": ["pending"]})
"""A Utah lead called Sunday, texted, listed since January, with a callback and its next
attempt both due at night (Monday 23:00 and 22:00 in Salt Lake City)."""


def polars(frame: pd.DataFrame) -> Any:
    return pytest.importorskip("polars").from_pandas(frame)


def arrow(frame: pd.DataFrame) -> pa.Table:
    return pa.Table.from_pandas(frame, preserve_index=False)


CONTAINERS: dict[str, Callable[[pd.DataFrame], Any]] = {"polars": polars, "arrow": arrow}


def answers(frame: pd.DataFrame, columns: list[str]) -> list[list[str]]:
    return frame[columns].astype(str).values.tolist()


@pytest.mark.parametrize("container", sorted(CONTAINERS))
@pytest.mark.parametrize("given", ["leads", "calls", "texts", "dnc"])
def test_next_allowed_answers_alike_of_every_container(container: str, given: str) -> None:
    frames = {"leads": LEADS, "calls": CALLS, "texts": TEXTS, "dnc": DNC}
    at = "2026-11-23T18:00Z"
    asked = dict(frames, **{given: CONTAINERS[container](frames[given])})
    columns = ["phone", "allowed", "next_allowed_at", "rule", "forbidden_by"]
    plain = next_allowed(frames["leads"], at, calls=CALLS, texts=TEXTS, dnc=DNC)
    assert plain["rule"].tolist() == ["dnc_call"]
    assert answers(next_allowed(asked.pop("leads"), at, **asked), columns) == answers(
        plain, columns)


@pytest.mark.parametrize("container", sorted(CONTAINERS))
@pytest.mark.parametrize("given", ["leads", "calls", "callbacks", "dnc", "texts"])
def test_upcoming_and_repair_answer_alike_of_every_container(container: str,
                                                             given: str) -> None:
    frames = {"leads": LEADS, "calls": CALLS, "callbacks": CALLBACKS, "dnc": DNC,
              "texts": TEXTS}
    plain = upcoming(frames, as_of="2026-11-22T12:00Z")
    assert sorted(plain["rule"].astype(str)) == ["calling_hours", "calling_hours",
                                                 "dnc_call", "dnc_call"]
    held = dict(frames, **{given: CONTAINERS[container](frames[given])})
    found = upcoming(held, as_of="2026-11-22T12:00Z")
    columns = ["kind", "call_id", "lead_id", "rule", "at", "evidence"]
    assert answers(found, columns) == answers(plain, columns)
    plan = ["action", "callback_id", "new_at", "reason"]
    assert answers(repair(found, None, frames=held), plan) == answers(
        repair(plain, None, frames=frames), plan)


@pytest.mark.parametrize("held", ["arrow array", "arrow chunked", "polars series"])
def test_next_allowed_takes_numbers_held_by_arrow_or_polars(held: str) -> None:
    numbers = [SALT_LAKE, "+12125550123"]
    given: Any = {"arrow array": lambda: pa.array(numbers),
                  "arrow chunked": lambda: pa.chunked_array([numbers[:1], numbers[1:]]),
                  "polars series": lambda: pytest.importorskip("polars").Series(numbers)}[held]()
    at = "2026-11-23T18:00Z"
    columns = ["phone", "allowed", "next_allowed_at"]
    assert answers(next_allowed(given, at), columns) == answers(next_allowed(numbers, at),
                                                                columns)
