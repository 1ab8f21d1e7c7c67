"""A bar that logs lines instead of drawing: a step's progress where nobody watches."""

from __future__ import annotations

import logging
import time
from typing import Any

from tqdm.std import tqdm

from ._progress_lines import PROGRESS_LOGGER, interval, progress_line


class _Nowhere:
    """The stream a logged bar's ``tqdm`` writes its newline to: nothing is written."""

    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass


class LoggedBar(tqdm):  # type: ignore[misc]
    """A ``tqdm`` bar that logs a line on :data:`PROGRESS_LOGGER` at most every
    :func:`interval` seconds it moves, and one when it closes after such a line, instead
    of drawing: a step shorter than the interval says nothing, as a load of one page
    draws no bar.

    ``tqdm`` keeps the count, the step's description and its clock as for a drawn bar
    (its callers update, describe and reset it alike); only :meth:`display` differs.
    """

    monitor_interval = 0  # no monitor thread: nothing is drawn for it to keep moving

    def __init__(self, *, line: tuple[str, str] | None = None, **options: Any) -> None:
        self._line, self._every, self._logged_at = line, interval(), time.monotonic()
        self._said = False
        options.update(file=_Nowhere(), mininterval=0, miniters=1, dynamic_ncols=False)
        super().__init__(**options)

    def display(self, msg: str | None = None, pos: int | None = None) -> bool:
        """Log the bar's state if :func:`interval` has passed since its last line (or
        since it began), or it is closing after a line (``tqdm`` disables a bar, then
        shows it)."""
        now = time.monotonic()
        if not self._said if self.disable else now - self._logged_at < self._every:
            return True
        self._logged_at, self._said = now, True
        state = self.format_dict
        step, unit = self._line or (  # set_description's ends with ": "
            str(state["prefix"] or "working").removesuffix(": "), str(state["unit"]))
        logging.getLogger(PROGRESS_LOGGER).info(
            "%s", progress_line(step, unit, int(state["n"]), state["total"],
                                float(state["elapsed"]), int(state["initial"]),
                                str(state.get("postfix") or ""), ended=self.disable))
        return True
