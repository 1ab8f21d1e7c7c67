"""How long work shows how far it has come: a bar where someone watches (a widget in a
notebook, text on a terminal), log lines where nobody does.

A script under nohup, cron or CI has no terminal to draw a bar on: by default its long
steps (a lead file's clean and import, a frame's load of many pages) log a line on the
``dialkit.progress`` logger (:mod:`._progress_lines`) every
:data:`~dialkit._utils._tuning.PROGRESS_LOG_SECONDS` and when they end, at ``INFO``:
``import: 12,000 of 300,000 leads sent (4.0%), 400/s, about 12 min left``. The loads
of more than one page count their pages and rows here too.
"""

from __future__ import annotations

import os
import sys
from types import TracebackType
from typing import TYPE_CHECKING, Any, Literal

from ._words import noun

if TYPE_CHECKING:
    from tqdm.std import tqdm as std_tqdm

PROGRESS_VARIABLE = "DIALKIT_PROGRESS"
"""Set to ``0``, no bars by default, even in a notebook: for a notebook run into a static
report (``dialkit demo``, nbconvert, papermill), where a widget bar can only show its
first state ("0 pages")."""

Shown = Literal["bar", "lines"] | None
"""How a step shows its progress: a bar, log lines, or not at all."""


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


def shown(progress: bool | None) -> Shown:
    """How a step asked for with ``progress`` shows it: ``True``, a bar; ``False``, not at
    all; ``None`` (the default), a bar where someone watches (:func:`watched`), else log
    lines, and neither with ``DIALKIT_PROGRESS=0``.

    Log lines are chosen at a step's start, and their interval read then: a
    ``DIALKIT_PROGRESS_SECONDS`` that is no number of seconds is refused before the step
    reads, sends or writes anything, not at its first line.

    Raises:
        InputError: Log lines, and ``DIALKIT_PROGRESS_SECONDS`` set to no number of
            seconds (:func:`._progress_lines.interval`).
    """
    if progress is not None:
        return "bar" if progress else None
    if os.environ.get(PROGRESS_VARIABLE, "").strip() == "0":
        return None
    if watched():
        return "bar"
    from ._progress_lines import interval

    interval()
    return "lines"


def bar(how: Shown, *, line: tuple[str, str] | None = None, **options: Any) -> std_tqdm[Any]:
    """A bar of ``tqdm``'s ``options``, shown ``how`` (:func:`shown`): drawn by ``tqdm.auto``
    (a widget in Jupyter, text on standard error), logged (:class:`._logged.LoggedBar`; ``line``,
    the step and the unit its lines say, else the bar's ``desc`` and ``unit``), or a
    no-op."""
    if how == "lines":
        from ._logged import LoggedBar

        return LoggedBar(line=line, **options)
    if how is None:
        from tqdm.std import tqdm as off

        return off(disable=True, **options)
    from tqdm.auto import tqdm  # once a bar is drawn: it imports asyncio, 16 ms

    return tqdm(**options)


class Progress:
    """Counts a load's pages and rows; shows them (:func:`bar`) once a second page is on
    its way: a load that fits in one page shows nothing, so quick calls stay quiet.

    The bar is drawn with the pages already loaded (``loading calls: 1 page``), never at
    0: an executed notebook keeps a widget's first state as its text, and a reopened one
    read "loading calls: 0 pages". Its unit agrees with its count, and once
    the load ends it says what was loaded: ``loaded calls: 12 pages, rows=1200``."""

    def __init__(self, name: str, how: Shown, *, resumed: int = 0) -> None:
        self.name = name
        self.how = how
        self.pages = resumed
        self.rows = 0
        self._bar: Any = None

    def page(self, rows: int, *, more: bool) -> None:
        """Count one page of ``rows``; ``more`` when another follows."""
        self.pages += 1
        self.rows += rows
        if self._bar is not None:
            self._bar.unit = f" {noun(self.pages, 'page')}"
            self._bar.set_postfix(rows=self.rows, refresh=False)
            self._bar.update(1)
        elif more and self.how is not None:
            self._bar = bar(self.how, desc=f"loading {self.name}", initial=self.pages,
                            unit=f" {noun(self.pages, 'page')}", postfix={"rows": self.rows})

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        if self._bar is not None:
            if kind is None:
                self._bar.set_description_str(f"loaded {self.name}", refresh=False)
            self._bar.close()
