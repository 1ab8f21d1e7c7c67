"""Which column of a lead file holds which lead field, by the names people give them."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from types import MappingProxyType

from dialkit.contract import MAX_CUSTOM_FIELDS

from ..._files._headers import header_named, squeeze
from ._phone_cells import SAMPLE_ROWS
from ._phone_names import own_name, phone_header

ALIASES: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "phone": ("phone", "phonenumber", "mobile", "mobilephone", "mobilenumber", "cell",
              "cellphone", "cellnumber", "tel", "telephone", "telephonenumber", "workphone",
              "homephone", "officephone", "businessphone", "otherphone", "altphone",
              "alternatephone", "phone2", "secondphone"),
    "first_name": ("firstname", "givenname"),
    "last_name": ("lastname", "surname", "familyname"),
    "full_name": ("fullname", "name"),
    "email": ("email", "emailaddress"),
    "external_id": ("externalid", "id", "leadid", "leadnumber", "leadno", "leadnum"),
    "country": ("country", "countrycode"),
})
"""Header names of each field, compared without case, spaces or punctuation
(``E-mail``, ``Phone Number``, ``Téléphone`` and ``first_name`` all match); a ``#`` reads as
"number" where the name without it is none of them (``Lead #`` is ``Lead Number``, ``Mobile
#`` stays ``Mobile``). ``country`` is not a lead field: it tells the normaliser each row's
country.

The external id's names are those vendors' files give the row's own id (``Lead ID``, ``Lead
#``, ``Lead No``; :data:`OTHERWISE` has more); not ``Reference`` or ``Lead Ref``,
which as often hold a campaign's or a source's code (such a column gets a note instead,
:func:`near_notes`), nor ``Account`` or ``Client`` ids, which name the vendor's customer."""

OTHERWISE: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "external_id": ("recordid", "recordnumber", "recordno", "customerid", "customernumber",
                    "customerno", "contactid", "contactnumber"),
})
"""Header names read as a field only where no column has a name of :data:`ALIASES` for it:
a file with ``Lead ID`` and ``Customer ID`` sends its ``Lead ID`` as the external id and
keeps ``Customer ID`` as a custom field, whichever comes first."""

def map_headers(columns: Sequence[str], mapping: Mapping[str, str] | None
                ) -> tuple[dict[str, str], list[str], list[str]]:
    """(field → column, custom field columns, columns beyond the custom-field limit).

    ``mapping`` (field → column) wins over the names, and :data:`ALIASES` over
    :data:`OTHERWISE`; of two columns with names of one field, the first is the field
    and the second a custom field. The phone is the first column in file order whose
    header names a phone (:func:`._phone_names.phone_header`); the others are its
    fallbacks and the lead's other numbers (:func:`other_phones`). A header written as a
    path of names is read by its last (``contact.email``: :func:`._phone_names.own_name`).
    """
    fields = dict(mapping or {})
    taken = set(fields.values())
    if "phone" not in fields:  # the first of the phone columns (Phone 1 before Phone 2)
        first = next((c for c in columns if c not in taken and phone_header(c)), None)
        if first is not None:
            fields["phone"] = first
            taken.add(first)
    for names in (ALIASES, OTHERWISE):
        by_name = {alias: field for field, aliases in names.items() for alias in aliases}
        for column in columns:
            field = header_named(own_name(column), by_name)
            if column not in taken and field is not None and field not in fields:
                fields[field] = column
                taken.add(column)
    rest = [column for column in columns if column not in taken]
    return fields, rest[:MAX_CUSTOM_FIELDS], rest[MAX_CUSTOM_FIELDS:]


def other_phones(columns: Sequence[str], phone: str) -> list[str]:
    """The columns besides ``phone`` named for a phone (``Mobile``, ``Phone 2``, ``Tel.
    privat``: :func:`._phone_names.phone_header`), in file order: where the phone column
    holds no valid number, the first of them that does gives the row's phone, and the
    rest are kept as the lead's other numbers."""
    return [column for column in columns if column != phone and phone_header(column)]


