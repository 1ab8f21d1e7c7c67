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

PHONE_THREAD_ROWS = 100_000
"""Fewest rows of a phone column whose verdicts (``leads._fast.verdicts``) are read in
parts on the pool's threads (``_threads.WORKERS``): shorter columns are read on the
calling thread."""
PHONE_PART_ROWS = 125_000
"""Most rows (about: the parts are cut by work) ``leads._fast.verdicts`` reads in one
part, each taken from the column when a thread starts it: the working memory of two
parts at a time, however long the column. The 1M-row clean (500,000 rows a call) peaked
at 557-561 MiB with this, 596-599 MiB with 250,000 (one part a thread), whose CPU was
within the noise (1.06x for 125,000, median of 7 interleaved pairs); 62,500 cost 1.23x."""
PHONE_REGION_WORK = 400
"""A region's fixed work in a part of ``leads._fast.verdicts`` (its groups, patterns and
takes), counted as this many rows' work when the parts are cut: measured on the mix,
~0.7 ms a region against ~1.6 µs a row (the parts' thread CPU within a tenth of each
other)."""
PHONE_SMALL_MATCH = 256
"""Fewest values matched (or cut) by pyarrow's RE2 (``_phones._arrays.match``), which
compiles the pattern on each call: 0.1-0.4 ms for a region's patterns, most of the work
of the many small groups of rows (regions, calling codes and lengths) a column with
countries has. Fewer are matched one by one with Python's ``re``, each pattern compiled
once (~1 µs a value)."""
ZONE_PART_TEXTS = 25_000
"""Fewest texts worth a thread of their own when the zones of distinct numbers are read
(``_phones._zones``): a thread's start and join cost some 0.1 ms, and on fewer texts
each call's own overhead outweighs the work."""


# --- lead cleaning --------------------------------------------------------------------


# --- the rest -------------------------------------------------------------------------
