"""``benchmarks/homes.py``, the count issue 63's "one home per idea" rows are measured by:
each counter finds its idea outside its home, and nothing else."""

from __future__ import annotations

import ast
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import homes  # noqa: E402

Row = Callable[[ast.AST, str], int]

SOURCE = '''
import re
from datetime import datetime
import phonenumbers
import pandas as pd

_E164 = re.compile(E164_PATTERN)
_OTHER = re.compile(r"\\+\\d{6,15}")
CALLING_HOURS = (8, 21)


def read(text):
    return datetime.fromisoformat(text), pd.to_datetime(text, utc=True)


def utc_times(values, where):
    return pd.to_datetime(values, utc=True, format="ISO8601")
'''


@pytest.mark.parametrize("row, path, expected", [
    (homes.iso_parsers, "src/dialkit/sandbox/_server.py", 1),
    (homes.iso_parsers, "src/dialkit/_utils/_moments.py", 0),
    (homes.utc_to_datetime, "src/dialkit/frames/_schemas.py", 1),
    (homes.e164_patterns, "src/dialkit/mcp/_confirm.py", 2),
    (homes.e164_patterns, "src/dialkit/contract/_requests.py", 0),
    (homes.phonenumbers_imports, "src/dialkit/sandbox/_world/_kept_law/_place.py", 1),
    (homes.phonenumbers_imports, "src/dialkit/_phones/_asked.py", 0),
    (homes.phonenumbers_imports, "src/dialkit/leads/_normalize/_fast.py", 0),
    (homes.calling_hours, "src/dialkit/sandbox/_state/_compliance.py", 1),
    (homes.calling_hours, "src/dialkit/contract/_limits.py", 0),
])
def test_each_row_counts_its_idea_outside_its_home(row: Row, path: str, expected: int) -> None:
    assert row(ast.parse(SOURCE), path) == expected


@pytest.mark.parametrize("row", list(homes.ROWS.values()))
def test_a_module_without_the_idea_counts_nothing(row: Row) -> None:
    source = "import re\nfrom dialkit.contract import is_e164, CALLING_HOURS\nx = is_e164('+1')\n"
    assert row(ast.parse(source), "src/dialkit/sandbox/_x.py") == 0
