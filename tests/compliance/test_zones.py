"""The column-at-a-time zones and regions give what ``phonenumbers`` gives number by number:
``parse``, then ``time_zones_for_number`` (every zone of a split NANP area code for an
exchange it does not place: ``zone_oracle``) and ``region_code_for_number``. On every
region's example number of every type (and the non-geographic entities'), written as
E.164, internationally, nationally and as a ``tel:`` URI, with digits changed, dropped and
added; and on random digits."""

from __future__ import annotations

from importlib import resources

import numpy as np
import pandas as pd
import phonenumbers
import pyarrow as pa
import pytest
from phonenumbers import PhoneNumberFormat, PhoneNumberType
from phonenumbers.tzdata import TIMEZONE_DATA
from zone_oracle import judged_zones

from dialkit._phones._parse import parse_e164
from dialkit._phones._zones import (
    ZONES,
    Zoned,
    regions_among,
    zoned,
    zones_of,
)
from dialkit._places._localtime import wall_clock
from dialkit._utils import _tuning
from dialkit.compliance import first_zones

TYPES = [getattr(PhoneNumberType, name) for name in dir(PhoneNumberType) if name.isupper()]
STYLES = (PhoneNumberFormat.INTERNATIONAL, PhoneNumberFormat.NATIONAL,
          PhoneNumberFormat.RFC3966)


def _examples() -> list[phonenumbers.PhoneNumber]:
    """Every example number ``phonenumbers`` has: by region and type, and non-geographic."""
    found = [phonenumbers.example_number_for_type(region, kind)
             for region in sorted(phonenumbers.SUPPORTED_REGIONS) for kind in TYPES]
    found += [phonenumbers.example_number_for_non_geo_entity(code)
              for code in sorted(phonenumbers.COUNTRY_CODES_FOR_NON_GEO_REGIONS)]
    return [number for number in found if number is not None]


def _changed(e164: str, rng: np.random.Generator) -> list[str]:
    """``e164`` with its last digits changed, its last dropped and one added: numbers of the
    same prefix that may be invalid, or of another type or region."""
    digits = "".join(rng.choice(list("0123456789"), 3))
    return [e164[:-3] + digits, e164[:-1], e164 + digits[0]]


def _texts() -> list[str | None]:
    rng = np.random.default_rng(20260601)
    e164, other = [], []
    for number in _examples():
        plain = phonenumbers.format_number(number, PhoneNumberFormat.E164)
        e164 += [plain, *_changed(plain, rng)]
        other += [phonenumbers.format_number(number, style) for style in STYLES]
    random = ["+" * int(rng.integers(0, 2)) + "".join(rng.choice(list("0123456789"), size))
              for size in rng.integers(1, 19, 1500)]
    unicode = ["+\u0661\u0662\u0661\u0662\u0665\u0665\u0665\u0660\u0661\u0660\u0660",
               "+1\u06622125550100", "+\u00e92125550100", "\u00e9+12125550100",
               "+\uff11\uff12125550100"]  # digits phonenumbers reads, and a letter
    return [*e164, *other, *random, *unicode, None, "", "+", "+1", "+12125550123"]


TEXTS = _texts()


def _expected(text: str | None) -> tuple[str | None, list[str]]:
    """``phonenumbers``' region and zones of one text (none where ``parse`` raises), every
    zone of a split NANP area code where it places the exchange by the area code alone
    (:func:`zone_oracle.judged_zones`)."""
    try:
        number = phonenumbers.parse(text)
    except phonenumbers.NumberParseException:
        return None, []
    return phonenumbers.region_code_for_number(number), judged_zones(number)


EXPECTED = [_expected(text) for text in TEXTS]


@pytest.fixture
def phones() -> pd.Series:
    """The texts as ``client.frames`` types a column of numbers."""
    return pd.Series(TEXTS, dtype="string[pyarrow]")


def test_the_texts_are_many_and_mostly_go_the_column_way() -> None:
    """Else the answers below could all be ``phonenumbers``' own, asked one at a time."""
    assert len(TEXTS) > 5000
    assert sum(region is not None for region, _ in EXPECTED) > 3000
    plain = pa.array([t for t in TEXTS if t and t.startswith("+") and t[1:].isdigit()
                      and not t.startswith("+0") and len(t) >= 4], pa.string())
    slow = parse_e164(plain)[3]
    assert len(plain) > 3000 and len(slow) < 0.1 * len(plain)


