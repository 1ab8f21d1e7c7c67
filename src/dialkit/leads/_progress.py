"""How far a long clean has come: rows done and rows per second, as a tqdm bar.

:func:`dialkit.leads.clean` with ``out=`` tells its ``progress`` the rows done and
the seconds gone after each chunk; ``progress=True`` draws them with ``tqdm.auto``
(a widget in a notebook, a line on a terminal's standard error), as the frames'
loads draw their pages (:mod:`dialkit.frames._progress`).
"""

from __future__ import annotations

from typing import Any

from tqdm.auto import tqdm


class ProgressBar:
    """A bar of the rows a clean has done; :meth:`close` ends it."""

    def __init__(self, name: str) -> None:
        self.bar: Any = tqdm(desc=f"cleaning {name}", unit=" rows", unit_scale=True)
        self.done = 0

    def __call__(self, rows: int, seconds: float) -> None:
        self.bar.update(rows - self.done)
        self.done = rows

    def close(self) -> None:
        self.bar.close()
