"""Every time of the evidence read the strict way (issue 71, item 1): a consent's
``given_at`` or ``revoked_at``, or a reassigned ``yes``'s ``asked_at``, dated after the
audit's ``as_of`` is no date a record made by then could hold, as issue 61 read a
``listed_at`` and a ``checked_at``. Read as it stands, a revocation typed 2036 for 2026
left the consent standing at every call: a 23:30 call to a number on the registry was
no finding at all. Now such a record stands at no call, and such a revocation lists the
number from a date unknown."""

from __future__ import annotations

import pandas as pd
import pytest
from test_impossible_evidence import US as NY
from test_impossible_evidence import calls as called

from dialkit.compliance import audit

AS_OF = "2026-11-27"
LATE = "2026-06-02T03:30Z"
"""Mon 1 June 2026, 23:30 EDT in New York: no state row, the federal window 08:00-21:00."""
REGISTRY = pd.DataFrame({"phone": [NY], "listed": True,
                         "listed_at": pd.to_datetime(["2026-01-01"], utc=True),
                         "checked_at": pd.to_datetime(["2026-01-01"], utc=True)})
TSR_HOURS = {"16 CFR 310.4(c)", "47 CFR 64.1200(c)(1)"}
REGISTRY_RULE = {"16 CFR 310.4(b)(1)(iii)(B)", "47 CFR 64.1200(c)(2)"}
OWN_LIST_RULE = {"16 CFR 310.4(b)(1)(iii)(A)"}
TEN_DAYS_RULE = {"47 CFR 64.1200(d)(3)"}


def written(given: str = "2026-01-01", revoked: str | None = None) -> pd.DataFrame:
    return pd.DataFrame({"phone": [NY], "kind": ["written"],
                         "given_at": pd.to_datetime([given], utc=True),
                         "revoked_at": pd.to_datetime([revoked], utc=True)})


def reassigned(asked: str, answer: str = "yes") -> pd.DataFrame:
    return pd.DataFrame({"phone": [NY], "asked_at": pd.to_datetime([asked], utc=True),
                         "answer": [answer]})


def judged(report: object) -> dict[str, set[str]]:
    """Each rule that found the call, with the sections it cited."""
    found = report.findings  # type: ignore[attr-defined]
    return {rule: {part for cited in found.loc[found["rule"] == rule, "citation"]
                   for part in str(cited).split("; ")}
            for rule in ("calling_hours", "dnc_call") if (found["rule"] == rule).any()}


# 16 CFR 310.4(c) binds calls made "without the prior consent of a person"; the registry's
# rule, 310.4(b)(1)(iii)(B), yields to a consumer who "has expressly agreed, in writing";
# a revocation is a request not to be called, 310.4(b)(1)(iii)(A), which the TSR gives no
# time to honour; 64.1200(d)(3)'s ten business days are counted from a known date only.
VOIDED = {"calling_hours": TSR_HOURS, "dnc_call": REGISTRY_RULE}
OPTED_OUT = {"calling_hours": TSR_HOURS, "dnc_call": REGISTRY_RULE | OWN_LIST_RULE}


@pytest.mark.parametrize(("consents", "answers", "expected"), [
    (written(), None, {}),  # the consent stood at the call: neither rule binds it
    (written(revoked="2026-09-01"), None, {}),  # revoked after the call
    (written(revoked="2026-05-01"), None, {  # revoked a month before it, dated
        "calling_hours": TSR_HOURS, "dnc_call": REGISTRY_RULE | OWN_LIST_RULE | TEN_DAYS_RULE}),
    (written(revoked="2036-09-01"), None, OPTED_OUT),  # 2036 for 2026: revoked, date unknown
    (written(), reassigned("2036-04-01"), VOIDED),  # a yes dated after as_of voids it
    (written(), reassigned("2036-04-01", "no"), {}),  # a no voids nothing, whenever asked
    (written(), reassigned("2026-09-01"), {}),  # a yes after the call voids from then
], ids=["standing", "revoked-later", "revoked-before", "revoked-2036", "yes-2036",
        "no-2036", "yes-later"])
def test_a_time_after_as_of_never_leaves_a_consent_standing(
        consents: pd.DataFrame, answers: pd.DataFrame | None,
        expected: dict[str, set[str]]) -> None:
    report = audit(called(LATE), dnc=REGISTRY, consents=consents, reassigned=answers,
                   as_of=AS_OF)
    assert judged(report) == expected


def test_a_revocation_dated_after_as_of_says_how_it_was_read() -> None:
    report = audit(called(LATE), dnc=REGISTRY, consents=written(revoked="2036-09-01"),
                   as_of=AS_OF)
    found = report.findings
    evidence = found.loc[found["rule"] == "dnc_call", "evidence"].iloc[0]
    assert ("a consent revoked (an opt-out)); the date it was listed is unknown" in evidence)
    assert ("its revoked_at, 2036-09-01 00:00:00, is after the audit's as_of "
            "(2026-11-27 00:00:00), when no record could hold it: read as unknown") in evidence
    assert report.notes["dated_after_as_of"].startswith(
        "1 consent record with a given_at or revoked_at and 0 reassigned yes answers with an "
        "asked_at after the audit's as_of (2026-11-27 00:00:00)")


def test_a_consent_given_after_as_of_stands_at_no_call() -> None:
    """The symmetric case of issue 61's listing: an audit as of 15 June of calls that run
    on; a consent given on 20 June is a date no record made by 15 June could hold, so the
    July call it would have covered is judged without it."""
    july = called("2026-07-07T03:30Z")  # Mon 6 July, 23:30 EDT
    given = written(given="2026-06-20")
    assert judged(audit(july, dnc=REGISTRY, consents=given, as_of="2026-07-15")) == {}
    assert judged(audit(july, dnc=REGISTRY, consents=given, as_of="2026-06-15")) == {
        "calling_hours": TSR_HOURS, "dnc_call": REGISTRY_RULE}


def test_records_dated_after_as_of_are_read_alike_on_dask() -> None:
    dd = pytest.importorskip("dask.dataframe")
    other = "+13125550199"
    placed = pd.concat([called(LATE), called("2026-06-02T04:30Z").assign(
        id="call_1", to_number=other)], ignore_index=True)
    listed = pd.concat([REGISTRY, REGISTRY.assign(phone=other)], ignore_index=True)
    records = pd.concat([written(revoked="2036-09-01"), written().assign(phone=other)],
                        ignore_index=True)
    answers = reassigned("2036-04-01").assign(phone=other)
    expected = audit(placed, dnc=listed, consents=records, reassigned=answers, as_of=AS_OF)
    found = audit(dd.from_pandas(placed, npartitions=2), dnc=dd.from_pandas(listed, 2),
                  consents=records, reassigned=answers, as_of=AS_OF)

    def ordered(frame: pd.DataFrame) -> pd.DataFrame:
        return frame.sort_values(["rule", "call_id"], ignore_index=True)

    pd.testing.assert_frame_equal(ordered(found.findings), ordered(expected.findings),
                                  check_dtype=False)
    judged_here = expected.findings[expected.findings["rule"].isin(["calling_hours",
                                                                    "dnc_call"])]
    assert sorted(judged_here["call_id"]) == ["call_0", "call_0", "call_1", "call_1"]
    assert found.notes == expected.notes
