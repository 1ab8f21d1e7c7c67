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


RELEASE = re.compile(r"## \[\d+\.\d+\.\d+\] - \d{4}-\d{2}-\d{2}")


def releases(text: str) -> list[str]:
    """Each way ``text`` breaks the releases' shape (issue 63): ``## Unreleased`` first,
    one line a change in it; then each release with its version and date, as Keep a
    Changelog writes them (``## [0.1.0] - 2026-11-26``)."""
    problems: list[str] = []
    heads = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.startswith("## ")]
    if not heads or heads[0][1] != "## Unreleased":
        problems.append("the first section is not '## Unreleased'")
    problems += [f"line {n}: {line!r} is not '## [X.Y.Z] - YYYY-MM-DD'"
                 for n, line in heads[1:] if not RELEASE.fullmatch(line)]
    if len(heads) > 1 and heads[0][1] == "## Unreleased":
        lines = text.splitlines()[heads[0][0]:heads[1][0] - 1]
        problems += [f"line {heads[0][0] + 1 + i}: an Unreleased entry of more than one line"
                     for i, line in enumerate(lines) if line.startswith("  ")]
    return problems


def test_the_changelog_keeps_its_shape() -> None:
    text = CHANGELOG.read_text(encoding="utf-8")
    assert shape(text) == []
    assert releases(text) == []


def test_the_release_check_finds_each_fault() -> None:
    faulty = "\n".join(["## 0.2", "### Added", "- Issue #3 — a", "  more", "## 0.1"])
    assert [p.split(":")[0] for p in releases(faulty)] == [
        "the first section is not '## Unreleased'", "line 5"]
    long = "\n".join(["## Unreleased", "### Added", "- Issue #3 — a", "  more",
                       "## [0.1.0] - 2026-11-26"])
    assert releases(long) == ["line 4: an Unreleased entry of more than one line"]


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
