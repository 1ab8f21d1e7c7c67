"""The progress lines a step logs where nobody watches (:mod:`._logged`): what they
say, how often, and on which logger; no ``tqdm`` here, so the CLI names the logger
without importing it."""

from __future__ import annotations

import math
import os

from dialkit._utils import _tuning
from dialkit._utils._base_error import InputError

PROGRESS_LOGGER = "dialkit.progress"
"""The logger of the progress lines logged where nobody watches."""
SECONDS_VARIABLE = "DIALKIT_PROGRESS_SECONDS"
"""Seconds between two progress lines of one step, where set (else
:data:`~dialkit._utils._tuning.PROGRESS_LOG_SECONDS`)."""


def interval() -> float:
    """Seconds between two progress lines of a step (:data:`SECONDS_VARIABLE`).

    Raises:
        InputError: The variable is set to no number of seconds, 0 or more (``abc``,
            ``-1``, ``inf``): the user's to fix, not dialkit's bug.
    """
    said = os.environ.get(SECONDS_VARIABLE, "").strip()
    if not said:
        return float(_tuning.PROGRESS_LOG_SECONDS)
    try:
        seconds = float(said)
    except ValueError:
        seconds = math.nan
    if not 0 <= seconds < math.inf:
        raise InputError(f"{SECONDS_VARIABLE}={said!r}: write the seconds between two "
                         f"progress lines, a number such as 10, or unset it for "
                         f"{_tuning.PROGRESS_LOG_SECONDS} (DIALKIT_PROGRESS=0 shows none)")
    return seconds


def progress_line(step: str, unit: str, done: int, total: float | None, elapsed: float,
                  initial: int = 0, postfix: str = "", *, ended: bool = False) -> str:
    """``import: 12,000 of 300,000 leads sent (4.0%), 400/s, about 12 min left``; at the
    end, ``... (100.0%) in 12 min 30 s, 400/s``. ``initial``: the count done before this
    run (a resumed import), left out of the rate."""
    rate = (done - initial) / elapsed if elapsed > 0 else 0.0
    line = f"{step}: {done:,}" + (f" of {int(total):,}" if total else "") + unit
    if total:
        line += f" ({done / total:.1%})"
    if postfix:  # tqdm's ``rows=1200``: ``1,200 rows``
        line += ", " + ", ".join(f"{int(count):,} {name}" if count.isdigit() else part
                                 for part in postfix.split(", ")
                                 for name, _, count in [part.partition("=")])
    if ended:
        line += f" in {span(elapsed)}"
    if rate > 0:
        line += f", {rate:,.0f}/s" if rate >= 10 else f", {rate:.1f}/s"
        if total and done < total and not ended:
            line += f", about {span(max(total - done, 0) / rate)} left"
    return line


def span(seconds: float) -> str:
    """A time as a log line says it: ``40 s``, ``2 min 5 s``, ``12 min``, ``2 h 5 min``."""
    whole = round(seconds)
    if whole < 60:
        return f"{whole} s"
    if whole < 600:
        return f"{whole // 60} min {whole % 60} s"
    if whole < 3600:
        return f"{round(seconds / 60)} min"
    return f"{whole // 3600} h {whole % 3600 // 60} min"
