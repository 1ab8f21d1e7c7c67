"""The seeded world: deterministic, complete, consistent, and clean except where planted.

The planted ground truth is recomputed here from the ``calls`` and ``dnc`` tables
alone, with pandas and ``phonenumbers``, without the generator's own helpers.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import numpy as np
import pandas as pd
import phonenumbers
import pytest
from phonenumbers import timezone as phone_timezone

from dialkit._places._areas import area_zones
from dialkit.sandbox._state._clock import isoformat, parse_timestamp
from dialkit.sandbox._state._store import COPIED_TABLES, LAYERED_TABLES, Store, seed_dataset
from dialkit.sandbox._world._build import STAMP_SQL, build_world, uuid_texts
from dialkit.sandbox._world._numbers import (
    COUNTRIES,
    country_of,
    draw_numbers,
    number_ranges,
    timezone_of,
)

ACCOUNT = "demo"
SEED = seed_dataset(ACCOUNT)
WORLDS = {
    "autumn": (7, datetime(2026, 11, 21, 10, tzinfo=UTC)),
    "spring": (11, datetime(2026, 3, 20, 15, 17, 33, 250_000, tzinfo=UTC)),
}
"""Both span a DST change (US: 1 Nov 2026 and 8 Mar 2026); spring's anchor is off the hour."""

ORDER = {"lead_history": "seq", "dnc": "phone", "caller_ids": "phone"}
STAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")


def _build(seed: int, anchor: datetime) -> Store:
    store = Store()
    build_world(store, ACCOUNT, seed=seed, scale="small", anchor=anchor)
    return store


@pytest.fixture(scope="module", params=sorted(WORLDS))
def world(request: pytest.FixtureRequest) -> Iterator[tuple[Store, datetime]]:
    seed, anchor = WORLDS[request.param]
    store = _build(seed, anchor)
    yield store, anchor
    store.close()


def _frame(store: Store, sql: str) -> pd.DataFrame:
    return pd.read_sql_query(sql, store.conn)


def _dump(store: Store) -> dict[str, list[tuple[object, ...]]]:
    """The seeded rows of every table, in a fixed order (history without its row number)."""
    tables = {t: f"SELECT * FROM {t} WHERE dataset = '{SEED}' ORDER BY {ORDER.get(t, 'id')}"
              for t in (*COPIED_TABLES, *LAYERED_TABLES)}
    tables["lead_history"] = ("SELECT dataset, lead_id, at, event, detail FROM lead_history "
                              f"WHERE dataset = '{SEED}' ORDER BY seq")
    tables["planted"] = f"SELECT * FROM planted WHERE account = '{ACCOUNT}' ORDER BY kind, call_id"
    return {t: [tuple(r) for r in store.rows(sql)] for t, sql in tables.items()}


def _column(store: Store, sql: str) -> list[object]:
    return [r[0] for r in store.rows(sql)]


# Determinism and rebuilds -----------------------------------------------------------------------

def test_same_inputs_give_identical_rows() -> None:
    seed, anchor = WORLDS["autumn"]
    first, second = _build(seed, anchor), _build(seed, anchor)
    assert _dump(first) == _dump(second)


def test_another_seed_gives_another_world() -> None:
    _, anchor = WORLDS["autumn"]
    assert _dump(_build(1, anchor))["calls"] != _dump(_build(2, anchor))["calls"]


def test_accounts_built_from_one_seed_share_the_world_but_no_ids() -> None:
    seed, anchor = WORLDS["autumn"]
    store = Store()
    for account in ("north", "south"):
        build_world(store, account, seed=seed, scale="small", anchor=anchor)
    ids = {a: set(_column(store, f"SELECT id FROM calls WHERE account = '{a}'"))
           for a in ("north", "south")}
    assert len(ids["north"]) == len(ids["south"]) > 0 and not ids["north"] & ids["south"]
    phones = [_column(store, f"SELECT phone FROM leads WHERE dataset = 'seed:{a}' ORDER BY "
                             "created_at") for a in ("north", "south")]
    assert phones[0] == phones[1]


