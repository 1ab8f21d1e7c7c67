"""Parts of one computation on two threads (``dialkit._parallel._threads``): answers in
order, errors raised where the answer is asked, and a part run in a pool thread runs its own parts
there (no thread waits for one that waits for it)."""

from __future__ import annotations

import threading

import pytest

from dialkit._parallel import _threads
from dialkit._utils import _tuning


def test_parts_come_back_in_order_and_the_last_is_run_here() -> None:
    names = _threads.side_by_side(lambda n: (n, threading.current_thread().name), [1, 2, 3])
    assert [n for n, _ in names] == [1, 2, 3]
    assert names[-1][1] == threading.current_thread().name
    assert _threads.side_by_side(lambda n: n, []) == []


def test_an_error_of_a_part_is_raised_by_the_call() -> None:
    def work(n: int) -> int:
        if n == 1:
            raise ValueError("part 1")
        return n

    with pytest.raises(ValueError, match="part 1"):
        _threads.side_by_side(work, [1, 2])


@pytest.mark.timeout(30)
def test_parts_of_a_part_in_the_pool_run_in_its_thread() -> None:
    """Every pool thread busy with a part that has parts of its own: these run in the
    part's thread rather than wait for a free one, which would never come."""
    def outer(n: int) -> list[int]:
        return _threads.side_by_side(lambda m: n * 10 + m, [1, 2, 3])

    assert _threads.side_by_side(outer, list(range(_tuning.WORKERS + 1))) == [
        [n * 10 + 1, n * 10 + 2, n * 10 + 3] for n in range(_tuning.WORKERS + 1)]


def test_on_one_core_the_parts_run_here(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_threads.os, "cpu_count", lambda: 1)
    here = threading.current_thread().name
    assert _threads.side_by_side(lambda _: threading.current_thread().name, [1, 2]) == [
        here, here]
    failed = _threads.in_background(lambda: 1 // 0)
    with pytest.raises(ZeroDivisionError):
        failed.result()
