"""CHANGELOG.md keeps one shape (issue 24): a reader finds a release's additions in one
place, and each entry says which issue it came from."""

from __future__ import annotations

import re
from pathlib import Path

CHANGELOG = Path(__file__).resolve().parents[1] / "CHANGELOG.md"
KINDS = ("Added", "Changed", "Fixed", "Removed", "Deprecated", "Security")
ENTRY = re.compile(r"- Issue #(\d+)\b")


def shape(text: str) -> list[str]:
    """Each way ``text`` breaks the shape: kinds once per release and in the order of
    :data:`KINDS`, every entry naming its issue, newest issue first within a kind."""
    problems: list[str] = []
    release, kinds, last = "", [], None
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("## "):
            release, kinds, last = line[3:], [], None
        elif line.startswith("### "):
            kind = line[4:].strip()
            if kind not in KINDS:
                problems.append(f"line {number}: {kind!r} is not one of {KINDS}")
            elif kind in kinds:
                problems.append(f"line {number}: a second {kind!r} in {release!r}")
            elif kinds and KINDS.index(kind) < KINDS.index(kinds[-1]):
                problems.append(f"line {number}: {kind!r} after {kinds[-1]!r} in {release!r}")
            kinds.append(kind)
            last = None
        elif line.startswith("- "):
            found = ENTRY.match(line)
            if not found:
                problems.append(f"line {number}: an entry that names no issue: {line[:60]!r}")
                continue
            issue = int(found.group(1))
            if last is not None and issue > last:
                problems.append(f"line {number}: issue #{issue} after #{last} (newest first)")
            last = issue
    return problems


def test_the_changelog_keeps_its_shape() -> None:
    assert shape(CHANGELOG.read_text(encoding="utf-8")) == []


def test_the_shape_check_finds_each_fault() -> None:
    faulty = "\n".join([
        "## Unreleased", "### Added", "- Issue #3 — a", "- Issue #5 — b",
        "- found on review, no issue", "### Fixed", "- Issue #1 — c", "### Added",
        "## 0.1", "### Fixed", "### Added", "### Nonsense"])
    problems = shape(faulty)
    assert len(problems) == 5, problems
    assert "#5 after #3" in problems[0]
    assert "names no issue" in problems[1]
    assert "a second 'Added'" in problems[2]
    assert "'Added' after 'Fixed'" in problems[3]
    assert "'Nonsense' is not one of" in problems[4]