def test_rebuild_replaces_the_seed_and_spares_other_data_sets() -> None:
    seed, anchor = WORLDS["autumn"]
    store = _build(seed, anchor)
    expected = _dump(store)
    store.conn.execute("INSERT INTO dnc VALUES (?, '+12025550199', '2026-01-01T00:00:00.000Z', "
                       "'registry')", (SEED,))
    store.conn.execute("INSERT INTO caller_ids VALUES ('client:demo/x', '+12025550198')")
    build_world(store, ACCOUNT, seed=seed, scale="small", anchor=anchor)
    assert _dump(store) == expected
    assert _column(store, "SELECT phone FROM caller_ids WHERE dataset = 'client:demo/x'") == [
        "+12025550198"]


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="scale"):
        build_world(Store(), ACCOUNT, seed=1, scale="huge", anchor=WORLDS["autumn"][1])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="timezone-aware"):
        build_world(Store(), ACCOUNT, seed=1, scale="small", anchor=datetime(2026, 1, 1))


# Shape and coverage -----------------------------------------------------------------------------

def test_small_world_has_the_promised_size(world: tuple[Store, datetime]) -> None:
    store, _ = world
    assert 8 <= store.row("SELECT count(*) FROM campaigns")[0] <= 12
    assert 500 <= store.row("SELECT count(*) FROM leads")[0] <= 1_000
    assert 3_000 <= store.row("SELECT count(*) FROM calls")[0] <= 6_000


@pytest.mark.parametrize(("sql", "expected"), [
    ("SELECT DISTINCT status FROM campaigns WHERE archived = 0",
     {"draft", "ready", "running", "paused", "completed"}),
    ("SELECT DISTINCT status FROM leads", {"new", "contacted", "callback", "dnc", "completed"}),
    ("SELECT DISTINCT status FROM callbacks", {"pending", "completed", "cancelled"}),
    ("SELECT DISTINCT status FROM appointments",
     {"scheduled", "confirmed", "cancelled", "completed", "no-show"}),
    ("SELECT DISTINCT state FROM agents", {"ready", "on_call", "wrap_up", "break", "signed_out"}),
    ("SELECT DISTINCT direction FROM calls", {"inbound", "outbound"}),
    ("SELECT DISTINCT source FROM dnc", {"registry", "customer_request"}),
    ("SELECT DISTINCT country FROM leads", set(COUNTRIES)),
    ("SELECT DISTINCT kind FROM planted WHERE substr(kind, 1, 6) NOT IN ('state_', 'guard_') "
     "AND substr(kind, 1, 9) <> 'upcoming_'",
     {"outside_calling_hours", "dnc_call", "frequency", "abandoned", "split_zone_hours",
      "caller_id", "dnc_grace", "abandonment_period", "person_frequency"}),
    ("SELECT DISTINCT kind FROM planted WHERE substr(kind, 1, 9) = 'upcoming_'",
     {"upcoming_callback_hours", "upcoming_attempt_hours", "upcoming_callback_dnc"}),
    ("SELECT DISTINCT kind FROM planted WHERE substr(kind, 1, 6) = 'guard_'",
     {"guard_dnc", "guard_hours", "guard_cap"}),
])
def test_every_value_is_present(world: tuple[Store, datetime], sql: str,
                                expected: set[str]) -> None:
    assert set(_column(world[0], sql)) == expected


def test_archived_campaigns_exist(world: tuple[Store, datetime]) -> None:
    assert world[0].row("SELECT count(*) FROM campaigns WHERE archived = 1")[0] >= 1


def test_at_least_two_agents_are_ready(world: tuple[Store, datetime]) -> None:
    assert world[0].row("SELECT count(*) FROM agents WHERE state = 'ready'")[0] >= 2
    assert _column(world[0], "SELECT extension FROM agents ORDER BY extension")[0] == "1001"


