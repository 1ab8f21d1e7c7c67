"""A progress bar for loads of more than one page: rows and pages, widget or text."""

from __future__ import annotations

import os
import sys
from types import TracebackType
from typing import Any

PROGRESS_VARIABLE = "DIALKIT_PROGRESS"
"""Set to ``0``, no bars by default, even in a notebook: for a notebook run into a static
report (``dialkit demo``, nbconvert, papermill), where a widget bar can only show its
first state ("0 pages")."""


def watched() -> bool:
    """Whether someone watches this process: a notebook kernel, or a terminal on stderr.

    A script whose output goes to a log or a CI job gets no bar, so its log
    is not filled with carriage returns; nor does any process with
    ``DIALKIT_PROGRESS=0``.
    """
    if os.environ.get(PROGRESS_VARIABLE, "").strip() == "0":
        return False
    isatty = getattr(sys.stderr, "isatty", None)
    if isatty is not None and isatty():
        return True
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    return getattr(shell, "kernel", None) is not None


class Progress:
    """Counts a load's pages and rows; shows a bar once a second page is on its way.

    ``tqdm.auto`` draws a widget in Jupyter and text in a terminal. A load that
    fits in one page shows nothing, so quick calls stay quiet.
    """

    def __init__(self, name: str, enabled: bool, *, resumed: int = 0) -> None:
        self.name = name
        self.enabled = enabled
        self.pages = resumed
        self.rows = 0
        self._bar: Any = None

    def page(self, rows: int, *, more: bool) -> None:
        """Count one page of ``rows``; ``more`` when another follows."""
        self.pages += 1
        self.rows += rows
        if self._bar is None and more and self.enabled:
            from tqdm.auto import tqdm  # once a bar is drawn: it imports asyncio, 16 ms

            self._bar = tqdm(desc=f"loading {self.name}", unit=" pages", initial=self.pages - 1)
        if self._bar is not None:
            self._bar.update(1)
            self._bar.set_postfix(rows=self.rows, refresh=False)

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        if self._bar is not None:
            self._bar.close()
