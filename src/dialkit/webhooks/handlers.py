"""A small dispatch for users who act on events: ``@on("call.completed")``.

Handlers are plain functions taking an :class:`~dialkit.webhooks.Event`. The
module-level :func:`on` and :func:`dispatch` use one default registry,
:data:`registry`; a :class:`Handlers` of your own keeps sets apart. A
:class:`~dialkit.webhooks.Receiver` given ``handlers=`` calls them once per new
event, after the event is stored and the delivery answered, so a slow or
failing handler never costs an event (a failure is logged). Because the event
is stored first, a handler that did not run (the process stopped) can be run
again over :func:`~dialkit.webhooks.events_frame` or the store.

Examples:
    >>> from dialkit.webhooks.handlers import Handlers
    >>> handlers = Handlers()
    >>> @handlers.on("call.completed", "disposition.logged")
    ... def note(event):
    ...     print(event.type)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from dialkit.contract import WebhookEventType

from .._utils._base_error import InputError

if TYPE_CHECKING:
    from ._events import Event

ANY = "*"
"""Subscribe a handler to every event type."""

Handler = Callable[["Event"], Any]
H = TypeVar("H", bound=Handler)


class Handlers:
    """Handlers by event type."""

    def __init__(self) -> None:
        self._by_type: dict[str, list[Handler]] = {}

    def on(self, *types: str) -> Callable[[H], H]:
        """Decorate a function to be called with each event of ``types`` (``"*"``: all).

        Raises:
            TypeError: No type given.
            ValueError: A type the contract does not name (a typo would never fire).
        """
        if not types:
            raise TypeError('name the event types: @on("call.completed"), or @on("*") for all')
        known = {t.value for t in WebhookEventType} | {ANY}
        for kind in types:
            if kind not in known:
                raise InputError(f"{kind!r} is not an event type; pass one of "
                                 f"{', '.join(sorted(known))}")

        def register(handler: H) -> H:
            for kind in types:
                self._by_type.setdefault(str(kind), []).append(handler)
            return handler
        return register

    def dispatch(self, event: Event) -> int:
        """Call every handler of ``event.type`` (then those of ``"*"``), in the order they
        were registered; exceptions propagate. Returns how many were called."""
        called = [*self._by_type.get(str(event.type), []), *self._by_type.get(ANY, [])]
        for handler in called:
            handler(event)
        return len(called)


registry = Handlers()
"""The default registry of :func:`on` and :func:`dispatch`."""

on = registry.on
dispatch = registry.dispatch

__all__ = ["ANY", "Handler", "Handlers", "dispatch", "on", "registry"]
