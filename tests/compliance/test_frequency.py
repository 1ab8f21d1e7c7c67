"""The law's caps count what the statutes count (issue 47, item 4).

Fla. Stat. 501.616(6)(b), as the row's ``text`` quotes it: a seller may not make "More
than three commercial telephone solicitation phone calls from any number to a person over
a 24-hour period on the same subject matter or issue, regardless of the phone number used
to make the call". So the cases below: a person is a lead across its numbers; a subject is
the campaign (or the calls' ``subject``); the caller id does not matter; a call exactly
24 hours before another is not within the 24-hour period up to it. The account's policy
cap stays per number, as the policy says.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from dialkit.compliance import HOUSE_RULES, US, audit, jurisdictions
from dialkit.compliance._rules._place_law import own_caps

MIAMI, MIAMI_MOBILE, NEW_YORK = "+13055550123", "+13055550199", "+12125550123"
OWN_WORDS = "More than three commercial telephone solicitation phone calls from any number " \
            "to a person over a 24-hour period on the same subject matter or issue, " \
            "regardless of the phone number used to make the call"


def calls(*rows: tuple[str, str, str] | tuple[str, str, str, str]) -> pd.DataFrame:
    """Unanswered outbound calls, one per (number, UTC time, campaign[, caller id])."""
    return pd.DataFrame([{
        "id": f"call_{n}", "direction": "outbound",
        "from_number": row[3] if len(row) > 3 else "+14155550100", "to_number": row[0],
        "created_at": pd.Timestamp(row[1], tz="UTC"), "answered_at": pd.NaT,
        "ended_at": pd.NaT, "campaign_id": row[2], "disposition": None}
        for n, row in enumerate(rows)])


def lead(phone: str, **columns: object) -> pd.DataFrame:
    return pd.DataFrame({"id": ["lead_1"], "campaign_id": ["cmp_1"], "phone": [phone],
                         "status": ["new"], **{k: [v] for k, v in columns.items()}})


def frequency(frame: pd.DataFrame, **given: object) -> pd.DataFrame:
    got = audit(frame, rules=US, **given).findings  # type: ignore[arg-type]
    return got[got["rule"] == "call_frequency"]


def test_floridas_row_quotes_the_words_it_counts_by_and_cites_them() -> None:
    florida = jurisdictions.get("US-FL")
    assert OWN_WORDS in florida.text and florida.cite("cap") in florida.text
    assert (florida.max_calls, florida.cap_period) == (3, pd.Timedelta(hours=24))
    for state in ("US-MD", "US-OK"):  # texts not reached: said so, and in every finding
        row = jurisdictions.get(state)
        assert row.cite("cap") in row.text and "not" in row.doubts
        assert "reading doubtful" in jurisdictions.cap_text(row)


def test_every_cap_cites_a_section_its_row_quotes() -> None:
    capped = [row for row in jurisdictions.all() if row.max_calls is not None]
    assert {row.id for row in capped} == {"US-FL", "US-MD", "US-OK"}
    for row in capped:
        assert row.cite("cap") in row.text, row.id


@pytest.mark.parametrize("others", [
    {"other_phones": MIAMI_MOBILE},
    {"other_phones": f"{MIAMI_MOBILE}; +13055550100"},
    {"custom_fields": '{"other_phones": ["' + MIAMI_MOBILE + '"], "state": "FL"}'}])
def test_four_calls_to_one_leads_two_numbers_in_a_day_break_the_cap_on_the_fourth(
        others: dict[str, str]) -> None:
    """"to a person ... regardless of the phone number used": two calls to the lead's own
    number and two to its other one, in one campaign within 24 hours."""
    four = calls(*((number, f"2026-11-24T{hour}:00Z", "cmp_1") for number, hour in (
        (MIAMI, 14), (MIAMI_MOBILE, 15), (MIAMI, 16), (MIAMI_MOBILE, 17))))
    got = frequency(four, leads=lead(MIAMI, **others))
    assert got[["call_id", "basis", "jurisdiction", "citation"]].values.tolist() == [
        ["call_3", "law", "US-FL", "Fla. Stat. 501.616(6)(b)"]]
    [evidence] = got["evidence"]
    assert evidence.startswith("4th call in the 24 hours up to this one to this person (the "
                               "lead's other number counted with its own) on this subject "
                               "(campaign cmp_1), from any caller id; at most 3 allowed")
    assert frequency(four).empty  # no leads: each number stands for a person, 2 calls each


def test_four_calls_to_one_number_across_two_campaigns_are_no_finding_of_law() -> None:
    """Two subjects: "on the same subject matter or issue" counts each apart. The house
    rules' cap, per number as the policy says, still counts them together."""
    four = calls((MIAMI, "2026-11-24T14:00Z", "cmp_1"), (MIAMI, "2026-11-24T15:00Z", "cmp_2"),
                 (MIAMI, "2026-11-24T16:00Z", "cmp_1"), (MIAMI, "2026-11-24T17:00Z", "cmp_2"))
    assert frequency(four).empty
    policy = frequency(four, policy=HOUSE_RULES)
    assert policy[["call_id", "basis"]].values.tolist() == [["call_3", "policy"]]
    assert policy["evidence"].iloc[0].startswith("4 outbound calls to the number")
    assert policy["citation"].isna().all()