@pytest.mark.parametrize("dtype", ["string[pyarrow]", object])
def test_each_rows_zones_are_phonenumbers_in_its_order(dtype: object) -> None:
    pairs = zoned(pd.Series(TEXTS, dtype=dtype))
    found: list[list[str]] = [[] for _ in TEXTS]
    for row, zone in zip(pairs.row.tolist(), pairs.zone.tolist(), strict=True):
        found[row].append(ZONES[zone])
    assert found == [zones for _, zones in EXPECTED]
    assert pairs.unknown.tolist() == [n for n, (_, zones) in enumerate(EXPECTED) if not zones]


def _tzif(zone: str) -> bytes:
    """A zone's compiled file in the tzdata package: a link's is its target's, byte for
    byte."""
    return resources.files("tzdata").joinpath("zoneinfo", *zone.split("/")).read_bytes()


_CANONICAL = {line.split("\t")[2] for line in resources.files("tzdata").joinpath(
    "zoneinfo", "zone1970.tab").read_text("utf-8").splitlines() if not line.startswith("#")}
"""The zones tzdata names as the canonical zone of a place (``zone1970.tab``)."""


def _said(zones: list[str]) -> str | None:
    """The zone a table names for a number: phonenumbers' first, unless every zone keeps
    the same clock (one compiled file) and one of them is the canonical one."""
    if len({_tzif(zone) for zone in zones}) == 1:
        return next((zone for zone in zones if zone in _CANONICAL), zones[0])
    return zones[0] if zones else None


def _clocks(zones: list[str]) -> int:
    """How many different clocks the zones keep."""
    return len({_tzif(zone) for zone in zones})


def test_a_uk_mobile_is_said_to_be_in_london() -> None:
    """phonenumbers lists Europe/Guernsey first of the four zones of a UK mobile, which
    keep one clock: London's is the name a person knows, and it is one clock, not four."""
    mobile = phonenumbers.format_number(phonenumbers.example_number_for_type(
        "GB", PhoneNumberType.MOBILE), PhoneNumberFormat.E164)
    assert judged_zones(phonenumbers.parse(mobile))[0] == "Europe/Guernsey"
    names, zone, count = first_zones(pd.Series([mobile, "+14235550100"]))
    assert [names[z] for z in zone] == ["Europe/London", "America/Chicago"]
    assert count.tolist() == [1, 2]