def unique_headers(names: Sequence[str]) -> list[str]:
    """Header names made unique as pandas makes them (``a``, ``a.1``), a blank one named
    by its position (a CSV's and a workbook's header alike)."""
    seen: dict[str, int] = {}
    unique = []
    for n, raw in enumerate(names):
        header = raw.strip() and raw or f"column {n + 1}"
        count = seen.get(header, 0)
        seen[header] = count + 1
        unique.append(header if count == 0 else f"{header}.{count}")
    return unique


ID_WORDS = frozenset({"id", "ref", "reference", "identifier", "key"})
"""Words of a header that name an id (``Lead Ref``, ``Customer ID``): such a column, sent
as a custom field where no column is named as ``external_id`` is, gets a note."""
_WORDS = re.compile(r"[^\W_]+")
_SHORTEST_PART = 5
"""The fewest letters of a field's name found inside a header (``Email 2``) or of a header
found inside a field's name (``First``) for the two to be taken as near: ``name`` alone is
in too many headers (``Company Name``)."""


def fields_note(fields: Mapping[str, str], country: str | None,
                others: Sequence[str] = (), by_cells: bool = False,
                numberless: Sequence[str] = ()) -> str | None:
    """Which column became which lead field (one named as the field is, but for case and
    punctuation, left unsaid: ``First Name``, ``E-mail``), which hold the lead's other
    numbers (``others``: :func:`other_phones`) and how to choose another phone, and which
    gave each row's country, as the clean's note says it: ``columns read as: Phone 1 →
    phone, Phone 2 → the lead's other numbers (...), Lead ID → external_id``;
    ``by_cells``: the phone columns were read so by their cells, no header naming one;
    ``numberless``: columns written as phones but holding no valid number, not read so."""
    read = [f"{column} → {field}" + (" (its cells hold phone numbers; no header names a "
                                     "phone)" if by_cells and field == "phone" else "")
            for field, column in fields.items()
            if field != "country" and squeeze(column) != squeeze(field)]
    if others:
        read.insert(min(1, len(read)), f"{', '.join(others)} → the lead's other numbers "
                    f"(its phone where {fields['phone']} holds none; another phone: "
                    "mapping={'phone': '<column>'})")
    if numberless:
        read.insert(min(1, len(read)), f"{', '.join(numberless)} → custom fields, not phones "
                    f"(written as phones, but none of the first {SAMPLE_ROWS} cells is a "
                    f"valid number, and {fields['phone']}'s are)")
    if country is not None:
        read.append(f"{country} → each row's region (its phone is read as a number there)")
    return f"columns read as: {', '.join(read)}" if read else None


def near_notes(fields: Mapping[str, str], custom: Sequence[str]) -> list[str]:
    """For each custom field column named almost as a lead field no column holds (``Lead
    Ref``, not ``Lead ID``), why it went to custom fields and what would map it."""
    free = [field for field in ALIASES if field not in fields and field != "country"]
    notes = []
    for column in custom:
        field = next((field for field in free if _near(column, field)), None)
        if field is not None:
            *others, last = NAMES_SHOWN[field]
            names = f"{', '.join(others)} or {last}" if others else last
            notes.append(f"{column} sent as a custom field, not as {field}: a column is read as "
                         f"{field} when named {names}; rename it, or pass "
                         f"mapping={{'{field}': '<column>'}}")
    return notes


def _near(column: str, field: str) -> bool:
    """Whether a header reads almost as one of ``field``'s names: one holds the other
    (``Email 2``, ``First``), or, for ``external_id``, a word of it names an id."""
    squeezed = squeeze(column)
    if field == "external_id" and ID_WORDS & set(_WORDS.findall(column.casefold())):
        return True
    return any(len(alias) >= _SHORTEST_PART and alias in squeezed
               or len(squeezed) >= _SHORTEST_PART and squeezed in alias
               for alias in ALIASES[field])


NAMES_SHOWN: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "first_name": ("First Name", "Given Name"), "last_name": ("Last Name", "Surname"),
    "full_name": ("Full Name", "Name"), "email": ("Email",),
    "external_id": ("External ID", "Lead ID", "ID")})
"""The names of each field a near-miss note offers, as a header spells them: the
commonest of :data:`ALIASES`."""
