"""The audit's inputs checked column by column (issue 46, item 12): a phone column held as
numbers, text where a time or a number belongs, ids or a direction as numbers, a
``listed`` that is neither true nor false, are refused naming the frame, the column and
what to write instead; from the CLI, ``error: FILE: ...``, exit 2. Nothing is guessed: a
number is not given a ``+``."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

import dialkit
from dialkit.cli import app
from dialkit.compliance import AuditInputError, audit, load

runner = CliRunner()
Frames = dict[str, pd.DataFrame]


@pytest.fixture(scope="module")
def exports() -> Iterator[Frames]:
    """An account's frames, as ``load`` gives them and an export holds them."""
    with dialkit.Client.sandbox() as client:
        yield load(client)


def _bare(phones: pd.Series) -> pd.Series:
    """Phone numbers as a spreadsheet keeps them: integers, the ``+`` gone."""
    return phones.str.removeprefix("+").astype("int64")


FAULTS: list[tuple[str, str, Callable[[pd.DataFrame], pd.DataFrame], str]] = [
    ("int to_number", "calls", lambda f: f.assign(to_number=_bare(f["to_number"])),
     r"calls\.to_number holds numbers \(int64\), not text: write phone numbers as E\.164 "
     r"text with their '\+' \('\+14155550123'\)"),
    ("float from_number", "calls", lambda f: f.assign(from_number=_bare(  # "anonymous" too
        f["from_number"].where(f["from_number"].str.startswith("+"), "+1")).astype(float)),
     r"calls\.from_number holds numbers "
     r"\(float64\), not text"),
    ("digits as text", "calls", lambda f: f.assign(to_number=f["to_number"].str.removeprefix(
        "+")), r"calls\.to_number holds '\d+' at row 0, a number without its '\+'"),
    ("a text time", "calls", lambda f: f.assign(created_at="yesterday"),
     r"calls\.created_at holds 'yesterday' at row 0, which is not an ISO 8601 time"),
    ("a text duration", "calls", lambda f: f.assign(duration_seconds="long"),
     r"calls\.duration_seconds holds 'long' at row 0, which is not a number of seconds"),
    ("int direction", "calls", lambda f: f.assign(direction=1),
     r"calls\.direction holds numbers \(int64\), not text: write it as text"),
    ("int ids", "calls", lambda f: f.assign(id=range(len(f))),
     r"calls\.id holds numbers \(int64\), not text"),
    ("a number among ids", "calls", lambda f: f.assign(
        campaign_id=f["campaign_id"].astype(object).where(f.index > 2, 7)),
     r"calls\.campaign_id holds 7 \(int\) at row 0, not text"),
    ("a missing column", "calls", lambda f: f.drop(columns="to_number"),
     r"calls has no column to_number"),
    ("int lead phone", "leads", lambda f: f.assign(phone=_bare(f["phone"])),
     r"leads\.phone holds numbers \(int64\), not text: write phone numbers as E\.164"),
    ("int lead status", "leads", lambda f: f.assign(status=4),
     r"leads\.status holds numbers \(int64\), not text"),
    ("int dnc phone", "dnc", lambda f: f.assign(phone=_bare(f["phone"])),
     r"dnc\.phone holds numbers \(int64\), not text"),
    ("a listed neither true nor false", "dnc", lambda f: f.assign(listed="maybe"),
     r"dnc\.listed holds 'maybe' at row 0: write true or false"),
]


@pytest.mark.parametrize(("frame", "spoilt", "said"), [f[1:] for f in FAULTS],
                         ids=[f[0] for f in FAULTS])
def test_a_column_of_the_wrong_kind_is_refused_naming_it(
        exports: Frames, frame: str, spoilt: Callable[[pd.DataFrame], pd.DataFrame],
        said: str) -> None:
    given = {**exports, frame: spoilt(exports[frame].reset_index(drop=True))}
    with pytest.raises(AuditInputError, match=said) as raised:
        audit(**given)
    assert raised.value.frame == frame


def test_what_an_export_writes_as_text_is_read_back(exports: Frames, tmp_path: Path) -> None:
    """A CSV's durations, and its listed as true/false, are numbers and booleans again:
    the same findings as the frames."""
    for name, frame in exports.items():
        frame.to_csv(tmp_path / f"{name}.csv", index=False)
    read = {name: dialkit.compliance.read_export(tmp_path / f"{name}.csv") for name in exports}
    assert len(audit(**read).findings) == len(audit(**exports).findings)


@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
def test_the_cli_names_the_file_and_exits_2(exports: Frames, tmp_path: Path,
                                            suffix: str) -> None:
    path = tmp_path / f"calls{suffix}"
    spoilt = exports["calls"].assign(to_number=_bare(exports["calls"]["to_number"]))
    if suffix == ".csv":
        spoilt.to_csv(path, index=False)  # digits, no '+': what a spreadsheet writes
    else:
        spoilt.to_parquet(path, index=False)
    result = runner.invoke(app, ["compliance", "audit", "--calls", str(path)])
    assert result.exit_code == 2, result.output
    assert result.output.startswith(f"error: {path}: calls.to_number holds ")
    assert "E.164 text with their '+'" in result.output
    assert "Traceback" not in result.output
