"""Polars and Arrow in (issue 39): every entry point that takes a frame gives a Polars
DataFrame's and a pyarrow Table's rows the answer it gives the pandas frame they came
from, frame by frame, on the emulator's account; anything else is a TypeError that
names what is taken."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

import dialkit
from dialkit import analytics, compliance, leads
from dialkit.frames._tabular import ACCEPTED, as_pandas

KINDS = ("polars", "arrow")
"""The libraries a frame is handed over in, beside pandas."""


def handed(frame: pd.DataFrame, kind: str) -> Any:
    """``frame``'s rows as a Polars DataFrame or a pyarrow Table."""
    table = pa.Table.from_pandas(frame, preserve_index=False)
    return pl.from_arrow(table) if kind == "polars" else table


@pytest.fixture(scope="module")
def frames() -> dict[str, pd.DataFrame]:
    """The emulator's account as pandas frames: the analytics', the audit's, campaigns."""
    client = dialkit.Client.sandbox()
    try:
        return {**analytics.load(client), **compliance.load(client),
                "campaigns": client.frames.campaigns()}
    finally:
        client.close()


def both(frames: dict[str, pd.DataFrame], kind: str,
         names: tuple[str, ...]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The named frames as pandas, and as ``kind``."""
    mine = {name: frames[name] for name in names}
    return mine, {name: handed(frame, kind) for name, frame in mine.items()}


ANALYTICS: dict[str, tuple[tuple[str, ...], Callable[..., pd.DataFrame]]] = {
    "funnel": (("leads", "calls", "callbacks", "appointments"), analytics.funnel),
    "answer_rates": (("calls",), analytics.answer_rates),
    "answer_rates by campaign": (("calls",), lambda calls: analytics.answer_rates(
        calls, by=("campaign_id", "zone"))),
    "attempts_to_contact": (("leads", "calls"), analytics.attempts_to_contact),
    "disposition_mix": (("calls",), analytics.disposition_mix),
    "hangup_causes": (("calls",), lambda calls: analytics.hangup_causes(calls, freq="D")),
    "compare": (("calls",), lambda calls: analytics.compare(calls, calls)),
}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", ANALYTICS)
def test_an_analytics_function_answers_a_frame_of_any_kind_as_it_answers_pandas(
        frames: dict[str, pd.DataFrame], name: str, kind: str) -> None:
    names, function = ANALYTICS[name]
    pandas_frames, other = both(frames, kind, names)
    expected = function(**pandas_frames)
    assert len(expected) > 0
    pd.testing.assert_frame_equal(function(**other), expected)


@pytest.mark.parametrize("kind", KINDS)
def test_biggest_loss_takes_the_funnel_as_a_frame_of_any_kind(
        frames: dict[str, pd.DataFrame], kind: str) -> None:
    table = analytics.funnel(frames["leads"], frames["calls"])
    pd.testing.assert_frame_equal(analytics.biggest_loss(handed(table, kind)),
                                  analytics.biggest_loss(table))


@pytest.mark.parametrize("kind", KINDS)
def test_the_audit_of_frames_of_any_kind_is_the_audit_of_pandas(
        frames: dict[str, pd.DataFrame], kind: str) -> None:
    pandas_frames, other = both(frames, kind, ("calls", "leads", "dnc"))
    expected = compliance.audit(**pandas_frames, as_of="2026-11-02")
    found = compliance.audit(**other, as_of="2026-11-02")
    assert len(expected.findings) > 0
    for part in ("findings", "abandoned", "population"):
        pd.testing.assert_frame_equal(getattr(found, part), getattr(expected, part))
    assert found.ran == expected.ran


def lead_file(frames: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """The account's leads as a vendor's file: text columns, and a number column."""
    file = frames["leads"][["phone", "full_name", "email", "external_id", "attempts"]]
    return file.rename(columns={"phone": "Mobile", "full_name": "Name"})


@pytest.mark.parametrize("kind", KINDS)
def test_a_lead_file_of_any_kind_reads_and_cleans_as_the_pandas_frame(
        frames: dict[str, pd.DataFrame], kind: str) -> None:
    file = lead_file(frames)
    expected, found = leads.read(file), leads.read(handed(file, kind))
    assert found.fields == expected.fields == {
        "phone": "Mobile", "full_name": "Name", "email": "email", "external_id": "external_id"}
    pd.testing.assert_frame_equal(found.frame, expected.frame)
    pd.testing.assert_frame_equal(found.numbers, expected.numbers)
    cleaned, wanted = leads.clean(handed(file, kind)), leads.clean(file)
    assert len(wanted.frame) == len(file)
    pd.testing.assert_frame_equal(cleaned.frame, wanted.frame)
    pd.testing.assert_frame_equal(cleaned.summary, wanted.summary)


@pytest.mark.parametrize("kind", KINDS)
def test_the_explorer_takes_frames_of_any_kind(frames: dict[str, pd.DataFrame],
                                               kind: str) -> None:
    names = ("leads", "calls", "callbacks", "appointments", "campaigns")
    pandas_frames, other = both(frames, kind, names)
    expected, found = analytics.Explorer(pandas_frames), analytics.Explorer(other)
    assert found.campaigns.options == expected.campaigns.options
    assert found.table.value == expected.table.value
    assert found.note.value == expected.note.value


def test_pandas_comes_back_as_itself_and_arrow_with_the_frames_dtypes(
        frames: dict[str, pd.DataFrame]) -> None:
    calls = frames["calls"]
    assert as_pandas(calls, "calls") is calls
    for kind in KINDS:
        assert dict(as_pandas(handed(calls, kind), "calls").dtypes) == dict(calls.dtypes)


REFUSED: dict[str, Callable[[Any], object]] = {
    "funnel": lambda bad: analytics.funnel(bad, bad),
    "answer_rates": analytics.answer_rates,
    "attempts_to_contact": lambda bad: analytics.attempts_to_contact(bad, bad),
    "disposition_mix": analytics.disposition_mix,
    "audit": compliance.audit,
    "read": leads.read,
    "clean": leads.clean,
    "explore": lambda bad: analytics.Explorer({"leads": bad, "calls": bad}),
}


@pytest.mark.parametrize("bad", [[{"phone": "+14155550199"}], {"phone": ["+14155550199"]}, 3],
                         ids=["list", "dict", "int"])
@pytest.mark.parametrize("name", REFUSED)
def test_what_is_no_frame_is_a_type_error_naming_what_is_taken(name: str, bad: Any) -> None:
    with pytest.raises(TypeError, match=rf"must be (a path, a binary file object, or )?"
                       rf"{ACCEPTED}.*, not {type(bad).__name__}$"):
        REFUSED[name](bad)
