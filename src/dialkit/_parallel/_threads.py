"""Two independent parts of one computation on the machine's two cores at once.

pyarrow's kernels (hashing, regular expressions, ``is_in``) and numpy's large
operations release the GIL, so a thread doing one while this one does another runs
beside it: a frame's first funnel hashes the calls' numbers while another thread hashes
their campaigns and looks up the bookings, and the zones of 183,000 distinct numbers are
found in two halves at once (60 against 110 ms on an idle machine of two cores; with
the other core busy elsewhere, 124 against 125 ms: the threads only help where a core is
free, and then they cost nothing to speak of).

Work handed to the pool never waits on the pool (a part run in one of its threads runs
its own parts in that thread), so no part waits for a thread that is waiting for it.
"""

from __future__ import annotations

import functools
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

from .._utils import _tuning

T = TypeVar("T")
A = TypeVar("A")

_PREFIX = "dialkit-side"


@functools.cache
def _pool() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=_tuning.WORKERS, thread_name_prefix=_PREFIX)


def _inline() -> bool:
    """Whether to run parts here, one after the other: on one core, or in a pool thread."""
    return (os.cpu_count() or 1) < 2 or threading.current_thread().name.startswith(_PREFIX)


def in_background(work: Callable[[], T]) -> Future[T]:
    """``work()`` started in another thread (run here at once where :func:`_inline`); its
    answer or its error is the future's ``result()``."""
    if not _inline():
        return _pool().submit(work)
    done: Future[T] = Future()
    try:
        done.set_result(work())
    except Exception as error:  # raised again by result(), as the pool's would be
        done.set_exception(error)
    return done


def side_by_side(work: Callable[[A], T], parts: Sequence[A]) -> list[T]:
    """``work`` of each of ``parts``, in order: all but the last in other threads, the last
    in this one."""
    started = [in_background(functools.partial(work, part)) for part in parts[:-1]]
    last = [work(parts[-1])] if parts else []
    return [future.result() for future in started] + last