def test_a_subject_column_decides_the_subject_over_the_campaign() -> None:
    four = calls((MIAMI, "2026-11-24T14:00Z", "cmp_1"), (MIAMI, "2026-11-24T15:00Z", "cmp_2"),
                 (MIAMI, "2026-11-24T16:00Z", "cmp_1"), (MIAMI, "2026-11-24T17:00Z", "cmp_2"))
    same = frequency(four.assign(subject="solar panels"))
    assert same["call_id"].tolist() == ["call_3"]
    assert "on this subject (subject solar panels)" in same["evidence"].iloc[0]
    assert frequency(four.assign(subject=["solar", "solar", "roofs", "solar"])).empty


def test_a_leads_subject_decides_where_the_calls_have_none() -> None:
    """One person called in two campaigns on one subject the leads name: counted together;
    a lead of no subject keeps its campaign's."""
    four = calls((MIAMI, "2026-11-24T14:00Z", "cmp_1"), (MIAMI, "2026-11-24T15:00Z", "cmp_2"),
                 (MIAMI, "2026-11-24T16:00Z", "cmp_1"), (MIAMI, "2026-11-24T17:00Z", "cmp_2"))
    leads = pd.concat([lead(MIAMI, subject="roofs"),
                       lead(MIAMI, subject="roofs").assign(id="lead_2", campaign_id="cmp_2")])
    got = frequency(four, leads=leads)
    assert got["call_id"].tolist() == ["call_3"]
    assert "on this subject (subject roofs)" in got["evidence"].iloc[0]
    assert frequency(four, leads=leads.assign(subject=["roofs", None])).empty
    mobile = four.assign(to_number=[MIAMI, MIAMI_MOBILE, MIAMI, MIAMI_MOBILE])
    got = frequency(mobile, leads=leads.assign(other_phones=MIAMI_MOBILE))
    assert got["call_id"].tolist() == ["call_3"]  # the other number's calls: the lead's subject


def test_calls_from_different_caller_ids_are_still_counted() -> None:
    """"from any number": the caller id used does not split the count."""
    four = calls(*((MIAMI, f"2026-11-24T{hour}:00Z", "cmp_1", f"+1415555010{hour % 10}")
                   for hour in (14, 15, 16, 17)))
    assert frequency(four)["call_id"].tolist() == ["call_3"]


def test_a_call_exactly_24_hours_before_is_not_within_the_period() -> None:
    """"over a 24-hour period": the fourth call exactly 24 hours after the first has only
    two others within the 24 hours up to it; a minute earlier, three."""
    exactly = calls(*((MIAMI, at, "cmp_1") for at in (
        "2026-11-24T14:00Z", "2026-11-24T15:00Z", "2026-11-24T16:00Z", "2026-11-25T14:00Z")))
    assert frequency(exactly).empty
    earlier = exactly.assign(created_at=exactly["created_at"].where(
        exactly["id"] != "call_3", pd.Timestamp("2026-11-25T13:59Z")))
    assert frequency(earlier)["call_id"].tolist() == ["call_3"]


