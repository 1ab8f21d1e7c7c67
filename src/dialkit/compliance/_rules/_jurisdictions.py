"""``dialkit.compliance.jurisdictions``: the calling rules of each place, as data.

The table and its loader live in :mod:`dialkit._law._jurisdictions` (the
emulator's world keeps the same law, and may not import this package); this module
publishes them where users look, with :func:`markdown`, the docs page's rendering.

Examples:
    >>> from dialkit.compliance import jurisdictions
    >>> jurisdictions.get("US-FL").name
    'Florida'
"""

from __future__ import annotations

from dialkit._law._jurisdictions import (
    APPLIES_TO,
    CITE_KINDS,
    DATA_FILE,
    DEFAULT_CATEGORIES,
    WHOLE_DAY,
    Jurisdiction,
    JurisdictionDataError,
    Window,
    all,
    cap_text,
    doubtful,
    get,
    is_banned_day,
    load,
    unconfirmed,
    window_text,
)

from ..._utils._base_error import UnknownJurisdictionError

__all__ = [
    "APPLIES_TO",
    "CITE_KINDS",
    "DATA_FILE",
    "DEFAULT_CATEGORIES",
    "WHOLE_DAY",
    "Jurisdiction",
    "JurisdictionDataError",
    "UnknownJurisdictionError",
    "Window",
    "all",
    "cap_text",
    "doubtful",
    "get",
    "is_banned_day",
    "load",
    "markdown",
    "unconfirmed",
    "window_text",
]


def markdown() -> str:
    """The table as docs/jurisdictions.md shows it, generated so the two cannot drift.

    Rendered by ``_jurisdictions_docs`` (imported on use: only the docs need it).
    """
    from dialkit.compliance._rules._jurisdictions_docs import markdown as render

    return render()
