"""Lazy iteration over cursor-paginated lists.

A list method returns a :class:`ListIterator` at once, without a request;
pages are fetched as iteration reaches them, so ``next(client.calls.list())``
costs one request and a loop over a million calls holds one page at a time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import orjson

from ..contract import Page, ResponseInfo
from ._transport import Answer

Item = TypeVar("Item")
AnyPage = TypeVar("AnyPage")

FetchAnswer = Callable[[str | None], Answer]
"""Fetches the answer of the page at a cursor (``None`` for the first page)."""

Position = tuple[str | None, bool]
"""A page's ``next_cursor`` and ``has_more``."""

ParsePage = Callable[[Answer], Page[Item]]
"""Turns a page's answer into the typed page."""


@dataclass(frozen=True, slots=True)
class RawPage:
    """One page as the service sent it: JSON objects, not models.

    For loaders that turn pages into columns and would only take models apart
    again (``client.frames``); :meth:`ListIterator.pages` gives typed pages.

    Attributes:
        data: The page's items, as decoded JSON objects.
        next_cursor: The cursor of the next page, ``None`` on the last page.
        has_more: Whether another page follows.
        info: The answer's request id and headers.
    """

    data: list[dict[str, Any]]
    next_cursor: str | None
    has_more: bool
    info: ResponseInfo


class ListIterator(Iterator[Item], Generic[Item]):
    """Every item of a list across all its pages, fetched lazily.

    Iterating yields items; :meth:`pages` yields the pages themselves (each
    with ``.data``, ``.page.next_cursor`` and its ``request_id``), for a caller
    that wants to keep cursors, e.g. to resume a long load later.

    Example:
        >>> for call in client.calls.list(direction="inbound"):  # doctest: +SKIP
        ...     print(call.id, call.status)
    """

    def __init__(self, fetch: FetchAnswer, parse: ParsePage[Item],
                 cursor: str | None = None) -> None:
        self._fetch = fetch
        self._parse = parse
        self._cursor = cursor
        self._items: Iterator[Item] = self._walk()

    def __next__(self) -> Item:
        return next(self._items)

    def pages(self) -> Iterator[Page[Item]]:
        """The pages from the list's starting cursor, fetched as they are reached."""
        return self._follow(self._parse, lambda page: (page.page.next_cursor, page.page.has_more))

    def raw_pages(self) -> Iterator[RawPage]:
        """The pages as decoded JSON, without building models (faster for bulk loads)."""
        return self._follow(_raw, lambda page: (page.next_cursor, page.has_more))

    def _follow(self, parse: Callable[[Answer], AnyPage],
                position: Callable[[AnyPage], Position]) -> Iterator[AnyPage]:
        """Fetch and parse pages from the starting cursor until the last one."""
        cursor = self._cursor
        while True:
            page = parse(self._fetch(cursor))
            yield page
            cursor, more = position(page)
            if not more or cursor is None:
                return

    def _walk(self) -> Iterator[Item]:
        for page in self.pages():
            yield from page.data


def _raw(answer: Answer) -> RawPage:
    body = orjson.loads(answer.content)
    page = body.get("page") or {}
    return RawPage(body.get("data") or [], page.get("next_cursor"), bool(page.get("has_more")),
                   answer.info)
