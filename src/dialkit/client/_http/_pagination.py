"""Lazy iteration over cursor-paginated lists.

A list method returns a :class:`ListIterator` at once, without a request;
pages are fetched as iteration reaches them, so ``next(client.calls.list())``
costs one request and a loop over a million calls holds one page at a time.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from ...contract import Page, ResponseInfo
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

RECENT_PAGES = 10
"""Pages whose item ids are remembered to tell a list that repeats itself (at
most ``10 * MAX_PAGE_LIMIT`` ids, however long the list)."""

MAX_REPEATED_PAGES = 3
"""Pages in a row, each holding only items of the recent pages, that a list may
send before it is taken to be looping. Items inserted at the head of a list
while it is read can push items already read onto the next page, even a whole
page of them after a burst; a list that does so three times in a row, or keeps
sending the same items under new cursors, does not end."""


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

    Examples:
        >>> client = dialkit.Client.sandbox()
        >>> calls = client.calls.list(direction="inbound")
        >>> next(calls).direction == "inbound"
        True
        >>> page = next(client.calls.list(direction="inbound").pages())
        >>> len(page.data) > 1, page.page.next_cursor is not None
        (True, True)
        >>> client.close()
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
        progress = _Progress()
        while True:
            answer = self._fetch(cursor)
            page = parse(answer)
            yield page
            cursor, more = position(page)
            if not more or cursor is None:
                return
            progress.check(answer, cursor, _item_ids(page))

    def _walk(self) -> Iterator[Item]:
        for page in self.pages():
            yield from page.data


class _Progress:
    """Whether a list is getting anywhere; refuses one that would never end.

    A list loops if it sends a cursor it sent before, a hundred empty pages in
    a row, or :data:`MAX_REPEATED_PAGES` pages in a row of items it sent on
    its last :data:`RECENT_PAGES` pages (new cursors over the same items).
    """

    def __init__(self) -> None:
        self.cursors: set[str] = set()
        self.pages = 0
        self.empty = 0
        self.repeated = 0
        self.recent: deque[frozenset[str]] = deque(maxlen=RECENT_PAGES)

    def check(self, answer: Answer, cursor: str, ids: frozenset[str] | None) -> None:
        """Take in a page that says more follow at ``cursor``; ``ids`` are its items' ids."""
        self.pages += 1
        if cursor in self.cursors:
            raise malformed(answer, "the list sent a next_cursor it had sent before, so it "
                            "would never end; the items read so far are complete up to page "
                            f"{len(self.cursors)}")
        self.cursors.add(cursor)
        self._count_empty(answer, ids)
        self._count_repeated(answer, ids)

    def _count_empty(self, answer: Answer, ids: frozenset[str] | None) -> None:
        self.empty = 0 if ids is None or ids else self.empty + 1
        if self.empty >= MAX_EMPTY_PAGES:
            raise malformed(answer, f"the list sent {self.empty} pages in a row without items "
                            "and still says has_more, so it looks like it would never end")

    def _count_repeated(self, answer: Answer, ids: frozenset[str] | None) -> None:
        """Count pages of items already sent; an empty page neither counts nor breaks a run."""
        if ids == frozenset():
            return
        if ids is not None and ids <= frozenset().union(*self.recent):
            self.repeated += 1
        else:
            self.repeated = 0
        if ids is not None:
            self.recent.append(ids)
        if self.repeated >= MAX_REPEATED_PAGES:
            raise malformed(answer, f"the list sent {self.repeated} pages in a row, each under "
                            "a new next_cursor, whose items it had all sent on the pages "
                            "before, so it would never end; the items read so far are complete "
                            f"up to page {self.pages - self.repeated}")


def _item_ids(page: object) -> frozenset[str] | None:
    """The ids of a page's items (typed or raw), or ``None`` if an item has none."""
    ids = [item.get("id") if isinstance(item, dict) else getattr(item, "id", None)
           for item in getattr(page, "data", None) or []]
    if not all(isinstance(each, str) for each in ids):
        return None
    return frozenset(ids)  # type: ignore[arg-type]


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