@pytest.mark.parametrize(("table", "prefix"), [
    ("campaigns", "cmp_"), ("leads", "lead_"), ("calls", "call_"), ("callbacks", "cb_"),
    ("appointments", "appt_"),
])
def test_ids_are_prefixed_lower_case_uuid4(world: tuple[Store, datetime], table: str,
                                           prefix: str) -> None:
    for value in _column(world[0], f"SELECT id FROM {table}"):
        assert isinstance(value, str) and value.startswith(prefix)
        parsed = uuid.UUID(value.removeprefix(prefix))
        assert parsed.version == 4 and str(parsed) == value.removeprefix(prefix)


def test_timestamps_have_the_storage_form(world: tuple[Store, datetime]) -> None:
    store, _ = world
    for sql in ("SELECT created_at FROM calls", "SELECT agent_joined_at FROM calls",
                "SELECT updated_at FROM leads", "SELECT scheduled_at FROM callbacks",
                "SELECT added_at FROM dnc", "SELECT at FROM lead_history"):
        for value in _column(store, sql):
            assert value is None or STAMP.match(str(value))


# Consistency ------------------------------------------------------------------------------------

def test_history_lies_before_the_anchor(world: tuple[Store, datetime]) -> None:
    store, anchor = world
    now = isoformat(anchor)
    assert store.row("SELECT max(ended_at) FROM calls")[0] < now
    assert store.row("SELECT max(added_at) FROM dnc")[0] < now
    assert store.row("SELECT min(scheduled_at) FROM callbacks WHERE status = 'pending'")[0] > now
    assert store.row("SELECT min(scheduled_at) FROM appointments "
                     "WHERE status IN ('scheduled', 'confirmed')")[0] > now
    assert store.row("SELECT max(updated_at) FROM appointments "
                     "WHERE status IN ('completed', 'no-show')")[0] < now


def test_campaign_times_agree_with_status(world: tuple[Store, datetime]) -> None:
    for row in world[0].rows("SELECT * FROM campaigns"):
        assert (row["started_at"] is None) == (row["status"] in ("draft", "ready"))
        assert (row["completed_at"] is not None) == (row["status"] == "completed")
        assert row["started_at"] is None or row["created_at"] < row["started_at"]


def test_only_campaigns_that_ran_placed_calls(world: tuple[Store, datetime]) -> None:
    statuses = _column(world[0], "SELECT DISTINCT c.status FROM calls k JOIN campaigns c "
                                 "ON c.id = k.campaign_id")
    assert set(statuses) <= {"running", "paused", "completed"}


def test_leads_agree_with_their_calls(world: tuple[Store, datetime]) -> None:
    store, _ = world
    leads = _frame(store, "SELECT * FROM leads").set_index("id")
    calls = _frame(store, "SELECT * FROM calls WHERE direction = 'outbound'")
    last = calls.sort_values("created_at").drop_duplicates("lead_id", keep="last").set_index(
        "lead_id")
    attempts = calls.groupby("lead_id").size().reindex(leads.index, fill_value=0)
    assert (leads.attempts == attempts).all()
    called = leads[leads.attempts > 0]
    assert (called.last_attempt_at == last.created_at[called.index]).all()
    assert called.disposition_code.fillna("-").equals(last.disposition[called.index].fillna("-"))
    assert (called.hangup_cause == last.hangup_cause[called.index]).all()
    listed = set(_column(store, "SELECT phone FROM dnc"))
    late = set(_column(store, "SELECT call_id FROM planted WHERE kind = "
                              "'upcoming_callback_dnc'"))  # listed after a callback was set
    assert late and set(leads.status[list(late)]) == {"callback"}
    kept = leads.drop(index=list(late))
    assert ((kept.status == "dnc") == kept.phone.isin(listed)).all()
    assert set(leads.status[leads.attempts == 0]) <= {"new", "dnc"}
    assert leads.external_id.isna().all() and leads.owner_client.isna().all()


def test_history_has_one_entry_per_attempt(world: tuple[Store, datetime]) -> None:
    store, _ = world
    history = _frame(store, "SELECT * FROM lead_history")
    attempts = history[history.event == "call_attempt"]
    outbound = set(_column(store, "SELECT id FROM calls WHERE direction = 'outbound'"))
    assert {json.loads(d)["call_id"] for d in attempts.detail} == outbound
    assert len(attempts) == len(outbound)
    assert (history[history.event == "created"].groupby("lead_id").size() == 1).all()


