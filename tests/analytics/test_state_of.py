"""A number's US state or Canadian province, held to what nobody here wrote: the
descriptions of phonenumbers' own geocoder."""

from __future__ import annotations

import tomllib
from importlib import resources

import pandas as pd
import phonenumbers
import pytest
from phonenumbers import geocoder
from phonenumbers.geodata import GEOCODE_DATA

from dialkit.analytics import state_of
from place_names import PROVINCES, STATES


def geocoded(number: str) -> str | None:
    """The state or province phonenumbers' geocoder names for a NANP number (its longest
    prefix's description), or the US territory it is in; None for any other."""
    parsed = phonenumbers.parse(number)
    region = phonenumbers.region_code_for_number(parsed)
    if region in ("PR", "VI", "GU", "MP", "AS"):
        return region
    if region not in ("US", "CA") or not phonenumbers.is_number_type_geographical(
            phonenumbers.number_type(parsed), 1):
        return None
    name = geocoder.description_for_number(parsed, "en")
    if "/" in name:  # 902: "Nova Scotia/Prince Edward Island"
        return None
    return {**STATES, **PROVINCES}.get(name, name.rsplit(", ", 1)[-1])


def test_every_area_code_of_the_provinces_is_the_geocoders() -> None:
    """Each code of ``[provinces]`` is a Canadian number's, named that province by the
    geocoder, and every geographic Canadian code is in the table but the shared ones."""
    text = resources.files("dialkit._places").joinpath("area_codes.toml").read_text()
    table = tomllib.loads(text)["provinces"]
    listed = {code: province for province, codes in table.items() for code in codes}
    for code in range(200, 1000):
        number = f"+1{code}2345678"
        parsed = phonenumbers.parse(number)
        if phonenumbers.region_code_for_number(parsed) == "CA" and (
                phonenumbers.is_number_type_geographical(phonenumbers.number_type(parsed), 1)):
            expected = None if "/" in GEOCODE_DATA.get(f"1{code}", {}).get("en", "") else (
                geocoded(number))
            assert listed.get(code) == expected, code
    assert {782, 867, 902}.isdisjoint(listed) and len(listed) >= 50


@pytest.mark.parametrize(("number", "state"), [
    ("+12125550100", "NY"), ("+14155550100", "CA"), ("+14165550100", "ON"),
    ("+16045550100", "BC"), ("+1 (604) 555-0100", "BC"), ("+14235550100", "TN"),
    ("+12195550100", "IN"), ("+12035550100", "CT"), ("+19055550100", "ON"),
    ("+17875550100", "PR"), ("+19025550100", None), ("+18675550100", None),
    ("+18005550100", None), ("+442079460000", None), ("+447700900123", None),
    ("not a number", None), (None, None)])
def test_a_numbers_state_is_the_geocoders(number: str | None, state: str | None) -> None:
    """Split-zone codes (423, 219) keep one state; shared provinces' codes have none."""
    found = state_of(pd.Series([number], dtype=object))
    assert (None if pd.isna(found[0]) else found[0]) == state
    if number is not None and number != "not a number":
        assert geocoded(number) == state


def test_state_of_keeps_the_index_and_gives_strings() -> None:
    numbers = pd.Series(["+12125550100", None, "+14165550100"], index=[7, 3, 9],
                        dtype="string[pyarrow]")
    found = state_of(numbers)
    assert found.index.tolist() == [7, 3, 9] and found.name == "state"
    assert found.dtype == "string[pyarrow]" and found.isna().tolist() == [False, True, False]
    assert state_of([]).empty


@pytest.mark.parametrize("given", ["+12125550100", 12125550100])
def test_one_number_is_refused_with_what_to_pass(given: object) -> None:
    with pytest.raises(TypeError, match=r"column of phone numbers.*\[number\]"):
        state_of(given)  # type: ignore[arg-type]
