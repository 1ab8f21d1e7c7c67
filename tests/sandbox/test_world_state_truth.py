"""The seeded world under the law of the place called (issue 22, "The world's ground truth").

Every outbound call is judged here from the ``calls`` table alone: its place from
the number (the state ``phonenumbers``' geocoder names for its area code, or the
country), its local time from the number's first zone, and the rules from the
jurisdictions table. The calls that break a confirmed row must be exactly the
planted ``state_*`` problems, no call may break an unconfirmed row, and none of
them may break the federal rule (08:00-21:00).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import httpx
import pandas as pd
import phonenumbers
import pytest
from phonenumbers import geocoder
from phonenumbers import timezone as phone_timezone

from conftest import START
from dialkit.compliance._rules import _jurisdictions as jurisdictions
from dialkit.sandbox import parse_config, start
from dialkit.sandbox._state._store import Store
from dialkit.sandbox._world._build import build_world

ACCOUNT = "demo"
WORLDS = {
    "small-autumn": (7, "small", datetime(2026, 11, 21, 10, tzinfo=UTC)),
    "small-spring": (11, "small", datetime(2026, 3, 20, 15, 17, 33, 250_000, tzinfo=UTC)),
    "medium": (7, "medium", datetime.fromisoformat(START)),
}
KEY = "svc_test_worldlaw0001_AAAAbbbbCCCCddddEEEEffff0011"


@pytest.fixture(scope="module", params=sorted(WORLDS))
def world(request: pytest.FixtureRequest) -> Iterator[tuple[str, Store]]:
    seed, scale, anchor = WORLDS[request.param]
    store = Store()
    build_world(store, ACCOUNT, seed=seed, scale=scale, anchor=anchor)
    yield request.param, store
    store.close()


def _place(phone: str) -> str | None:
    number = phonenumbers.parse(phone)
    region = phonenumbers.region_code_for_number(number)
    if region != "US":
        return region if region == "CA" else None
    place = geocoder.description_for_number(number, "en")
    state = place.rsplit(", ", 1)[1] if ", " in place else None
    for row in jurisdictions.all():
        if row.id == f"US-{state}" or (row.id != "US" and row.name == place.removesuffix(" State")):
            return row.id
    return None


def _judged(store: Store, account: str = ACCOUNT) -> pd.DataFrame:
    """Each outbound call to a number with a row: its row, local time and breach (or None)."""
    out = pd.read_sql_query(f"SELECT id, to_number, created_at FROM calls WHERE account = "
                            f"'{account}' AND direction = 'outbound'", store.conn)
    out["row"] = out.to_number.map({p: _place(p) for p in out.to_number.unique()})
    out = out[out.row.notna()].copy()
    at = pd.to_datetime(out.created_at, utc=True, format="ISO8601")
    out["at"] = at
    zones = {p: str(phone_timezone.time_zones_for_number(phonenumbers.parse(p))[0])
             for p in out.to_number.unique()}
    out["local"] = [a.tz_convert(zones[p]).tz_localize(None).to_pydatetime()
                    for a, p in zip(at, out.to_number, strict=True)]
    out["breach"] = [_breach(jurisdictions.get(r), local) for r, local in
                     zip(out.row, out.local, strict=True)]
    for row_id, calls in out.groupby("row"):
        row = jurisdictions.get(str(row_id))
        if row.max_calls is not None and row.cap_period is not None:
            ordered = calls.sort_values(["to_number", "at"]).assign(one=1.0)
            counts = ordered.groupby("to_number", sort=False).rolling(
                row.cap_period, on="at")["one"].sum().to_numpy()
            over = ordered.index[counts > row.max_calls]
            out.loc[over, "breach"] = out.loc[over, "breach"].fillna("state_frequency")
    return out


def _breach(row: jurisdictions.Jurisdiction, local: datetime) -> str | None:
    if row.window_for(local) is None:
        banned = row.holiday_on(local.date()) is not None and row.holiday is None
        return "state_holiday" if banned else "state_day_ban"
    return None if row.allows(local) else "state_calling_hours"


def _planted(store: Store) -> pd.DataFrame:
    planted = pd.read_sql_query("SELECT kind, call_id, phone, detail FROM planted WHERE "
                                "substr(kind, 1, 6) = 'state_'", store.conn)
    planted["jurisdiction"] = [json.loads(d)["jurisdiction"] for d in planted.detail]
    return planted


def test_the_state_breaches_are_exactly_the_planted_ones(world: tuple[str, Store]) -> None:
    _, store = world
    judged, planted = _judged(store), _planted(store)
    confirmed = judged.row.map(lambda r: jurisdictions.get(r).confirmed)
    assert judged.loc[~confirmed, "breach"].isna().all()  # the dialer keeps unconfirmed rows too
    found = judged[confirmed & judged.breach.notna()]
    assert set(zip(found.breach, found.id, found.row, strict=True)) == set(
        zip(planted.kind, planted.call_id, planted.jurisdiction, strict=True))
    assert len(planted) == len(set(planted.call_id))


def test_no_planted_state_breach_breaks_the_federal_window(world: tuple[str, Store]) -> None:
    _, store = world
    judged = _judged(store).set_index("id")
    hours = [judged.local[c].hour for c in _planted(store).call_id]
    assert hours and all(8 <= hour < 21 for hour in hours)


def test_a_state_cap_case_is_listed_as_federal_frequency_too(world: tuple[str, Store]) -> None:
    _, store = world
    capped = set(_planted(store).query("kind == 'state_frequency'").call_id)
    federal = {r[0] for r in store.rows("SELECT call_id FROM planted WHERE kind = 'frequency'")}
    assert capped and capped <= federal


@pytest.mark.parametrize("world", ["medium"], indirect=True)  # the small ones are too small
def test_the_medium_world_covers_every_confirmed_rule(world: tuple[str, Store]) -> None:
    name, store = world
    planted = _planted(store)
    covered = set(zip(planted.jurisdiction, planted.kind, strict=True))
    anchor = WORLDS[name][2]
    period = ((anchor - timedelta(weeks=6)).date(), anchor.date())
    expected = set()
    for row in jurisdictions.all():
        if not row.confirmed or row.id in ("US", "GB"):
            continue
        days = (row.weekday, row.saturday, row.sunday)
        if any(w is not None and (w[0].hour > 8 or w[1].hour < 21) for w in days):
            expected.add((row.id, "state_calling_hours"))
        if row.sunday is None:
            expected.add((row.id, "state_day_ban"))
        if row.max_calls is not None:
            expected.add((row.id, "state_frequency"))
        if row.holiday is None and any(day.weekday() < 6 for day in row.holidays_between(*period)):
            expected.add((row.id, "state_holiday"))
    assert covered == expected
    assert planted.groupby(["jurisdiction", "kind"]).size().min() >= 1


def test_the_simulated_dialer_keeps_the_law_of_the_place_too() -> None:
    config = {"server": {"rate_limit_scale": 0, "clock": "manual", "start_time": START},
              "accounts": [{"name": "acme", "seed": 7, "scale": "small", "clients": [
                  {"name": "c", "scopes": ["calls:read"], "keys": [{"key": KEY}]}]}]}
    with start(parse_config(config)) as sandbox:
        before = len(_judged(sandbox.service.store, "acme"))
        headers = {"Authorization": f"Bearer {KEY}"}  # makes the data set the dialer moves
        assert httpx.get(f"{sandbox.base_url}/v1/calls", headers=headers).status_code == 200
        answer = httpx.post(f"{sandbox.base_url}/_sandbox/clock", timeout=300,
                            headers=sandbox.admin_headers,
                            json={"advance_seconds": 7 * 86_400})  # a week: Sunday and all
        assert answer.status_code == 200
        judged, planted = _judged(sandbox.service.store, "acme"), _planted(sandbox.service.store)
    assert len(judged) > before + 30  # the dialer did call numbers of places with a row
    assert set(judged.id[judged.breach.notna()]) == set(planted.call_id)
