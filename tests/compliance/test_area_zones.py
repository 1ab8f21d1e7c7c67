"""Every zone of a number (issue 47, items 1 and 2): a NANP area code that spans two zones
judges a number of an exchange ``phonenumbers`` does not place in every zone of it, and
the US territories are judged by the federal row.

The law decides the verdicts: 16 CFR 310.4(c) forbids "engaging in outbound telephone
calls to a person's residence at any time other than between 8:00 a.m. and 9:00 p.m.
local time at the called person's location", and 47 CFR 64.1200(c)(1) the same "before
the hour of 8 a.m. or after 9 p.m. (local time at the called party's location)". Where
the exchange does not say which part of an area code the person is in, a call is lawful
only if it is lawful at every location the number may be. 47 U.S.C. 153: "United States:
means the several States and Territories, the District of Columbia, and the possessions
of the United States"."""

from __future__ import annotations

import tomllib
from importlib import resources

import numpy as np
import pandas as pd
import phonenumbers
import pytest
from phonenumbers import PhoneNumberFormat, PhoneNumberType
from phonenumbers.tzdata import TIMEZONE_DATA
from test_law import calls
from zone_oracle import AREA_ZONES

from dialkit._law import _jurisdictions as jurisdictions
from dialkit._phones._zones import ZONES, zoned
from dialkit.compliance import US, US_FEDERAL, audit, next_allowed, upcoming

TRI_CITIES = "+14232000142"
"""The issue's number: 423 is East Tennessee's, in the Eastern and Central zones; its
exchange 200 is one ``phonenumbers`` does not list, so it gave Chicago alone."""
CHATTANOOGA_LISTED = "+14232020000"
"""Exchange 202 of 423, which ``phonenumbers`` places in America/New_York itself."""
TUESDAY_2030_CST = "2026-11-25T02:30:00Z"
FEDERAL = jurisdictions.get("US").cite("hours")
NOT_SPREAD = {"907": {"Pacific/Honolulu"}}
"""A zone ``phonenumbers`` gives one exchange of an area code that the table does not
give the area code's other exchanges (``area_codes.toml`` says why)."""
OVERLAYS = {"448": "850", "364": "270", "930": "812", "458": "541", "986": "208",
            "236": "250", "257": "250", "672": "250", "778": "250", "367": "418", "581": "418"}
"""Overlay area codes and the code whose area they cover (lincmad.com/splitmap.html)."""


def _spanned() -> dict[str, set[str]]:
    """Each NANP area code's zones in ``phonenumbers``' table: those of every prefix of it."""
    found: dict[str, set[str]] = {}
    for prefix, zones in TIMEZONE_DATA.items():
        if prefix.startswith("1") and len(prefix) >= 4:
            found.setdefault(prefix[1:4], set()).update(zones)
    return found


def test_every_area_code_phonenumbers_places_in_several_zones_is_in_the_table() -> None:
    """Derived from ``phonenumbers``' own table: an area code whose exchanges it places in
    more zones than it gives the area code (or that it gives no zone of its own) lists
    them all; and each list starts with the area code's own zones."""
    spanned = _spanned()
    split = {area for area, zones in spanned.items()
             if zones - set(TIMEZONE_DATA.get(f"1{area}", ()))
             or f"1{area}" not in TIMEZONE_DATA}
    assert {"423", "850", "270", "219", "928", "541", "208", "605", "308", "812",
            "606"} <= split
    for area in split:
        assert spanned[area] - NOT_SPREAD.get(area, set()) <= set(AREA_ZONES[area]), area
    for area, zones in AREA_ZONES.items():
        own = TIMEZONE_DATA.get(f"1{area}", ())
        assert tuple(zones[:len(own)]) == own, area
        assert set(zones) <= set(ZONES), area
    assert "America/Denver" in AREA_ZONES["928"]  # the Navajo Nation keeps DST


@pytest.mark.parametrize(("overlay", "code"), sorted(OVERLAYS.items()))
def test_an_overlay_spans_the_zones_of_the_code_it_overlays(overlay: str, code: str) -> None:
    assert set(AREA_ZONES[overlay]) == set(AREA_ZONES[code])