def test_calls_are_internally_consistent(world: tuple[Store, datetime]) -> None:
    store, _ = world
    calls = _frame(store, "SELECT * FROM calls")
    callers = set(_column(store, "SELECT phone FROM caller_ids"))
    out = calls.direction == "outbound"
    shown = calls.from_number != "anonymous"  # the planted caller_id calls (contract: a string)
    assert calls.from_number[out & shown].isin(callers).all() and (out | shown).all()
    assert calls.to_number[~out].isin(callers).all()
    answered = calls.answered_at.notna()
    assert (answered == (calls.status == "completed")).all()
    assert (answered == (calls.recording == 1)).all()
    spans = (pd.to_datetime(calls.ended_at) - pd.to_datetime(calls.created_at)).dt.total_seconds()
    assert np.allclose(spans, calls.duration_seconds)
    assert (calls.account == ACCOUNT).all() and (calls.dataset == SEED).all()


def test_listed_lead_numbers_are_on_the_dnc_list(world: tuple[Store, datetime]) -> None:
    store, _ = world
    listed = set(_column(store, "SELECT phone FROM leads WHERE status = 'dnc'"))
    assert listed and listed <= set(_column(store, "SELECT phone FROM dnc"))


# Phones -----------------------------------------------------------------------------------------

def test_every_number_is_valid_and_in_its_country(world: tuple[Store, datetime]) -> None:
    store, _ = world
    for phone, country in store.rows("SELECT phone, country FROM leads"):
        number = phonenumbers.parse(phone)
        assert phonenumbers.is_valid_number(number), phone
        assert phonenumbers.region_code_for_number(number) == country == country_of(phone)
    for phone in _column(store, "SELECT phone FROM dnc UNION SELECT phone FROM caller_ids"):
        assert phonenumbers.is_valid_number(phonenumbers.parse(str(phone))), phone


@pytest.mark.parametrize("country", COUNTRIES)
def test_range_ends_are_valid(country: str) -> None:
    ranges = number_ranges(country) + (
        number_ranges(country, fiction_only=False) if country != "GB" else ())
    for r in ranges:
        for line in (r.first, r.first + r.size - 1):
            number = phonenumbers.parse(f"{r.prefix}{line:0{r.width}d}")
            assert phonenumbers.is_valid_number(number)
            assert phonenumbers.region_code_for_number(number) == country


@pytest.mark.parametrize(("country", "n"), [("US", 60_000), ("CA", 8_000), ("GB", 10_000)])
def test_drawn_numbers_are_distinct_and_valid(country: str, n: int) -> None:
    drawn = draw_numbers(np.random.default_rng(3), country, n)
    assert len(set(drawn.e164.tolist())) == n
    for i in np.random.default_rng(4).choice(n, size=400, replace=False):
        phone = str(drawn.e164[i])
        assert phonenumbers.is_valid_number(phonenumbers.parse(phone)), phone
        assert country_of(phone) == country and timezone_of(phone) == drawn.zone[i]


def test_too_many_numbers_are_refused() -> None:
    with pytest.raises(ValueError, match="fewer"):
        draw_numbers(np.random.default_rng(0), "GB", 15_000)


@pytest.mark.parametrize(("phone", "country", "zone"), [
    ("+12025550142", "US", "America/New_York"), ("+14165550123", "CA", "America/Toronto"),
    ("+442079460123", "GB", "Europe/London"), ("not a number", None, None),
])
def test_country_and_zone_of(phone: str, country: str | None, zone: str | None) -> None:
    assert country_of(phone) == country and timezone_of(phone) == zone


# Formatting helpers -----------------------------------------------------------------------------

def test_stored_timestamps_match_isoformat() -> None:
    ms = np.random.default_rng(5).integers(0, 4_102_444_800_000, size=20_000).tolist()
    ms[:6] = [0, 1, 999, 1_000, 1_790_000_000_999, 4_102_444_799_999]
    epoch = datetime(1970, 1, 1, tzinfo=UTC)
    store = Store()
    written = [store.row(f"SELECT {STAMP_SQL}", (v,))[0] for v in [*ms, None]]
    assert written == [*(isoformat(epoch + timedelta(milliseconds=v)) for v in ms), None]
    assert all(isoformat(parse_timestamp(text)) == text for text in written[:-1])


