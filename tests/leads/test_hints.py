"""A refused number's region hint is read as its definition says, however the reading is
saved (issue 70, item 6).

The definition: each distinct refused text normalised under every candidate region, and
hinted where the candidates that read a number read one. The clean reads less: not under a
region that reads every text as the file's region does, once for regions that read texts
alike, not again where two regions found two numbers, not again for a text an earlier
chunk of the file read. Here the hints are held to the definition, on texts of many
regions written every way, and a file's chunks with their readings kept to the file read
whole.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import phonenumbers
import pytest

from dialkit.leads import normalize
from dialkit.leads._clean._hints import Reading, hint_key, region_hints

_F = phonenumbers.PhoneNumberFormat
PREFIXES = ("", "0", "1", "00", "011", "90", "015", "8", "0 ", "(")
NEAR = ("US", "CA", "DO", "JM", "AG", "GB", "GG", "JE", "RU", "KZ", "FI", "AX", "NO", "SJ",
        "IT", "VA", "BR", "AR", "GA", "RE", "YT", "AU", "CC", "MA", "EH", "DE", "FR", "IN",
        "MX")
"""Regions that share a calling code, or whose national prefixes are rewritten: the
candidates whose readings the clean shares or orders."""


def _cells(rng: np.random.Generator, rows: int) -> list[str | None]:
    """Example numbers of every region, their last digits varied, written nationally,
    internationally or as E.164, some with an extension or dots; random digits after a
    prefix; a blank and junk."""
    examples = [number for region in sorted(phonenumbers.SUPPORTED_REGIONS)
                for kind in (phonenumbers.PhoneNumberType.FIXED_LINE,
                             phonenumbers.PhoneNumberType.MOBILE)
                if (number := phonenumbers.example_number_for_type(region, kind)) is not None]
    cells: list[str | None] = [None, "", "n/a"]
    for _ in range(rows):
        if rng.integers(4) == 0:
            digits = "".join(map(str, rng.integers(0, 10, rng.integers(3, 16))))
            cells.append(str(rng.choice(PREFIXES)) + digits)
            continue
        example = examples[rng.integers(len(examples))]
        number = phonenumbers.PhoneNumber(
            country_code=example.country_code,
            national_number=example.national_number // 100 * 100 + int(rng.integers(100)),
            italian_leading_zero=example.italian_leading_zero,
            number_of_leading_zeros=example.number_of_leading_zeros)
        text = phonenumbers.format_number(number, (_F.NATIONAL, _F.NATIONAL, _F.INTERNATIONAL,
                                                   _F.E164)[rng.integers(4)])
        cells.append(text.replace(" ", ".") if rng.integers(15) == 0 else
                     text + " x12" if rng.integers(10) == 0 else text)
    return cells


def _defined(cells: pd.Series, numbers: pd.DataFrame, region: str,
             candidates: list[str]) -> list[str | None]:
    """Each row's hint as the definition has it: every distinct refused text (a full
    number of ``region`` not written with ``+``) normalised under every candidate."""
    refused = (numbers["reason"] == "invalid_phone").fillna(False).to_numpy(bool)
    texts = sorted({cell for cell in cells[refused].dropna()})
    if not texts or not candidates:
        return [None] * len(cells)
    shortest = min(phonenumbers.PhoneMetadata.metadata_for_region(region)
                   .general_desc.possible_length)
    read = {name: normalize(pd.Series(texts, dtype="string[pyarrow]"), region=name)
            for name in candidates}
    said: dict[str, str] = {}
    for at, text in enumerate(texts):
        if text.lstrip().startswith("+") or sum(c.isdigit() for c in text) < shortest:
            continue
        found = [(name, read[name]["phone_e164"].iloc[at], read[name]["country"].iloc[at])
                 for name in candidates if pd.notna(read[name]["phone_e164"].iloc[at])]
        if found and len({e164 for _, e164, _ in found}) == 1:
            name, e164, own = found[0]
            same = (phonenumbers.country_code_for_region(own)
                    == phonenumbers.country_code_for_region(name))
            said[text] = Reading(own if same else name, e164, own).hint(None)
    return [said.get(cell) if hinted else None
            for cell, hinted in zip(cells.tolist(), refused, strict=True)]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_hints_are_what_every_candidate_reads(seed: int) -> None:
    rng = np.random.default_rng(seed)
    for region in ("US", "GB", "RU", "FI", "CA", "BR", "AG"):
        cells = pd.Series(_cells(rng, 300), dtype="string[pyarrow]")
        numbers = normalize(cells, region=region)
        candidates = [name for name in dict.fromkeys(
            [*rng.choice(sorted(phonenumbers.SUPPORTED_REGIONS), 6).tolist(),
             *rng.choice(NEAR, 8).tolist()]) if name != region]
        hints, keys = region_hints(cells, numbers, region, lambda c=candidates: c)
        expected = _defined(cells, numbers, region, candidates)
        assert (hints.to_pylist() if hints is not None else [None] * len(cells)) == expected
        assert sum(keys.values()) == sum(hint is not None for hint in expected)


def test_a_file_read_in_chunks_keeping_its_readings_hints_as_read_whole() -> None:
    rng = np.random.default_rng(7)
    cells = pd.Series(_cells(rng, 900) * 2, dtype="string[pyarrow]")
    numbers = normalize(cells)
    candidates = ["CA", "GB", "DE", "FR", "BR", "IN", "MX", "JM"]
    whole, counted = region_hints(cells, numbers, "US", lambda: candidates)
    seen: dict[str, Reading | None] = {}
    parts = [region_hints(cells.iloc[at:at + 500], numbers.iloc[at:at + 500], "US",
                          lambda: candidates, seen=seen) for at in range(0, len(cells), 500)]
    assert whole is not None and seen
    assert [hint for part, _ in parts for hint in (part.to_pylist() if part is not None
                                                   else [None] * 500)][:len(cells)] \
        == whole.to_pylist()
    assert sum(sum(keys.values()) for _, keys in parts) == sum(counted.values())


@pytest.mark.parametrize("candidates", [["CA"], ["CA", "DO", "PR"], []])
def test_candidates_that_read_as_the_file_s_region_hint_nothing(candidates: list[str]) -> None:
    cells = pd.Series(["645 953 2262", "020 7946 0958", None], dtype="string[pyarrow]")
    assert region_hints(cells, normalize(cells), "US", lambda: candidates) == (None, {})


def test_a_hint_is_counted_under_its_key() -> None:
    cells = pd.Series(["020 7946 0958", "020 7946 0958", "(415) 555-0123"],
                      dtype="string[pyarrow]")
    hints, keys = region_hints(cells, normalize(cells), "US", lambda: ["GB", "CA"])
    assert keys == {hint_key("GB"): 2}
    assert hints is not None and hints.to_pylist()[2] is None


def test_a_number_of_a_calling_code_of_no_region_is_a_reading_too() -> None:
    cells = pd.Series(["00 800 1234 5678"], dtype="string[pyarrow]")  # +800 where 00 dials out
    hints, keys = region_hints(cells, normalize(cells, region="AU"), "AU", lambda: ["GB"])
    assert keys == {"GB": 1}
    assert hints is not None
    assert hints.to_pylist()[0].startswith("a valid non-geographic number, +80012345678")


def test_each_ambiguous_cell_names_the_readings_of_its_own_region() -> None:
    """Cells of digits of two regions, read in one file: each hint names its own region's
    numbers, as ``phonenumbers`` reads the digits as written and the other way they mean
    (with the calling code first; with the leading 0 a spreadsheet dropped)."""
    cells = pd.Series(["4915120413050.0", "6031234.0", "4915120413050.0"], dtype="string[pyarrow]")
    countries = pd.Series(["Germany", "GA", "DE"], dtype="string[pyarrow]", name="Country")
    numbers = normalize(cells, country=countries)
    assert numbers["reason"].tolist() == ["ambiguous_phone"] * 3

    def e164(digits: str, region: str) -> str:
        return phonenumbers.format_number(phonenumbers.parse(digits, region), _F.E164)

    german = (f"{e164('4915120413050', 'DE')} as written; "
              f"{e164('+4915120413050', 'DE')} with its calling code first")
    gabon = (f"{e164('6031234', 'GA')} as written; {e164('06031234', 'GA')} with the "
             "leading 0 a spreadsheet drops from a number")
    hints, _ = region_hints(cells, numbers, "US", lambda: ["GB"], countries)
    assert hints is not None
    assert hints.to_pylist() == [
        f"the digits read as more than one valid {region} number: {readings}; write the "
        "number with + and its country code"
        for region, readings in (("DE", german), ("GA", gabon), ("DE", german))]
