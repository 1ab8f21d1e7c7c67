"""Which column of a lead file holds which lead field, by the names people give them."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from types import MappingProxyType

from ..contract import MAX_CUSTOM_FIELDS

ALIASES: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "phone": ("phone", "phonenumber", "mobile", "mobilephone", "mobilenumber", "cell",
              "cellphone", "cellnumber", "tel", "telephone", "telephonenumber", "workphone",
              "homephone", "officephone", "businessphone", "otherphone", "altphone",
              "alternatephone", "phone2", "secondphone"),
    "first_name": ("firstname", "givenname"),
    "last_name": ("lastname", "surname", "familyname"),
    "full_name": ("fullname", "name"),
    "email": ("email", "emailaddress"),
    "external_id": ("externalid", "id", "leadid"),
    "country": ("country", "countrycode"),
})
"""Header names of each field, compared without case, spaces or punctuation
(``E-mail``, ``Phone Number``, ``Téléphone`` and ``first_name`` all match). ``country`` is not
a lead field: it tells the normaliser each row's country."""

_NOT_ALNUM = re.compile(r"[\W_]+")


def squeeze(header: str) -> str:
    """A header without case, accents, spaces or punctuation: ``"E-mail Address"`` →
    ``"emailaddress"``, ``"Téléphone"`` → ``"telephone"``."""
    letters = unicodedata.normalize("NFKD", header.casefold())
    return _NOT_ALNUM.sub("", "".join(c for c in letters if not unicodedata.combining(c)))


def map_headers(columns: Sequence[str], mapping: Mapping[str, str] | None
                ) -> tuple[dict[str, str], list[str], list[str]]:
    """(field → column, custom field columns, columns beyond the custom-field limit).

    ``mapping`` (field → column) wins over the names; of two columns with names
    of one field, the first is the field and the second a custom field.
    """
    fields = dict(mapping or {})
    taken = set(fields.values())
    by_name = {alias: field for field, aliases in ALIASES.items() for alias in aliases}
    for column in columns:
        field = by_name.get(squeeze(column))
        if column not in taken and field is not None and field not in fields:
            fields[field] = column
            taken.add(column)
    rest = [column for column in columns if column not in taken]
    return fields, rest[:MAX_CUSTOM_FIELDS], rest[MAX_CUSTOM_FIELDS:]


def other_phones(columns: Sequence[str], phone: str) -> list[str]:
    """The columns besides ``phone`` named for a phone (``Mobile``, ``Work phone``), in
    file order: where the phone column holds no valid number, the first of them that
    does gives the row's phone, and the rest are kept as the lead's other numbers."""
    names = set(ALIASES["phone"])
    return [column for column in columns if column != phone and squeeze(column) in names]


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