def test_every_unlisted_exchange_of_423_is_judged_in_both_zones() -> None:
    """Of every valid exchange of 423, the ones ``phonenumbers`` lists keep its one zone;
    the others (most: the issue counted 579 of 641) get Eastern and Central."""
    texts = [f"+1423{exchange}0142" for exchange in range(200, 1000)]
    valid = [t for t in texts if phonenumbers.is_valid_number(phonenumbers.parse(t))]
    pairs = zoned(pd.Series(valid, dtype="string[pyarrow]"))
    found: list[set[str]] = [set() for _ in valid]
    for row, zone in zip(pairs.row.tolist(), pairs.zone.tolist(), strict=True):
        found[row].add(ZONES[zone])
    both = {"America/Chicago", "America/New_York"}
    listed = 0
    for text, zones in zip(valid, found, strict=True):
        prefix = next((text[1:n] for n in (8, 7, 6) if text[1:n] in TIMEZONE_DATA), None)
        if prefix is None:
            assert zones == both, text
        else:
            listed += 1
            assert zones == set(TIMEZONE_DATA[prefix]), text
    assert len(valid) - listed > 500 and listed > 50


def _hours_findings(frame: pd.DataFrame, rules: object = US_FEDERAL) -> pd.DataFrame:
    found = audit(frame, rules=rules).findings  # type: ignore[arg-type]
    return found[found["rule"] == "calling_hours"]


@pytest.mark.parametrize("rules", [US_FEDERAL, US], ids=["federal", "with-states"])
def test_tuesday_2030_central_to_an_unlisted_423_exchange_is_2130_eastern(
        rules: object) -> None:
    """The issue's case: Tue 20:30 CST is 21:30 in the Eastern part of 423, after 9:00 p.m.:
    a finding naming the Eastern zone and the federal hours rule."""
    [row] = _hours_findings(calls((TRI_CITIES, TUESDAY_2030_CST)), rules).to_dict("records")
    assert (row["timezone"], row["local_time"]) == ("America/New_York", "2026-11-24 21:30:00")
    assert row["evidence"].startswith("called Tue 21:30 America/New_York (")
    assert "16 CFR 310.4(c)" in row["citation"] and row["basis"] == "law"


def test_a_minute_before_nine_eastern_the_same_call_is_lawful_in_both_parts() -> None:
    assert _hours_findings(calls((TRI_CITIES, "2026-11-25T01:59:00Z"))).empty
    assert not _hours_findings(calls((TRI_CITIES, "2026-11-25T02:00:00Z"))).empty


def test_at_0730_central_the_eastern_part_is_open_but_the_central_part_is_not() -> None:
    """08:30 Eastern, 07:30 Central: before 8:00 a.m. where the person may be."""
    [row] = _hours_findings(calls((TRI_CITIES, "2026-11-24T13:30:00Z"))).to_dict("records")
    assert row["timezone"] == "America/Chicago"
    assert _hours_findings(calls((CHATTANOOGA_LISTED, "2026-11-24T13:30:00Z"))).empty


def test_a_listed_exchange_keeps_the_one_zone_phonenumbers_gives() -> None:
    assert _hours_findings(calls((CHATTANOOGA_LISTED, TUESDAY_2030_CST))).shape[0] == 1
    pairs = zoned(pd.Series([CHATTANOOGA_LISTED]))
    assert [ZONES[z] for z in pairs.zone] == ["America/New_York"]


def test_next_allowed_refuses_it_and_waits_for_eight_in_both_parts() -> None:
    [row] = next_allowed(TRI_CITIES, TUESDAY_2030_CST, rules=US_FEDERAL).to_dict("records")
    assert not row["allowed"] and row["rule"] == "calling_hours"
    assert row["forbidden_by"].startswith("Tue 21:30 America/New_York (US federal")
    # 08:00 Eastern (13:00Z) is 07:00 Central: the first moment both allow is 08:00 Central
    assert row["next_allowed_at"] == pd.Timestamp("2026-11-25T14:00:00Z")