def test_a_number_without_a_cap_of_its_own_is_counted_by_its_leads_address_state() -> None:
    """Which state's cap applies is unchanged: the number's and the lead's address state's,
    the stricter deciding; the count is the person's."""
    four = calls(*((NEW_YORK, f"2026-11-24T{hour}:00Z", "cmp_1") for hour in (14, 15, 16, 17)))
    got = frequency(four, leads=lead(NEW_YORK, state="MD"))
    assert got[["call_id", "jurisdiction", "decided_by", "citation"]].values.tolist() == [
        ["call_3", "US-MD", "address", "Md. Code, Com. Law 14-4502"]]
    assert "reading doubtful" in got["evidence"].iloc[0]


def twelve_people() -> tuple[list[str], list[str], pd.DataFrame]:
    """Twelve people of two Miami numbers each, and four calls to each in one day (two to
    each number): each person's fourth call is over Florida's cap."""
    own = [f"+1305555{n:04d}" for n in range(100, 112)]
    other = [f"+1305555{n:04d}" for n in range(200, 212)]
    frame = calls(*((number, f"2026-11-24T{hour}:00Z", "cmp_1")
                    for mine, theirs in zip(own, other, strict=True)
                    for number, hour in ((mine, 14), (theirs, 15), (mine, 16), (theirs, 17))))
    return own, other, frame


def assert_same_on_dask(frame: pd.DataFrame, leads: pd.DataFrame, expected: pd.DataFrame, *,
                        lead_parts: int) -> None:
    """The cap's findings of ``frame`` and ``leads`` on Dask (the calls in four parts, the
    leads in ``lead_parts``) are pandas' ``expected``."""
    import dask.dataframe as dd

    found = frequency(dd.from_pandas(frame, npartitions=4),
                      leads=dd.from_pandas(leads, npartitions=lead_parts))
    columns = ["call_id", "lead_id", "phone", "evidence", "jurisdiction", "citation"]
    assert found.sort_values("call_id")[columns].astype(str).values.tolist() == \
        expected.sort_values("call_id")[columns].astype(str).values.tolist()


def test_on_dask_a_persons_numbers_meet_in_one_part() -> None:
    """The Dask audit shuffles by number; a person's numbers are linked to one key first,
    so that twelve leads, each called twice on each of its two numbers, give the twelve
    findings pandas gives, wherever their numbers' hashes would have put them."""
    own, other, frame = twelve_people()
    leads = pd.DataFrame({"id": [f"lead_{n}" for n in range(12)], "campaign_id": "cmp_1",
                          "phone": own, "status": "new", "other_phones": other})
    expected = frequency(frame, leads=leads)
    assert len(expected) == 12 and set(expected["phone"]) == set(other)
    assert_same_on_dask(frame, leads, expected, lead_parts=3)


FOUR_OVER_TWO_NUMBERS = ((MIAMI, 14), (MIAMI_MOBILE, 15), (MIAMI, 16), (MIAMI_MOBILE, 17))
"""Four calls in one day to a person's two numbers, two to each (issue 61, item 5)."""


def two_numbers_four_calls() -> pd.DataFrame:
    return calls(*((number, f"2026-11-24T{hour}:00Z", "cmp_1")
                   for number, hour in FOUR_OVER_TWO_NUMBERS))


def test_two_leads_that_name_each_others_numbers_are_one_person() -> None:
    """As a deduplication writes them: each lead keeps its own number and names the
    other's. The person is every number the leads link, so the fourth call over the
    pair is a finding, counted with its own as one lead naming both would count it."""
    leads = pd.concat([lead(MIAMI, other_phones=MIAMI_MOBILE),
                       lead(MIAMI_MOBILE, other_phones=MIAMI).assign(id="lead_2")])
    got = frequency(two_numbers_four_calls(), leads=leads)
    one = frequency(two_numbers_four_calls(), leads=lead(MIAMI, other_phones=MIAMI_MOBILE))
    columns = ["call_id", "rule", "basis", "jurisdiction", "citation", "calls_in_24h",
               "evidence"]
    assert got["call_id"].tolist() == ["call_3"]
    assert got[columns].astype(str).values.tolist() == one[columns].astype(str).values.tolist()


