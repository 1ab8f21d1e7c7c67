"""Counts in words: a count and its noun agreed, for messages and pages."""

from __future__ import annotations


def noun(count: int, word: str) -> str:
    """``word`` agreed with ``count``: ``batch`` for 1, ``batches`` for any other."""
    if count == 1:
        return word
    return word + ("es" if word.endswith(("s", "sh", "ch", "x")) else "s")


def counted(count: int, word: str) -> str:
    """``1 batch``, ``2 batches``, ``1,204 rows``: a count and its noun agreed."""
    return f"{count:,} {noun(count, word)}"