def test_upcoming_finds_a_next_attempt_due_then() -> None:
    """A lead of that number whose next attempt is due at that moment, judged before it is
    made (``upcoming`` over the frames as ``load`` gives them)."""
    leads = pd.DataFrame({"id": ["lead_1"], "phone": [TRI_CITIES], "status": ["new"],
                          "campaign_id": ["cmp_1"],
                          "next_attempt_at": [pd.Timestamp(TUESDAY_2030_CST)]})
    callbacks = pd.DataFrame({"id": pd.Series([], dtype=object),
                              "lead_id": pd.Series([], dtype=object),
                              "campaign_id": pd.Series([], dtype=object),
                              "scheduled_at": pd.Series([], dtype="datetime64[ns, UTC]"),
                              "status": pd.Series([], dtype=object)})
    made = calls((TRI_CITIES, "2026-11-20T16:00:00Z"))
    found = upcoming({"calls": made, "leads": leads, "callbacks": callbacks},
                     rules=US_FEDERAL, as_of="2026-11-24T12:00:00Z", horizon="2D")
    [row] = found[found["rule"] == "calling_hours"].to_dict("records")
    assert row["kind"] == "next_attempt"
    assert row["evidence"].startswith("due Tue 21:30 America/New_York (")


TERRITORIES = ["PR", "VI", "GU", "MP", "AS"]


def _example(region: str) -> str:
    number = phonenumbers.example_number_for_type(region, PhoneNumberType.FIXED_LINE)
    return phonenumbers.format_number(number, PhoneNumberFormat.E164)


def _at_local(number: str, local: str) -> str:
    """The UTC moment at which it is ``local`` wall-clock time at ``number``."""
    [zone] = [ZONES[z] for z in zoned(pd.Series([number])).zone]
    return pd.Timestamp(local).tz_localize(zone).tz_convert("UTC").isoformat()


@pytest.mark.parametrize("region", TERRITORIES)
@pytest.mark.parametrize(("local", "forbidden"), [
    ("2026-11-24 23:00", True), ("2026-11-24 21:00", True), ("2026-11-24 20:59", False),
    ("2026-11-24 08:00", False), ("2026-11-24 07:59", True), ("2026-11-24 12:00", False)])
def test_a_territory_number_is_judged_by_the_federal_window(
        region: str, local: str, forbidden: bool) -> None:
    """Between 8:00 a.m. and 9:00 p.m. local time at the called person's location, in the
    territory's own zone, by the federal row (it has no state row)."""
    number = _example(region)
    assert phonenumbers.region_code_for_number(phonenumbers.parse(number)) == region
    found = _hours_findings(calls((number, _at_local(number, local))), US)
    assert len(found) == forbidden
    if forbidden:
        [row] = found.to_dict("records")
        assert (row["jurisdiction"], row["decided_by"], row["citation"]) == (
            "US", "number", FEDERAL)


def test_the_issues_puerto_rico_call_at_2300_and_next_allowed() -> None:
    at = _at_local("+17875550100", "2026-11-24 23:00")
    assert len(_hours_findings(calls(("+17875550100", at)), US)) == 1
    [row] = next_allowed("+17875550100", at).to_dict("records")
    assert (row["allowed"], row["jurisdiction"]) == (False, "US")
    assert (row["next_local_time"], row["timezone"]) == ("2026-11-25 08:00:00",
                                                         "America/Puerto_Rico")


def test_the_territories_entry_quotes_its_law() -> None:
    entry = tomllib.loads(resources.files("dialkit._places").joinpath(
        "area_codes.toml").read_text("utf-8"))["territories"]
    assert entry["regions"] == TERRITORIES and entry["country"] == "US"
    assert len(entry["sources"]) == 2 and all(s.startswith("https://")
                                              for s in entry["sources"])
    assert entry["citation"].split(" (")[0] in entry["text"]
    assert "several States and Territories" in entry["text"]
    assert np.all([bool(entry[key]) for key in ("doubts", "reviewed", "confirmed")])
