"""The Python blocks of the project's markdown (the README, ``docs/*.md``), run as written.

Shared by the README's tests and ``test_docs``: :func:`python_blocks` finds the fenced
``python`` blocks of a file (or of one of its ``## `` sections) with the line each
starts on, and :func:`run` runs one in a namespace, as a reader pasting the blocks of a
page into one session or notebook would: a traceback names the markdown file and its
line, a top-level ``await`` works as in a notebook, and a block written as a ``>>>``
session is checked as a doctest (its shown output must be what it prints).

A block that is deliberately not runnable (a fragment of a web handler, a sketch of
names the page explains) says so just above its fence, with the reason::

    <!-- not run: a fragment of a request handler -->
"""

from __future__ import annotations

import ast
import asyncio
import doctest
import inspect
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
FENCE = re.compile(r"^```python\n(.*?)^```", re.DOTALL | re.MULTILINE)
TERMINAL_WIDTH = 120
"""The reader's terminal: pandas shows a frame this wide before it wraps (where it cannot
ask the terminal, as under pytest, it cuts columns at 80)."""
NOT_RUN = re.compile(r"<!-- not run: ([^\n]+?) -->\s*\Z")


@dataclass(frozen=True)
class Block:
    """One fenced ``python`` block of a markdown file."""

    path: Path
    line: int
    """The file's line of the block's first line of code (1-based)."""
    source: str
    not_run: str | None
    """The reason of a ``<!-- not run: ... -->`` comment just above the fence, if any."""

    def __str__(self) -> str:
        shown = self.path.relative_to(ROOT) if self.path.is_relative_to(ROOT) else self.path
        return f"{shown}:{self.line}"


def python_blocks(path: Path, section: str | None = None) -> list[Block]:
    """The ``python`` blocks of the markdown file ``path`` in order; only those under the
    ``## {section}`` heading (up to the next ``## ``) when a section is named."""
    text = path.read_text("utf-8")
    start, end = 0, len(text)
    if section is not None:
        heading = re.search(rf"^## {re.escape(section)}\n", text, re.MULTILINE)
        assert heading, f"{path.name} has no '## {section}' section"
        start = heading.end()
        following = re.compile(r"^## ", re.MULTILINE).search(text, start)
        end = following.start() if following else end
    blocks = []
    for match in FENCE.finditer(text, start, end):
        reason = NOT_RUN.search(text, 0, match.start())
        blocks.append(Block(path, text.count("\n", 0, match.start(1)) + 1, match.group(1),
                            reason.group(1) if reason else None))
    return blocks


def run(block: Block, namespace: dict[str, Any]) -> None:
    """Run ``block`` in ``namespace`` (which keeps what it defines for the next block)."""
    if block.source.lstrip().startswith(">>>"):
        _run_session(block, namespace)
        return
    tree = ast.parse(block.source, str(block.path))
    ast.increment_lineno(tree, block.line - 1)
    code = compile(tree, str(block.path), "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    awaited = eval(code, namespace)  # noqa: S307 - our own docs; a coroutine if it awaits
    if inspect.iscoroutine(awaited):
        asyncio.run(awaited)


def _run_session(block: Block, namespace: dict[str, Any]) -> None:
    """Check a ``>>>`` block as a doctest: what each line shows must be what it prints."""
    test = doctest.DocTestParser().get_doctest(block.source, namespace, str(block),
                                               str(block.path), block.line - 1)
    test.globs = namespace  # not a copy: later blocks see what this one defined
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    report: list[str] = []
    with pd.option_context("display.width", TERMINAL_WIDTH, "display.max_columns", 20):
        runner.run(test, out=report.append, clear_globs=False)
    assert runner.failures == 0, "".join(report)
