"""Every error code of the contract is provoked over HTTP by at least one test.

A guard over the suite itself: a code added to the contract (or a test
removed) without a test that makes the emulator answer it fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dialkit.contract import ErrorCode

TESTS = Path(__file__).parent
QUOTED = re.compile(r'"([a-z_]+)"')


def _provoked_codes() -> set[str]:
    """Codes quoted in test files that check problem answers (directly or through a table)."""
    codes: set[str] = set()
    for path in TESTS.glob("test_*.py"):
        text = path.read_text(encoding="utf-8")
        if path.name != Path(__file__).name and "assert_problem(" in text:
            codes.update(QUOTED.findall(text))
    return codes


@pytest.mark.parametrize("code", sorted(ErrorCode))
def test_error_code_is_provoked_by_a_test(code: ErrorCode) -> None:
    assert code.value in _provoked_codes(), f"no test answers {code.value} over HTTP"
