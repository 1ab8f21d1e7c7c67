"""Every tuning value of the toolkit in one place: sizes of parts, batches and buffers,
and thread counts (issue 49).

A tuning value changes how fast or in how much memory the work is done, never its
answer, so tests shrink them to reach a path (a spill, a second part) with a small
input. Modules read them here at call time (``_tuning.PART_ROWS``, not ``from
dialkit._tuning import PART_ROWS``), so a test sets a value in one place and every
user of it sees it: ``monkeypatch.setattr(_tuning, "PART_ROWS", 10)``.

Each value says what it was measured against, where that matters.
"""

from __future__ import annotations

# --- phone numbers -------------------------------------------------------------------


# --- lead cleaning --------------------------------------------------------------------


# --- the rest -------------------------------------------------------------------------
