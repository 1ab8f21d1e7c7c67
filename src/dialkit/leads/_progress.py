"""How far a long clean has come, where its user is looking: a terminal's line, a
notebook's output.

:func:`dialkit.leads.clean` with ``out=`` tells its ``progress`` the rows done and
the seconds gone after each chunk; these turn that into ``1,500,000 rows, 182,000
rows/s`` on one line that rewrites itself (standard error, only when it is a
terminal: a log file or a pipe gets no carriage returns), or in one output of a
notebook cell that updates in place.
"""

from __future__ import annotations

import sys
from typing import IO, Any


def said(rows: int, seconds: float) -> str:
    """``1,500,000 rows, 182,000 rows/s``."""
    rate = rows / seconds if seconds > 0 else 0.0
    return f"{rows:,} rows cleaned, {rate:,.0f} rows/s"


class ProgressLine:
    """A line on a terminal that each report rewrites; :meth:`close` ends it."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream, self.shown = stream, False

    def __call__(self, rows: int, seconds: float) -> None:
        self.stream.write(f"\r{said(rows, seconds)}")
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            self.stream.write("\n")
            self.stream.flush()


def progress_line(stream: IO[str] | None = None) -> ProgressLine | None:
    """A :class:`ProgressLine` on ``stream`` (standard error), or ``None`` when it is not
    a terminal."""
    stream = stream or sys.stderr
    return ProgressLine(stream) if stream.isatty() else None


class ProgressOutput:
    """A notebook output that each report replaces (IPython's display, updated by id)."""

    def __init__(self) -> None:
        from IPython.display import display

        self.handle: Any = display(said(0, 0.0), display_id=True)

    def __call__(self, rows: int, seconds: float) -> None:
        if self.handle is not None:
            self.handle.update(said(rows, seconds))


def progress_bar() -> ProgressOutput | ProgressLine | None:
    """Progress where the user is looking: a notebook's updating output under IPython,
    else a terminal's line on standard error (``None`` when neither)."""
    try:
        from IPython import get_ipython
    except ImportError:
        return progress_line()
    shell = get_ipython()
    if shell is not None and type(shell).__name__ == "ZMQInteractiveShell":
        return ProgressOutput()
    return progress_line()
