"""docs/frames.md says what the code does: every schema column and every default."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest

from dialkit.frames import SCHEMAS, SPECS

DOCS = Path(__file__).parents[2] / "docs" / "frames.md"
UNITS = {"min": "minutes", "h": "hours"}


def _documented_columns(frame: str) -> list[tuple[str, str]]:
    """(column, kind) rows of the frame's table under "## Schemas"."""
    schemas = DOCS.read_text("utf-8").split("## Schemas", 1)[1]
    section = schemas.split(f"### {frame}\n", 1)[1].split("\n#", 1)[0]
    return re.findall(r"^\| `([^`]+)` \| ([a-z]+)", section, re.MULTILINE)


def _frames_table() -> dict[str, list[str]]:
    """The "The frames" table by method name: its cells."""
    table = DOCS.read_text("utf-8").split("## The frames", 1)[1].split("\n\n", 2)[1]
    rows = [row.strip("|").split("|") for row in table.splitlines()[2:]]
    return {re.match(r"\s*`(\w+)", row[0]).group(1): [c.strip() for c in row]  # type: ignore[union-attr]
            for row in rows}


def _duration(text: str) -> timedelta:
    amount, unit = text.split()
    return timedelta(**{UNITS[unit]: float(amount)})


@pytest.mark.parametrize("frame", sorted(SCHEMAS))
def test_every_column_is_documented_with_its_kind(frame: str) -> None:
    assert _documented_columns(frame) == [(c.name, c.kind) for c in SCHEMAS[frame].columns]


def test_the_frames_table_names_every_frame() -> None:
    assert set(_frames_table()) == set(SCHEMAS)


@pytest.mark.parametrize("frame", sorted(SPECS))
def test_documented_refresh_defaults_are_the_real_ones(frame: str) -> None:
    _, _, kind, max_age, overlap = _frames_table()[frame]
    spec = SPECS[frame]
    assert kind == ("full" if spec.overlap is None else "incremental")
    assert _duration(max_age) == spec.max_age
    assert (overlap == "–") if spec.overlap is None else (_duration(overlap) == spec.overlap)
