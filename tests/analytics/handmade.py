"""Small frames made by hand, in the columns of ``client.frames``."""

from __future__ import annotations

from typing import Any

import pandas as pd

TIMES = ("created_at", "answered_at", "ended_at", "scheduled_at")
CALL = {"direction": "outbound", "from_number": "+14155550100", "status": "completed",
        "answered_at": None, "ended_at": None, "duration_seconds": None,
        "campaign_id": "cmp_1", "disposition": None, "hangup_cause": None,
        "agent_joined_at": None}


def frame(rows: list[dict[str, Any]], prefix: str, base: dict[str, Any]) -> pd.DataFrame:
    """A frame of ``rows`` over ``base``, ids ``prefix_0``..., times as UTC."""
    made = pd.DataFrame([{"id": f"{prefix}_{n}", **base, **row} for n, row in enumerate(rows)])
    for column in TIMES:
        if column in made:
            made[column] = pd.to_datetime(made[column], utc=True, format="ISO8601")
    return made


def calls(*rows: dict[str, Any]) -> pd.DataFrame:
    """Outbound calls of ``cmp_1``, unanswered unless a row says otherwise."""
    return frame(list(rows), "call", CALL)


def answered(to: str, at: str, talk: float, disposition: str | None = None,
             **more: Any) -> dict[str, Any]:
    """An answered call's row: rang 5 s, talked ``talk`` seconds."""
    start = pd.Timestamp(at)
    return {"to_number": to, "created_at": at, "status": "completed",
            "answered_at": start + pd.Timedelta(seconds=5),
            "ended_at": start + pd.Timedelta(seconds=5 + talk), "disposition": disposition,
            **more}


def leads(*rows: tuple[str, str]) -> pd.DataFrame:
    """Leads from (campaign_id, phone) pairs."""
    return frame([{"campaign_id": c, "phone": p} for c, p in rows], "lead",
                 {"status": "new", "attempts": 0, "created_at": "2026-05-01T00:00:00Z"})


def arrow(made: pd.DataFrame) -> pd.DataFrame:
    """``made`` with its text columns as Arrow text, as ``client.frames`` holds them (the
    analytics keep what they hash of such columns while their data live)."""
    return made.astype({c: "string[pyarrow]" for c in made.columns if made[c].dtype == object})
