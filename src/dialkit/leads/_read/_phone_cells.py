"""Which columns of a lead file hold phone numbers, by what their cells hold, where no
header names a phone: a file whose numbers sit under ``Number``, ``Contact``
or ``Primary``, or a dialer's upload read without a header line (its columns ``0``,
``1``, ...).

A column is read so when nine in ten of the cells with a digit in its first rows, and
half of all its filled ones, are written as a phone is (seven to fifteen digits, a ``+``
or ``00`` before them, and only the spaces, dots, dashes, slashes and brackets people
group them with, an extension after them; ``n/a`` says there is none), and
its header names nothing else a number can be: an id, a date, a postcode, an amount (an
account number written as digits would pass the cells' test alone). A column of bare
numbers that count up, as a file's own row ids do, is no phone's either.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import numpy as np
import pandas as pd

from ._phone_names import NOT_A_NUMBER, words

SAMPLE_ROWS = 100
"""The first rows whose cells decide: every reader of a file (whole, streamed, on Dask)
looks at the same ones."""

PHONE_SHARE = 0.9
"""The share of a column's cells with a digit among its first rows that must be written
as phones."""

OTHER_NUMBERS = NOT_A_NUMBER | frozenset({
    "id", "ref", "reference", "identifier", "key", "zip", "zipcode", "postal", "postcode",
    "plz", "cep", "amount", "price", "total", "balance", "sum", "account", "order",
    "invoice", "sku", "ssn", "tax", "vat", "iban", "card", "age", "year", "score", "qty",
    "quantity", "datum", "fecha", "data", "birth", "dob", "latitude", "longitude", "latitud",
    "longitud", "lat", "lon", "lng", "long", "coord", "coor", "coordinate", "coordinates",
})
"""Words of a header that name a number other than a phone's (``Account No``, ``Zip``,
``Order Date``, ``Longitude``): such a column is never read as phones by its cells."""

_EXTENSION = r"\s*(?:x|ext\.?|extension|#)\s*\d{1,6}$"
_WRITTEN = r"'?(?:\+|00)?[\d\s().\-/]+"
"""A phone as people write it: digits grouped, a ``+`` or ``00`` first, and Excel's text
mark before it where a spreadsheet kept one (``'+431531200``)."""
_DATE = r"\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}|-?\d+\.\d+"
"""A date, or a decimal (a coordinate: ``-99.25929282``): never a phone by its cells."""
_COUNTING_STEP = 1_000
"""The largest step between a column's sorted bare numbers for it to count up as row
ids do (``1001``, ``1002``, ``1010``); phone numbers lie millions apart."""


def phone_cells(rows: pd.DataFrame, taken: Collection[str]) -> list[str]:
    """The columns of ``rows`` (a file's first :data:`SAMPLE_ROWS` rows, as text) whose
    cells hold phone numbers, in file order, but those in ``taken`` (mapped to another
    field) and those whose header names another number (:data:`OTHER_NUMBERS`)."""
    return [column for column in rows.columns
            if column not in taken and not OTHER_NUMBERS & set(words(str(column)))
            and _holds_phones(rows[column].head(SAMPLE_ROWS))]


def _holds_phones(cells: pd.Series) -> bool:
    filled = cells.dropna().astype(str).str.strip()
    filled = filled[filled != ""]
    if filled.empty:
        return False
    number = filled.str.replace(_EXTENSION, "", regex=True, case=False)
    digits = number.str.count(r"\d")
    shaped = (number.str.fullmatch(_WRITTEN) & digits.between(7, 15)
              & ~number.str.fullmatch(_DATE))
    said = digits > 0  # not "n/a", "none", "-": a phone column's cells without one
    return (bool(shaped[said].mean() >= PHONE_SHARE) and shaped.mean() >= 1 / 2
            and not _counts_up(number[said]))


def _counts_up(numbers: pd.Series) -> bool:
    """Whether ``numbers`` are bare digits that count up as row ids do (three or more)."""
    if len(numbers) < 3 or not numbers.str.fullmatch(r"\d{1,18}").all():
        return False
    steps = np.diff(np.sort(numbers.astype("int64").unique()))
    return bool(len(steps)) and int(steps.max()) <= _COUNTING_STEP


def first_rows(records: Sequence[Sequence[str]], columns: Sequence[str]) -> pd.DataFrame:
    """``records`` (a text file's first rows after its header, as split) as a frame of
    ``columns``, each row cut or filled to their width: what :func:`phone_cells` reads."""
    width = len(columns)
    cut = [[*row[:width], *([None] * (width - len(row)))] for row in records[:SAMPLE_ROWS]]
    return pd.DataFrame(cut, columns=list(columns), dtype=object)
