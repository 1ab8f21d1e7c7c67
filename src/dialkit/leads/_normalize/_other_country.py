"""Which valid numbers belong to another country than their row's country cell names.

The cell decides only numbers written without their country (``_columns``); a number
written in full is read as written whatever the cell says, and kept. Where the two
disagree (``+1 202 555 0111`` beside ``Ghana``, a Canadian area code beside ``US``) the
row is flagged ``other_country``, so that a reader sees it. A number the named country
shares under its calling code is its own: ``phonenumbers`` names an Australian mobile
``AU`` though Christmas Island (``CX``) dials it too.

A lead file's rows repeat a few pairs of countries (the cell's, the number's), so each
pair is judged once: countries of different calling codes differ; of one calling code,
``phonenumbers`` names the first region of the code's list whose plan the number fits,
so a country listed before the number's cannot be its own (``US`` before ``CA``), and
only one listed after it is asked, number by number (``CX`` after ``AU``).
"""

from __future__ import annotations

import numpy as np
import phonenumbers
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray


def other_country(found: pa.Array, e164: pa.Array, named: NDArray[np.bool_], names: list[str],
                  where: NDArray[np.int64]) -> NDArray[np.intp]:
    """The rows whose country cell named a region (``named``; ``names[where[row]]``) and
    whose valid number (``e164``, of region ``found``) is another country's. Each pair of
    regions is a key counted, not sorted: a sort of a million keys took 0.27 s."""
    regions = pc.dictionary_encode(found)
    dictionary = [None, *regions.dictionary.to_pylist()]
    keys = where * len(dictionary) + pc.fill_null(regions.indices, -1).to_numpy(
        zero_copy_only=False) + 1
    pairs = np.flatnonzero(np.bincount(keys[named], minlength=len(names) * len(dictionary)))
    kind = np.zeros(len(names) * len(dictionary), np.int8)
    kind[pairs] = [_kind(names[pair // len(dictionary)], dictionary[pair % len(dictionary)])
                   for pair in pairs.tolist()]
    of_row = np.where(named, kind[keys], _SAME)
    asked = np.flatnonzero(of_row == _ASK)
    if len(asked):
        numbers = e164.take(pa.array(asked)).to_pylist()
        said = [names[w] for w in where[asked].tolist()]
        shared = {key: _shared(*key) for key in set(zip(numbers, said, strict=True))}
        of_row[asked] = [_SAME if shared[key] else _OTHER
                         for key in zip(numbers, said, strict=True)]
    return np.flatnonzero(of_row == _OTHER)


_SAME, _OTHER, _ASK = 0, 1, 2
"""A pair of countries (the cell's, the number's): the same, another, or asked number by
number."""


def _kind(said: str, found: str | None) -> int:
    """What a number of region ``found`` is beside a cell naming ``said``."""
    if found is None or found == said:
        return _SAME
    code = phonenumbers.country_code_for_region(said)
    if code != phonenumbers.country_code_for_region(found):
        return _OTHER
    order = phonenumbers.COUNTRY_CODE_TO_REGION_CODE[code]
    return _ASK if order.index(said) > order.index(found) else _OTHER


def _shared(e164: str, region: str) -> bool:
    """Whether the number ``e164`` is valid in ``region`` too."""
    return phonenumbers.is_valid_number_for_region(phonenumbers.parse(e164), region)
