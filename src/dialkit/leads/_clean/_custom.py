"""The custom fields a cleaned row is sent with: the file's columns, its extension, its
other numbers, within the contract's limit of custom fields per lead."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from dialkit._shown._words import counted
from dialkit.contract import MAX_CUSTOM_FIELDS

from ..._utils._base_error import InputError
from .._normalize._columns import normalize
from .._read._headers import other_phones
from .._read._lead_file import LeadFile
from .._read._phone_cells import SAMPLE_ROWS

VERDICT_COLUMNS = ("row", "phone_e164", "country", "extension", "alt_phone", "status",
                   "reason", "field", "flags", "hint")
"""The columns :func:`clean` adds after the file's own."""

Sent = dict[str, tuple[int, int]]
"""Per custom field sent besides the file's: rows that send it, rows that hold one but
have no room for it."""


def phone_columns(file: LeadFile) -> list[str]:
    """The file's columns besides its phone named for a phone, or read as phones by their
    cells (:attr:`LeadFile.phone_cells`), and mapped to no other field: the fallbacks for
    the phone, and the row's other numbers."""
    mapped = set(file.fields.values())
    named = other_phones([str(c) for c in file.frame.columns], file.fields["phone"])
    return [column for column in (*named, *file.phone_cells) if column not in mapped]


def with_numbers(file: LeadFile, rows: Callable[[], pd.DataFrame], region: str,
                 country: str | None) -> LeadFile:
    """``file`` without the columns read as phones by their cells none of whose first
    rows' cells (``rows()``, :data:`SAMPLE_ROWS` of them) is a valid number in its row's
    region where another such column's are: a school register's 8-digit numbers (``NPSN``)
    beside its phones were the phone, each lead's register number sent as its other
    number. Such a column is a custom field, and :attr:`LeadFile.numberless` names it."""
    if len(file.phone_cells) < 2:
        return file
    first = rows().head(SAMPLE_ROWS)
    countries = None if country is None else first[country]
    valid = [column for column in file.phone_cells if normalize(
        first[column], region=region, country=countries)["phone_e164"].notna().any()]
    if not valid or len(valid) == len(file.phone_cells):
        return file
    fields = {"phone": valid[0], **{field: column for field, column in file.fields.items()
                                     if field != "phone"}}
    rest = [column for column in map(str, file.frame.columns) if column not in
            fields.values()]
    return dataclasses.replace(
        file, fields=fields, phone_cells=tuple(valid), custom_fields=rest[:MAX_CUSTOM_FIELDS],
        unused=rest[MAX_CUSTOM_FIELDS:],
        numberless=tuple(column for column in file.phone_cells if column not in valid))


def frame_column(name: str) -> str:
    """A file column's name in a cleaned frame (renamed if a verdict column took it)."""
    return f"{name} (file)" if name in VERDICT_COLUMNS else name


@dataclass(frozen=True)
class CustomFields:
    """The custom fields of a file's leads: the file's own columns (``sent``), and
    ``extension_field`` and ``alt_phone_field`` (``None``: not sent) besides them.
    Held as names, not as the file, so that an import reading its plan back a part at
    a time builds the leads the clean of the whole file would have."""

    name: str
    sent: tuple[str, ...]
    extension_field: str | None
    alt_phone_field: str | None

    @classmethod
    def of(cls, file: LeadFile, extension_field: str | None,
           alt_phone_field: str | None) -> CustomFields:
        """The file's columns sent as custom fields: not its other phone columns, whose
        numbers go in ``alt_phone``."""
        phones = set(phone_columns(file))
        return cls(file.name, tuple(name for name in file.custom_fields if name not in phones),
                   extension_field, alt_phone_field)

    def columns(self) -> list[str]:
        """The file's columns sent as custom fields."""
        return list(self.sent)

    def names(self) -> list[str]:
        """The custom fields sent besides the file's."""
        return [name for name in (self.extension_field, self.alt_phone_field) if name]

    def check(self, held: Mapping[str, bool]) -> None:
        """Refuse a custom field name of the extension or ``alt_phone`` that a column of
        the file already sends, when there is something to send under it (``held``:
        whether any row has an ``extension``, an ``alt_phone``)."""
        for name, column, option, what in (
                (self.extension_field, "extension", "extension_field", "extensions"),
                (self.alt_phone_field, "alt_phone", "alt_phone_field", "other numbers")):
            if name in self.columns() and held[column]:
                raise InputError(f"{self.name} has a column {name!r}, the custom field "
                                 f"{what} are sent as: pass {option}= another name, or None "
                                 "to leave them out")

    def extras(self, rows: pd.DataFrame) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """Per custom field sent besides the file's (the extension's, ``alt_phone``'s):
        which of ``rows`` send it, and which hold one but have no room left under
        the contract's limit (the extension goes first)."""
        used = np.zeros(len(rows), dtype=np.int64)
        for custom in self.columns():
            used += rows[frame_column(custom)].notna().to_numpy(dtype=np.int64)
        extras = {}
        for option, column in ((self.extension_field, "extension"),
                               (self.alt_phone_field, "alt_phone")):
            if option is None or column not in rows:
                continue
            held = rows[column].notna().to_numpy(dtype=bool)
            sent = held & (used < MAX_CUSTOM_FIELDS)
            used += sent
            extras[option] = (sent, held & ~sent)
        return extras

    def counted(self, rows: pd.DataFrame, *, accepted_only: bool = False) -> Sent:
        """:meth:`extras` counted (of the accepted rows alone, with ``accepted_only``)."""
        kept = ((rows["status"] == "accepted").to_numpy(dtype=bool) if accepted_only
                else np.ones(len(rows), dtype=bool))
        return {name: (int((sent & kept).sum()), int((no_room & kept).sum()))
                for name, (sent, no_room) in self.extras(rows).items()}

    def said(self, sent: Sent) -> str | None:
        """How many extensions and other numbers go as custom fields, and how many found
        no room, in a sentence; ``None`` when none."""
        said = []
        for name, word in ((self.extension_field, "extension"),
                           (self.alt_phone_field, "second number")):
            if name is None or name not in sent:
                continue
            going, no_room = sent[name]
            if going:
                said.append(f"{counted(going, word)}")
            if no_room:
                said.append(f"{counted(no_room, word)} not sent: the row already "
                            f"has {MAX_CUSTOM_FIELDS} custom fields")
        sent_words = [part for part in said if "not sent" not in part]
        text = " and ".join(sent_words)
        if sent_words:
            text += f" sent as custom fields ({', '.join(self.names())})"
        rest = [part for part in said if "not sent" in part]
        return "; ".join([t for t in (text, *rest) if t]) or None