def test_uuid_texts_are_sorted_unique_uuid4() -> None:
    ids = uuid_texts(np.random.default_rng(6), "call_", 5_000)
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    assert all(uuid.UUID(i[5:]).version == 4 for i in ids)


# Ground truth -----------------------------------------------------------------------------------

def _recomputed(store: Store) -> dict[str, set[str]]:
    calls = _frame(store, f"SELECT * FROM calls WHERE account = '{ACCOUNT}'")
    for column in ("created_at", "answered_at", "agent_joined_at"):
        calls[column] = pd.to_datetime(calls[column], utc=True, format="ISO8601")
    dnc = _frame(store, f"SELECT phone, added_at, source FROM dnc WHERE dataset = '{SEED}'")
    dnc["added_at"] = pd.to_datetime(dnc.added_at, utc=True, format="ISO8601")
    out = calls[calls.direction == "outbound"]
    listed, graced = _dnc_calls(out, dnc, _registry_checks(store))
    abandoned, over = _abandoned(calls)
    return {"outside_calling_hours": _outside_hours(out), "dnc_call": listed,
            "dnc_grace": graced, "frequency": _too_frequent(out, "to_number"),
            "person_frequency": _too_frequent(out, "lead_id") - _too_frequent(out, "to_number"),
            "abandoned": abandoned,
            "abandonment_period": over, "split_zone_hours": _split_zone_hours(out),
            "caller_id": _caller_id(out)}


def _outside_hours(out: pd.DataFrame) -> set[str]:
    zones = {p: phone_timezone.time_zones_for_number(phonenumbers.parse(p))[0]
             for p in out.to_number.unique()}
    hour = pd.Series(-1, index=out.index)
    for zone, group in out.groupby(out.to_number.map(zones)):
        hour[group.index] = group.created_at.dt.tz_convert(str(zone)).dt.hour
    assert (hour >= 0).all()
    return set(out.id[(hour < 8) | (hour >= 21)])


def _split_zone_hours(out: pd.DataFrame) -> set[str]:
    """Calls that the number's first zone allows (08:00-21:00) but another zone of its
    area code does not: the audit, not knowing which the person is in, takes the stricter."""
    zones = area_zones()
    split = out[out.to_number.str.startswith("+1") & out.to_number.str[2:5].astype(int).isin(
        list(zones))]
    found: set[str] = set()
    for code, group in split.groupby(split.to_number.str[2:5].astype(int)):
        hours = pd.DataFrame({zone: group.created_at.dt.tz_convert(zone).dt.hour
                              for zone in zones[int(code)]})
        first = group.to_number.map(
            lambda p: phone_timezone.time_zones_for_number(phonenumbers.parse(p))[0])
        own = pd.Series([hours.at[i, z] for i, z in first.items()], index=group.index)
        outside = ((hours < 8) | (hours >= 21)).any(axis=1)
        found |= set(group.id[outside & (own >= 8) & (own < 21)])
    return found


def _caller_id(out: pd.DataFrame) -> set[str]:
    """Calls that showed no number (shared decision 4's blocked ids)."""
    said = out.from_number.fillna("").str.strip().str.lower()
    return set(out.id[said.isin(["", "anonymous", "restricted", "private", "unknown",
                                 "unavailable", "blocked"])])


def _registry_checks(store: Store) -> pd.Series:
    """When the account checked each ``dnc_grace`` number against the registry (the world's
    tables hold no checks: the planted row says when)."""
    rows = store.rows("SELECT phone, detail FROM planted WHERE kind = 'dnc_grace'")
    return pd.Series({phone: json.loads(detail)["checked_at"] for phone, detail in rows},
                     dtype=object).pipe(pd.to_datetime, utc=True, format="ISO8601")


