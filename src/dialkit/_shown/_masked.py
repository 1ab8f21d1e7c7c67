"""Phone numbers masked where dialkit shows them to more eyes than their owner's:
as ``+1415*****23``, the first four digits and the last two, enough to match
a number one already has but not to dial it; as an audit's ``--mask-pii`` writes them.

**Logs.** The client's guard warns of each contact sent with ``override=``, naming the
number and the reason; with no logging configured, Python's last-resort handler printed
it on standard error, where an MCP host keeps the server's output in its own logs (the
MCP audit log leaves values out on purpose). So :func:`library_logging` gives dialkit's
loggers a :class:`logging.NullHandler`, as a library should: nothing of dialkit reaches
standard error unless the application configures logging (the ``dialkit`` command does,
:mod:`dialkit.cli`). That handler, on the ``dialkit`` logger, masks the numbers of every
record that passes it (:class:`MaskedPhones`), before any handler above it (the
application's, on the root logger) formats the record.

The standard library only: ``import dialkit`` runs it.
"""

from __future__ import annotations

import logging
import re

LOGGER = "dialkit"
"""The logger every logger of dialkit is under (``dialkit.client.guard``, ...)."""

PHONE_IN_TEXT = re.compile(r"(?<![\w+*])\+\d{7,15}(?!\d)")
"""A number in E.164 (``+14155550123``) within text: a ``+`` and 7 to 15 digits."""


def mask_phone(phone: object) -> object:
    """``+14155550123`` → ``+1415*****23``: the first four digits and the last two.

    Examples:
        >>> mask_phone("+14155550123"), mask_phone(None)
        ('+1415*****23', None)
    """
    if not isinstance(phone, str) or len(phone) < 8:
        return phone
    return phone[:5] + "*" * (len(phone) - 7) + phone[-2:]


def phones_masked(text: str) -> str:
    """``text`` with every number in E.164 masked (:func:`mask_phone`).

    Examples:
        >>> phones_masked("calls.create to +14155550123 sent with override 'asked'")
        "calls.create to +1415*****23 sent with override 'asked'"
    """
    return PHONE_IN_TEXT.sub(lambda found: str(mask_phone(found.group())), text)


class MaskedPhones(logging.Filter):
    """Masks the numbers in a record's message and in its text arguments, in place, so
    every handler that formats the record after this filter's shows them masked."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = phones_masked(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_masked(arg) for arg in record.args)
        elif isinstance(record.args, dict):
            record.args = {key: _masked(arg) for key, arg in record.args.items()}
        return True


def _masked(arg: object) -> object:
    return phones_masked(arg) if isinstance(arg, str) else arg


class _LibraryHandler(logging.NullHandler):
    """The ``NullHandler`` :func:`library_logging` puts on :data:`LOGGER`, known by its
    class, so that it is put there once. It runs its filters (``NullHandler.handle`` runs
    none): they mask the record that the handlers above it then format."""

    def handle(self, record: logging.LogRecord) -> bool:
        return bool(self.filter(record))


def library_logging() -> None:
    """Give :data:`LOGGER` a ``NullHandler`` that masks numbers (:class:`MaskedPhones`),
    once: dialkit's records reach no handler but those the application configures, and
    those see them masked. Called when ``dialkit`` is imported."""
    logger = logging.getLogger(LOGGER)
    if not any(isinstance(handler, _LibraryHandler) for handler in logger.handlers):
        handler = _LibraryHandler()
        handler.addFilter(MaskedPhones())
        logger.handlers.insert(0, handler)  # first: it masks before the others format
