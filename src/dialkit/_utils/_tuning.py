"""Every tuning value of the toolkit in one place: sizes of parts, batches and buffers,
and thread counts.

A tuning value changes how fast or in how much memory the work is done, never its
answer, so tests shrink them to reach a path (a spill, a second part) with a small
input. Modules read them here at call time (``_tuning.PART_ROWS``, not ``from
dialkit._utils._tuning import PART_ROWS``), so a test sets a value in one place and every
user of it sees it: ``monkeypatch.setattr(_tuning, "PART_ROWS", 10)``.

Each value says what it was measured against, where that matters.
"""

from __future__ import annotations

# --- threads ------------------------------------------------------------------------

WORKERS = 2
"""Threads of the pool that runs parts of one computation side by side
(:mod:`dialkit._parallel._threads`): the second core's work, and one more for a part that
waits on I/O in the GIL (more would only share the same cores)."""
REQUESTS_AT_ONCE = 4
"""Requests a load sends at once (a frame's partitions, campaigns' progress): the key's
rate limiter, not this, sets the pace."""

# --- phone numbers -------------------------------------------------------------------
# "Re-measured": ``bench_normalize.py --rows 1000000 --tricks 5`` (each setting
# against this one on the 1M-row mix, medians of 5 rounds in turn, a loaded machine).

PHONE_THREAD_ROWS = 100_000
"""Fewest rows of a phone column whose verdicts (``leads._normalize._fast.verdicts``) are read in
parts on the pool's threads (:data:`WORKERS`): shorter columns are read on the
calling thread. Re-measured: without threads the 1M-row mix's column took 1.56x the
wall (0.89x the CPU)."""
PHONE_PART_ROWS = 125_000
"""Most rows ``leads._normalize._fast.verdicts`` reads in one part, each taken from the column when
a thread starts it: the working memory of two parts at a time, however long the column.
The 1M-row clean (500,000 rows a call) peaked at 557-561 MiB with this, 596-599 MiB with
250,000 (one part a thread), whose CPU was within the noise (1.06x for 125,000, median
of 7 interleaved pairs); 62,500 cost 1.23x. Re-measured: one part a thread took 1.14x
the CPU and 1.06x the wall."""
PHONE_SMALL_MATCH = 256
"""Fewest values matched (or cut) by pyarrow's RE2 (``_arrays._texts.match``), which
compiles the pattern on each call: 0.1-0.4 ms for a region's patterns, most of the work
of the many small groups of rows (regions, calling codes and lengths) a column with
countries has. Fewer are matched one by one with Python's ``re``, each pattern compiled
once (~1 µs a value). Re-measured: RE2 for all took 1.09x the CPU and 1.31x the wall of normalising
the 1M-row mix, and 1.16x the CPU of its numbers' zones."""
LEADING_BYTES = 4
"""A phone cell's first bytes that order a column's rows within their region, as a
number, before it is cut into parts (``leads._normalize._fast._leading`` says why, with
its figures)."""
ZONE_PART_TEXTS = 25_000
"""Fewest texts worth a thread of their own when the zones of distinct numbers are read
(``_phones._zones``): a thread's start and join cost some 0.1 ms, and on fewer texts
each call's own overhead outweighs the work. Re-measured: in one part, the zones of the 1M-row mix's
837,080 distinct numbers took 1.14x the wall (1.03x the CPU)."""


# --- lead cleaning --------------------------------------------------------------------

CHUNK_ROWS = 500_000
"""Rows of a lead file cleaned at a time: a streamed file's chunks, and the cells a
clean normalises in one call (:func:`dialkit.leads.normalize` pays a fixed cost per
region met in a call, ~0.5 ms each: the mix has 221, and its working memory grows with
the call's rows). On the 1,000,000-row mix (``benchmarks/bench_clean.py``; normalising
the phone column, CPU seconds against 250,000 rows a call, interleaved in one process;
the whole clean's peak RSS): 250,000 rows 1.00x and 524-545 MiB, 500,000 0.90x and
506-537 MiB, 1,000,000 0.89x and 559-594 MiB."""

READ_BLOCK = 1 << 22
"""Bytes pyarrow's streaming reader parses at a time (or twice the longest line allowed):
the 1,000,000-row mix read in 0.33-0.34 s, against 0.46-0.62 s in blocks of 1 MiB and
0.36-0.39 s in blocks of 16 MiB."""

