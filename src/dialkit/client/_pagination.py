"""Lazy iteration over cursor-paginated lists.

A list method returns a :class:`ListIterator` at once, without a request;
pages are fetched as iteration reaches them, so ``next(client.calls.list())``
costs one request and a loop over a million calls holds one page at a time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

from ..contract import Page

Item = TypeVar("Item")

FetchPage = Callable[[str | None], Page[Item]]
"""Fetches the page at a cursor (``None`` for the first page)."""


class ListIterator(Iterator[Item], Generic[Item]):
    """Every item of a list across all its pages, fetched lazily.

    Iterating yields items; :meth:`pages` yields the pages themselves (each
    with ``.data``, ``.page.next_cursor`` and its ``request_id``), for a caller
    that wants to keep cursors, e.g. to resume a long load later.

    Example:
        >>> for call in client.calls.list(direction="inbound"):  # doctest: +SKIP
        ...     print(call.id, call.status)
    """

    def __init__(self, fetch: FetchPage[Item], cursor: str | None = None) -> None:
        self._fetch = fetch
        self._cursor = cursor
        self._items: Iterator[Item] = self._walk()

    def __next__(self) -> Item:
        return next(self._items)

    def pages(self) -> Iterator[Page[Item]]:
        """The pages from the list's starting cursor, fetched as they are reached."""
        cursor = self._cursor
        while True:
            page = self._fetch(cursor)
            yield page
            cursor = page.page.next_cursor
            if not page.page.has_more or cursor is None:
                return

    def _walk(self) -> Iterator[Item]:
        for page in self.pages():
            yield from page.data
