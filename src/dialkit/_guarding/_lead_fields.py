"""A lead's fields as the guard (a lead's contact) and its judge (a person's other
numbers) read them, one way, as the audit reads them."""

from __future__ import annotations

from collections.abc import Mapping


def address_state(fields: object) -> str | None:
    """A lead's address state, from its ``custom_fields`` (as the audit reads it)."""
    state = fields.get("state") if isinstance(fields, Mapping) else None
    return state if isinstance(state, str) and state.strip() else None


def other_phones(fields: object) -> object:
    """A lead's other numbers, from its ``custom_fields`` (``other_phones``: E.164 numbers
    in one text or a list, as the audit reads them), as written; None where it names none:
    a person's address state follows each of their numbers."""
    said = fields.get("other_phones") if isinstance(fields, Mapping) else None
    return said if isinstance(said, str | list) and said else None