CSV_BATCH_ROWS = 1 << 16
"""Rows of the cleaned CSV pyarrow's writer turns into text at a time (a few MiB): its
default, 1,024, spends a third of the writing on the batches' overhead."""

CSV_PART_ROWS = 1 << 18
"""Rows of the cleaned CSV escaped and handed to Arrow at a time, on a thread, while the
writer turns the part before into text: writing the 1M-row mix 0.37 against 0.45-0.47 s
of wall time, and 0.44 against 0.41 CPU s, medians of 5-6 interleaved runs in one
process (parts of 2**16 rows: the same wall time, 0.51-0.53 CPU s)."""

HELD_BYTES = 96 << 20
"""A streamed file up to this size keeps its rows' keys and judged chunks in memory (the
mix's 1,000,000 rows are 75 MB, their keys 30 MB) and judges them at once, as a file read
whole is judged: the buckets' writing and reading back took 0.29 s of such a file's
clean, against 0.15; its numbers are screened through the client's cache of DNC checks,
as a file read whole's are. The mix's 1,100,000 rows, 79 MiB, peak at 622 MiB so, below
a streamed file's 694-730 MiB; at 128 MiB the peak was 815 MiB. Raised from 80 MiB: at
1,320,000 rows of the mix (95.8 MiB) held took 0.91x the CPU of spilled (5.80-5.85
against 6.40-6.43 s) and peaked at 747-765 MiB against 679-700; a file of two phone
columns spills more than it holds (1,130,000 rows, 91.7 MiB: 752-885 MiB held, 1016-1021
spilled), and its 1,000,000 rows (81 MiB) took 0.93x the CPU held."""

BUCKET_BYTES = 32 << 20
"""Bytes of a streamed file whose rows' keys go to one bucket on disk: a bucket of the
mix holds about 450,000 rows, judged in about 40 MB."""

RANGE_ROWS = 1 << 20
"""Rows whose repeats (the rows they duplicate) are kept in one file, read back together."""

SCREEN_STEP = 10_000
"""Numbers screened against the DNC list between two updates of a clean's progress bar:
100 requests, ten seconds at one key's rate limit."""
SHOWN_CACHED = 5 * SCREEN_STEP
"""The same through the client's cache of DNC checks, which reads and writes every
number it holds at each call: fewer, larger slices."""

HASHED_ROWS = 1 << 16
"""External ids hashed at a time (each a Python string while it is hashed: not 500,000
at once)."""

PLAN_ROWS = 1 << 16
"""Rows of an import's plan (and of its report) read back at a time: the leads of a part
are built at once, so memory holds a part's rows, not the file's."""

# --- progress ---------------------------------------------------------------------------

PROGRESS_LOG_SECONDS = 10
"""Seconds between two progress lines of a long step where nobody watches
(:mod:`dialkit._shown._progress`; ``DIALKIT_PROGRESS_SECONDS`` overrides it): six lines a
minute tell a log's reader the work moves and when it will end, and an import of 300,000
leads (some 25 minutes at one key's rate limit) logs 150, not a line a batch."""

# --- frames -----------------------------------------------------------------------------

ESCAPE_ROWS = 1 << 16
"""Cells of a text column escaped against formulas at a time (``frames.formulas_escaped``);
the parts are views of the column's arrays."""
DNC_CHECKED_AT_ONCE = 10_000
"""Numbers whose DNC answers are held as the client's objects at a time (each a model
with its request's details), before they become a frame's compact rows
(``frames.dnc``): a lead file's chunk asks about 500,000 at once."""

# --- the emulator ----------------------------------------------------------------------

BUILT_WORLD_BYTES = 32 << 20
"""Largest in-memory store whose freshly built worlds an emulator keeps a copy of, for the
next emulator of the same worlds in this process (``sandbox._state._service``): the demo's small
world is 5 MB, built in about 1.2 s of CPU and copied in 0.09 s (the tests' store of three
accounts, 16 MB); a medium world's, 78 MB (2.6 s), is not kept, nor a large one."""
BUILT_WORLDS_KEPT = 3
"""Such copies kept at most (the last made); none kept or used at 0, every world built."""