def test_leads_that_chain_their_numbers_link_every_number_of_the_chain() -> None:
    """One person through three records: the first names the second's number, the
    second the third's; the 4th call over the three numbers is a finding."""
    third = "+13055550177"
    four = calls(*((number, f"2026-11-24T{hour}:00Z", "cmp_1") for number, hour in (
        (MIAMI, 14), (MIAMI_MOBILE, 15), (third, 16), (MIAMI, 17))))
    leads = pd.concat([lead(MIAMI, other_phones=MIAMI_MOBILE),
                       lead(third).assign(id="lead_3"),
                       lead(MIAMI_MOBILE, other_phones=third).assign(id="lead_2")])
    assert frequency(four, leads=leads)["call_id"].tolist() == ["call_3"]
    other_campaign = leads.assign(campaign_id=["cmp_1", "cmp_1", "cmp_2"])
    assert frequency(four, leads=other_campaign).empty  # linked within a campaign only


def listed_leads(form: str, folder: Path) -> object:
    """A lead whose ``other_phones`` names its second number and a third (never called) as
    a list, in the form ``form`` holds one."""
    numbers = [MIAMI_MOBILE, "+13055550100"]
    listed = lead(MIAMI).assign(other_phones=pd.Series([numbers], dtype=object))
    if form == "array":
        return listed.assign(other_phones=pd.Series([np.array(numbers, object)], dtype=object))
    if form == "arrow":
        return listed.assign(other_phones=pd.Series(
            [numbers], dtype=pd.ArrowDtype(pa.list_(pa.string()))))
    if form == "parquet":
        listed.to_parquet(folder / "leads.parquet")
        return pd.read_parquet(folder / "leads.parquet")
    if form == "polars":
        return pytest.importorskip("polars").from_pandas(listed)
    return listed


@pytest.mark.parametrize("form", ["list", "array", "arrow", "parquet", "polars"])
def test_other_phones_as_a_list_is_read_as_the_same_numbers_in_a_text_are(
        form: str, tmp_path: Path) -> None:
    """"E.164 numbers in one text, or a list" (docs/compliance.md): the same numbers in
    either give the same findings, whatever the frame that holds the list."""
    text = frequency(two_numbers_four_calls(),
                     leads=lead(MIAMI, other_phones=f"{MIAMI_MOBILE}, +13055550100"))
    got = frequency(two_numbers_four_calls(), leads=listed_leads(form, tmp_path))
    assert text["call_id"].tolist() == ["call_3"]
    assert got[["call_id", "evidence"]].values.tolist() == text[
        ["call_id", "evidence"]].values.tolist()


def test_on_dask_two_leads_naming_each_other_meet_as_one_person() -> None:
    """Two records of each of twelve people, each naming the other's number, in other
    partitions than each other: Dask finds the twelve findings pandas finds."""
    own, other, frame = twelve_people()
    leads = pd.DataFrame({"id": [f"lead_{n}" for n in range(24)], "campaign_id": "cmp_1",
                          "phone": own + other, "status": "new",
                          "other_phones": [[number] for number in other + own]})
    expected = frequency(frame, leads=leads)
    assert len(expected) == 12
    assert_same_on_dask(frame, leads, expected, lead_parts=4)


@pytest.mark.parametrize(("phone", "state", "caps"), [
    (NEW_YORK, None, ()),
    (MIAMI, None, (3,)),
    (NEW_YORK, "FL", (3,)),  # a New York number of a lead living in Florida
    (MIAMI, "Maryland", (3, 3)),
    ("+18005550100", None, ()),  # toll-free: no state, the strictest row sets no cap
    ("+441632960961", None, ()),
])
def test_a_numbers_own_caps_are_those_the_audit_counts_its_calls_by(
        phone: str, state: str | None, caps: tuple[int, ...]) -> None:
    """The client's guard judges a contact by the caps only where one could count the
    number's contacts (issue 62: texts count too, and each would be judged anew): the
    caps of its place are the audit's, which finds the fourth of six calls an hour apart
    over a cap exactly where there is one."""
    assert own_caps(phone, state, US) == caps
    made = calls(*[(phone, f"2026-11-03T{13 + n}:00:00Z", "cmp_1") for n in range(6)])
    found = frequency(made, leads=lead(phone, state=state) if state else None)
    assert found["call_id"].tolist() == ([] if not caps else ["call_3", "call_4", "call_5"])
