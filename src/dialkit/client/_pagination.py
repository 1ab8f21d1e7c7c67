"""Lazy iteration over cursor-paginated lists.

A list method returns a :class:`ListIterator` at once, without a request;
pages are fetched as iteration reaches them, so ``next(client.calls.list())``
costs one request and a loop over a million calls holds one page at a time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from ..contract import Page, ResponseInfo
from ._decode import decode, json_object, malformed
from ._transport import Answer

Item = TypeVar("Item")
AnyPage = TypeVar("AnyPage")

FetchAnswer = Callable[[str | None], Answer]
"""Fetches the answer of the page at a cursor (``None`` for the first page)."""

Position = tuple[str | None, bool]
"""A page's ``next_cursor`` and ``has_more``."""

ParsePage = Callable[[Answer], Page[Item]]
"""Turns a page's answer into the typed page."""

MAX_EMPTY_PAGES = 100
"""Pages in a row without items that a list may send before it is taken to be
looping: a page is empty only at the end of a list or when a filter skips many
items, and never a hundred times in a row."""


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
        seen: set[str] = set()
        empty = 0
        while True:
            answer = self._fetch(cursor)
            page = parse(answer)
            yield page
            cursor, more = position(page)
            if not more or cursor is None:
                return
            empty = 0 if _has_items(page) else empty + 1
            _check_progress(answer, cursor, seen, empty)
            seen.add(cursor)

    def _walk(self) -> Iterator[Item]:
        for page in self.pages():
            yield from page.data


def _check_progress(answer: Answer, cursor: str, seen: set[str], empty: int) -> None:
    """Refuse a list that would never end: a cursor sent before, or endless empty pages."""
    if cursor in seen:
        raise malformed(answer, "the list sent a next_cursor it had sent before, so it would "
                        f"never end; the items read so far are complete up to page {len(seen)}")
    if empty >= MAX_EMPTY_PAGES:
        raise malformed(answer, f"the list sent {empty} pages in a row without items and "
                        "still says has_more, so it looks like it would never end")


def _has_items(page: object) -> bool:
    return bool(getattr(page, "data", None))


def _raw(answer: Answer) -> RawPage:
    return decode(answer, lambda content: _raw_page(json_object(content), answer.info))


def _raw_page(body: dict[str, Any], info: ResponseInfo) -> RawPage:
    """The page's parts, checked for the types the loaders rely on."""
    data, page = body.get("data"), body.get("page")
    if not isinstance(data, list) or not all(isinstance(item, dict) for item in data):
        raise TypeError("its data is not an array of objects")
    if not isinstance(page, dict):
        raise TypeError("it has no page object")
    cursor, more = page.get("next_cursor"), page.get("has_more")
    if not (cursor is None or isinstance(cursor, str)) or not isinstance(more, bool):
        raise TypeError("its page.next_cursor is not a string or null, or page.has_more "
                        "is not a boolean")
    return RawPage(data, cursor, more, info)