def _dnc_calls(out: pd.DataFrame, dnc: pd.DataFrame,
               checked: pd.Series) -> tuple[set[str], set[str]]:
    """Calls after the number was listed, and among them those the registry's safe harbor
    covers (47 CFR 64.1200(c)(2)(i)(D): a version of the registry "no more than 31 days
    prior to the date any call is made"): a registry listing, a check before it, the
    call within 31 days of the check."""
    joined = out.merge(dnc, left_on="to_number", right_on="phone")
    after = joined[joined.created_at > joined.added_at]
    check = after.phone.map(checked)
    safe = (after.source == "registry") & (check < after.added_at) & (
        after.created_at.dt.normalize() - check.dt.normalize() <= pd.Timedelta(days=31))
    return set(after.id[~safe]), set(after.id[safe])


def _too_frequent(out: pd.DataFrame, by: str) -> set[str]:
    """Calls that are at least the fourth ``by`` number (``to_number``) or person
    (``lead_id``: Fla. Stat. 501.616(6)(b)'s "to a person ... regardless of the phone
    number used") in the 24 hours up to them."""
    ordered = out.sort_values([by, "created_at"]).assign(one=1.0)
    counts = ordered.groupby(by, sort=False).rolling("24h", on="created_at")["one"].sum()
    return set(ordered.id[counts.to_numpy() > 3])


def _abandoned(calls: pd.DataFrame) -> tuple[set[str], set[str]]:
    """Answered calls no agent joined within two seconds, in two: those of a campaign's
    30-day period at most 3% abandoned, and those of one over it. 47 CFR 64.1200(a)(7):
    "three percent of all telemarketing calls that are answered live by a person, as
    measured over a 30-day period for a single calling campaign", each "successive
    30-day period" counted from the campaign's first call; US numbers only."""
    out = calls[calls.direction == "outbound"]
    answered = out[out.answered_at.notna()]
    late = answered.agent_joined_at.isna() | (
        answered.agent_joined_at - answered.answered_at > pd.Timedelta(seconds=2))
    first = out.groupby("campaign_id").created_at.min()
    live = answered[(answered.status != "voicemail") & answered.to_number.map(
        lambda p: phonenumbers.region_code_for_number(phonenumbers.parse(p)) == "US")]
    period = (live.answered_at - live.campaign_id.map(first)) // pd.Timedelta(days=30)
    rates = late[live.index].groupby([live.campaign_id, period]).mean()
    assert (rates > 0.03).sum() == 1  # one campaign's one period
    over = late[live.index] & pd.Series(list(zip(live.campaign_id, period, strict=True)),
                                        index=live.index).map(rates > 0.03)
    assert set(answered.id[late]) == set(live.id[late[live.index]])  # all on US numbers
    return set(live.id[late[live.index] & ~over]), set(live.id[over])


def test_planted_problems_are_exactly_the_problems(world: tuple[Store, datetime]) -> None:
    store, _ = world
    planted: dict[str, set[str]] = {}
    for kind, call_id in store.rows("SELECT kind, call_id FROM planted WHERE account = ? "
                                    "AND substr(kind, 1, 6) NOT IN ('state_', 'guard_') "
                                    "AND substr(kind, 1, 9) <> 'upcoming_'", (ACCOUNT,)):
        planted.setdefault(kind, set()).add(call_id)
    recomputed = _recomputed(store)
    assert set(planted) == set(recomputed)
    for kind, calls in recomputed.items():
        assert calls, kind
        assert planted[kind] == calls, kind


def test_planted_rows_name_the_called_number(world: tuple[Store, datetime]) -> None:
    store, _ = world
    rows = store.rows("SELECT p.phone, c.to_number, p.kind, p.detail FROM planted p "
                      "JOIN calls c ON c.id = p.call_id")
    assert len(rows) == store.row("SELECT count(*) FROM planted WHERE substr(kind, 1, 9) "
                                  "<> 'upcoming_' AND substr(kind, 1, 6) <> 'guard_'")[0]
    for phone, to_number, kind, detail in rows:
        assert phone == to_number
        if kind == "frequency":
            assert json.loads(detail)["calls_in_24h"] >= 4
