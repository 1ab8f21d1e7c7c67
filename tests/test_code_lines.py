"""``benchmarks/code_lines.py``, the count issue 49's line target is measured by: every
line counted once, as blank, docstring or code, docstrings found as ``ast`` finds them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import code_lines  # noqa: E402

SOURCE = '''"""A module's docstring,
on two lines."""

LIMIT = 3
"""An attribute's docstring."""
NOTE = "a string value, not a docstring"


class Shape:
    """A class's docstring."""

    size = 2
    """A class attribute's docstring."""

    def area(self) -> int:
        """A method's docstring."""
        text = "a string in code"
        return self.size * LIMIT  # a comment after code
'''


def test_docstrings_are_the_documented_strings_and_nothing_else() -> None:
    lines = SOURCE.splitlines()
    found = {lines[number - 1].strip() for number in code_lines.docstring_lines(SOURCE)}
    assert found == {'"""A module\'s docstring,', 'on two lines."""',
                     '"""An attribute\'s docstring."""', '"""A class\'s docstring."""',
                     '"""A class attribute\'s docstring."""', '"""A method\'s docstring."""'}


def test_every_line_of_a_commit_is_counted_once() -> None:
    root = BENCHMARKS.parent
    folder = "benchmarks"
    counted = code_lines.counted("HEAD", [folder])
    files = subprocess.run(["git", "ls-files", folder], capture_output=True, text=True,
                           check=True, cwd=root).stdout.split()
    shown = [subprocess.run(["git", "show", f"HEAD:{path}"], capture_output=True, text=True,
                            check=True, cwd=root).stdout for path in files if path.endswith(".py")]
    assert counted["lines"] == sum(len(text.splitlines()) for text in shown)
    assert counted["lines"] == counted["blank"] + counted["docstrings"] + counted[
        "code and comments"]
    assert counted["blank"] == sum(not line.strip() for text in shown
                                   for line in text.splitlines())
