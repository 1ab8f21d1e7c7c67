"""What a TAB offers after an option that takes one of a closed set of values.

Completion runs the ``dialkit`` command for every TAB (click's ``_DIALKIT_COMPLETE``
protocol): it builds the command's options, so the values come from light constants
(:mod:`dialkit._utils._choices`, an enum beside the command), never from the code that acts on
them, and the command modules import pandas, the client or the audit inside the commands
only. ``tests/test_cli_completion.py`` holds each option's offer equal to what the command
accepts, and every completion free of pandas, numpy and ``phonenumbers``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable


def offering(values: Iterable[str]) -> Callable[[str], list[str]]:
    """An ``autocompletion=`` for an option that takes one of ``values``: a TAB offers
    those that start with what is typed, in their order."""
    choices = tuple(values)

    def complete(incomplete: str) -> list[str]:
        return [value for value in choices if value.startswith(incomplete)]

    return complete
