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

HELD_BYTES = 80 << 20
"""A streamed file up to this size keeps its rows' keys and judged chunks in memory (the
mix's 1,000,000 rows are 75 MB, their keys 30 MB) and judges them at once, as a file read
whole is judged: the buckets' writing and reading back took 0.29 s of such a file's
clean, against 0.15; its numbers are screened through the client's cache of DNC checks,
as a file read whole's are. The mix's 1,100,000 rows, 79 MiB, peak at 622 MiB so, below
a streamed file's 694-730 MiB; at 128 MiB the peak was 815 MiB."""

BUCKET_BYTES = 32 << 20
"""Bytes of a streamed file whose rows' keys go to one bucket on disk: a bucket of the
mix holds about 450,000 rows, judged in about 40 MB."""

RANGE_ROWS = 1 << 20
"""Rows whose repeats (the rows they duplicate) are kept in one file, read back together."""

HASHED_ROWS = 1 << 16
"""External ids hashed at a time (each a Python string while it is hashed: not 500,000
at once)."""

PLAN_ROWS = 1 << 16
"""Rows of an import's plan (and of its report) read back at a time: the leads of a part
are built at once, so memory holds a part's rows, not the file's."""


# --- the rest -------------------------------------------------------------------------