@pytest.mark.parametrize("part", [_tuning.ZONE_PART_TEXTS, 1000], ids=["whole", "in-parts"])
def test_first_zones_are_phonenumbers_first(phones: pd.Series, part: int,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Found whole (a few thousand numbers), and in halves side by side (as 50,000 and
    more are)."""
    monkeypatch.setattr(_tuning, "ZONE_PART_TEXTS", part)
    names, zone, count = first_zones(phones)
    assert [names[z] if z >= 0 else None for z in zone.tolist()] == [
        _said(zones) for _, zones in EXPECTED]
    assert count.tolist() == [_clocks(zones) for _, zones in EXPECTED]


def test_first_zones_of_some_rows_are_theirs_among_the_zones_they_meet(
        phones: pd.Series) -> None:
    rows = np.flatnonzero(np.arange(len(TEXTS)) % 3 == 1)
    names, zone, count = first_zones(phones, rows)
    expected = [EXPECTED[n][1] for n in rows]
    assert [names[z] if z >= 0 else None for z in zone.tolist()] == [
        _said(zones) for zones in expected]
    assert names == sorted({_said(zones) for zones in expected if zones})
    assert count.tolist() == [_clocks(zones) for zones in expected]


@pytest.mark.parametrize("dtype", ["string[pyarrow]", object])
@pytest.mark.parametrize("cells", [[None], [None, None], []])
def test_a_column_of_no_number_has_unknown_zones(dtype: object, cells: list[None]) -> None:
    """All nulls (the distinct numbers are none) raised IndexError: -1 indexed an empty
    array."""
    names, zone, count = first_zones(pd.Series(cells, dtype=dtype))
    assert (names, zone.tolist(), count.tolist()) == ([], [-1] * len(cells), [0] * len(cells))
    assert zoned(pd.Series(cells, dtype=dtype)).unknown.tolist() == list(range(len(cells)))


def test_zones_of_each_distinct_number_are_phonenumbers(phones: pd.Series) -> None:
    table = zones_of(phones)
    found = table.groupby("phone", sort=False)["zone"].agg(
        lambda z: [v for v in z if isinstance(v, str)]).to_dict()
    expected = {text: zones for text, (_, zones) in zip(TEXTS, EXPECTED, strict=True)
                if text is not None}
    assert found == expected


@pytest.mark.parametrize("regions", [
    sorted(phonenumbers.SUPPORTED_REGIONS | {"001"}),  # every number's region
    ["CA", "JE", "VA", "KZ"],  # regions that share a calling code with another
    ["US"],
])
def test_regions_among_are_phonenumbers_regions(phones: pd.Series, regions: list[str]) -> None:
    rows, numbers = regions_among(phones, regions)
    wanted = [n for n, (region, _) in enumerate(EXPECTED) if region in regions]
    assert rows.tolist() == wanted
    assert numbers.to_dict() == {TEXTS[n]: EXPECTED[n][0] for n in wanted}


def test_regions_among_are_kept_per_regions_asked(phones: pd.Series) -> None:
    """One column asked of several sets of regions in turn, twice: each set's own answer,
    kept with the column's distinct numbers."""
    sets = (["CA", "JE"], ["US"], ["JE", "CA"], [])
    for regions in (*sets, *sets):
        rows, numbers = regions_among(phones, regions)
        assert rows.tolist() == [n for n, (region, _) in enumerate(EXPECTED)
                                 if region in regions]
        assert set(numbers) <= set(regions)


def _at_every_prefix() -> list[str]:
    """Numbers that start with each prefix of ``phonenumbers``' zone table: its calling
    code's main region's example fixed-line and mobile numbers with their first digits
    replaced by the prefix's, and the prefix alone (shorter than the prefixes the table
    is read by)."""
    texts = []
    for prefix in TIMEZONE_DATA:
        for code in (int(prefix[:n]) for n in (1, 2, 3) if int(prefix[:n]) in
                     phonenumbers.COUNTRY_CODE_TO_REGION_CODE):
            region = phonenumbers.region_code_for_country_code(code)
            for kind in (PhoneNumberType.FIXED_LINE, PhoneNumberType.MOBILE):
                example = phonenumbers.example_number_for_type(region, kind)
                if example is not None:
                    digits = phonenumbers.format_number(example, PhoneNumberFormat.E164)[1:]
                    texts.append("+" + prefix + digits[len(prefix):])
        texts.append("+" + prefix)
    return texts


def test_zones_at_every_prefix_of_the_table_are_phonenumbers() -> None:
    """The zones of a geographic number are read from one array per calling code, by the
    number's first digits (``_prefix_table``): the longest prefix of the table decides,
    as ``time_zones_for_number`` finds it, for numbers longer and shorter than those."""
    texts = _at_every_prefix()
    expected = [_expected(text)[1] for text in texts]
    pairs = zoned(pd.Series(texts, dtype="string[pyarrow]"))
    found: list[list[str]] = [[] for _ in texts]
    for row, zone in zip(pairs.row.tolist(), pairs.zone.tolist(), strict=True):
        found[row].append(ZONES[zone])
    assert found == expected
    assert sum(1 for zones in expected if zones) > 3000  # most reach the prefix lookup


_ODD_ZONES = ["America/St_Johns", "Australia/Adelaide", "Australia/Lord_Howe", "Asia/Kathmandu",
              "America/New_York", "Europe/London", "Pacific/Chatham", "America/Santiago",
              "Asia/Tehran", "Africa/Casablanca", "America/Phoenix", "Pacific/Apia"]
"""Zones whose offsets change at half hours, by half an hour, around a day's edge, by
the moon's calendar; or not at all."""


@pytest.mark.parametrize(("pairs", "days"), [(40_000, 70), (3_000, 4_000), (40_000, 0)])
def test_wall_clock_is_pandas_conversion_in_each_zone(pairs: int, days: int) -> None:
    """Every pair's local time, by the kept hourly offsets (a span of fewer hours per zone
    than pairs; moments on and beside the half hours at which offsets change) or zone by
    zone (a long span of few pairs), is pandas' conversion; NaT stays NaT."""
    rng = np.random.default_rng(pairs + days)
    zones = [ZONES.index(z) for z in _ODD_ZONES if z in ZONES]
    start = pd.Timestamp("2026-09-15", tz="UTC").value
    ticks = start + rng.integers(0, max(days, 1) * 86_400 * 10**9, pairs)
    half_hour = 1_800 * 10**9
    ticks[: pairs // 4] = ticks[: pairs // 4] // half_hour * half_hour + rng.integers(
        -2, 3, pairs // 4)
    at = pd.Series(pd.to_datetime(ticks, utc=True)).astype("datetime64[us, UTC]")
    at[::97] = pd.NaT
    zone = rng.choice(zones, pairs)
    local = wall_clock(at, Zoned(np.arange(pairs), zone, np.zeros(0, np.intp)))
    expected = np.empty(pairs, "datetime64[ns]")
    for z in zones:
        mine = zone == z
        expected[mine] = pd.DatetimeIndex(at[mine]).tz_convert(ZONES[z]).tz_localize(
            None).as_unit("ns").to_numpy()
    assert np.array_equal(local, expected, equal_nan=True)
