"""Where the person called is: each number's region and US state, by its area code."""

from __future__ import annotations

import tomllib
from importlib import resources

import pandas as pd
import phonenumbers
import pytest
from phonenumbers.geodata import GEOCODE_DATA

from dialkit._places._states import places
from place_names import STATES as _NAMES

LOUISIANA, MIAMI, TOLL_FREE = "+15045550123", "+13055550123", "+18005550123"
LONDON, WINNIPEG = "+442079460000", "+12042345678"


def test_the_area_code_table_agrees_with_the_geocoder() -> None:
    """Every area code of the table is a US number's, and the geocoder's own name for it
    (``1`` + the code), where it has one (all but 203, 310, 713, 718), is that state's."""
    text = resources.files("dialkit._places").joinpath("area_codes.toml").read_text()
    table = tomllib.loads(text)["states"]
    assert len(table) == 51  # 50 states and DC
    for state, codes in table.items():
        for code in codes:
            number = phonenumbers.parse(f"+1{code}2345678")
            assert phonenumbers.region_code_for_number(number) == "US"
            name = GEOCODE_DATA.get(f"1{code}", {}).get("en")
            said = None if name is None else _NAMES.get(name, name.rsplit(", ", 1)[-1])
            assert said in (None, state), (code, name, state)
    assert sum(len(codes) for codes in table.values()) > 300


@pytest.mark.parametrize(("number", "region", "state"), [
    (LOUISIANA, "US", "LA"), (MIAMI, "US", "FL"), (TOLL_FREE, "US", None),
    (WINNIPEG, "CA", None), (LONDON, "GB", None), ("+1 (504) 555-0123", "US", "LA"),
    ("not a number", None, None)])
def test_places_of_numbers(number: str, region: str | None, state: str | None) -> None:
    where = places(pd.Series([number, None]))
    assert where.number[1] == -1
    assert (where.region[0], where.state[0]) == (region, state)
