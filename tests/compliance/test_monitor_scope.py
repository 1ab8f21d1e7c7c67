"""After its first judgment the monitor judges again only what an observation can change
(the calls of the numbers and persons it touched, abandonment of the campaigns it touched,
the numbers whose dated rows the moment passed), and its findings stay the whole audit's,
row for row and type for type (issue 83, items 2 and the performance targets).

The account is the audit benchmark's (``bench_audit.frames``: every rule's edges among a
few thousand calls over six weeks, campaigns over their abandonment limit), with what the
benchmark's account lacks and a part could miss: persons whose leads link their numbers
(``other_phones``), and consents, DNC checks and listings dated among the streamed calls,
so that the moment passes them. Most calls are observed as a frame, the last ones as the
service's deliveries (the benchmark's stream: in time order, some repeated, some late).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from pandas.testing import assert_frame_equal

from dialkit.compliance import Monitor, audit
from dialkit.compliance._live._calls import AT_LEAST

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import bench_monitor  # noqa: E402

TAIL = 300
"""The calls delivered as events; those before are observed as one frame."""


def _account() -> tuple[dict[str, Any], dict[str, Any]]:
    """The benchmark's account split into kept calls and a tail, with persons, consents
    and DNC rows dated inside the tail's span, and the inputs every side judges by."""
    made = bench_monitor.account(2500, 600, TAIL)
    made["kept"], made["tail"] = (_dropping(made[part]) for part in ("kept", "tail"))
    rng = np.random.default_rng(83)
    leads = made["leads"].copy()
    pairs = leads.groupby("campaign_id").head(40).index.to_numpy()[:60].reshape(-1, 2)
    others = pd.Series(pd.NA, index=leads.index, dtype="string")
    others[pairs[:, 0]] = leads.loc[pairs[:, 1], "phone"].to_numpy()
    leads["other_phones"] = others
    tail = made["tail"]
    start, end = tail["created_at"].min(), tail["created_at"].max()
    numbers = rng.choice(tail["to_number"].unique(), 40, replace=False)
    moments = start + (end - start) * pd.Series(rng.random(40))
    consents = pd.DataFrame({"phone": numbers[:20], "kind": "written",
                             "given_at": moments[:20].to_numpy(),
                             "revoked_at": pd.Series(pd.NaT, index=range(20),
                                                     dtype="datetime64[us, UTC]")})
    dnc = pd.concat([made["dnc"], pd.DataFrame({
        "phone": numbers[20:], "listed": True, "checked_at": moments[20:].to_numpy(),
        "listed_at": (moments[20:] - pd.Timedelta(days=1)).to_numpy(), "list": "national"})],
        ignore_index=True)
    inputs = {**bench_monitor.inputs_of(leads, dnc), "consents": consents}
    return {**made, "leads": leads, "dnc": dnc}, inputs


def _dropping(calls: pd.DataFrame) -> pd.DataFrame:
    """``calls`` where every eighth answered call of the busiest campaign was abandoned as
    the events tell it (no disposition, the line dropped 2 s after the answer): the
    benchmark's campaigns abandon by their join times, which no event carries."""
    busiest = calls["campaign_id"].value_counts().index[0]
    answered = calls.index[(calls["campaign_id"] == busiest).fillna(False).to_numpy(bool)
                           & calls["answered_at"].notna().to_numpy(bool)
                           & (calls["status"] != "voicemail").fillna(True).to_numpy(bool)][::8]
    calls = calls.copy()
    calls.loc[answered, "disposition"] = None
    calls.loc[answered, "ended_at"] = calls.loc[answered, "answered_at"] + pd.Timedelta(seconds=2)
    calls.loc[answered, "duration_seconds"] = 2
    return calls


MADE, INPUTS = _account()
DELIVERIES = bench_monitor.stream(MADE["tail"])
KEPT_AT = bench_monitor.latest(MADE["kept"])


def expected(deliveries: list[dict[str, Any]]) -> pd.DataFrame:
    """The whole audit of the calls held after ``deliveries``, as of the latest."""
    calls, as_of = bench_monitor.so_far(MADE["kept"], MADE["tail"], KEPT_AT, deliveries)
    ordered = calls.sort_values(["created_at", "id"], kind="stable", ignore_index=True)
    return audit(ordered, **INPUTS, as_of=as_of).findings


def test_the_account_holds_what_a_part_could_miss() -> None:
    """The rules a part could judge wrongly are among the findings of the whole stream."""
    found = expected(DELIVERIES)
    assert {"abandonment", "call_frequency", "dnc_call", "dnc_lead", "unscreened_lead",
            "calling_hours"} <= set(found["rule"])
    tail = set(MADE["tail"]["to_number"])
    assert (found["rule"].eq("abandonment") & found["phone"].isin(tail)).any()


def test_judged_again_in_parts_batch_by_batch_the_findings_are_the_whole_audits() -> None:
    with Monitor(**INPUTS) as monitor:
        monitor.observe(MADE["kept"])
        assert_frame_equal(monitor.findings, expected([]))
        for start in range(0, len(DELIVERIES), 60):
            changes = monitor.observe(DELIVERIES[start:start + 60])
            assert 0 < changes.judged < len(monitor.calls)  # a part, not the whole
            assert_frame_equal(monitor.findings, expected(DELIVERIES[:start + 60]))


def test_judged_again_in_parts_event_by_event_the_findings_are_the_whole_audits() -> None:
    with Monitor(**INPUTS) as monitor:
        monitor.observe(MADE["kept"])
        for n, event in enumerate(DELIVERIES[:12], 1):
            assert monitor.observe(event).judged < len(MADE["kept"]) / 3
            assert_frame_equal(monitor.findings, expected(DELIVERIES[:n]))
        assert monitor.notes == audit(*bench_monitor.so_far(
            MADE["kept"], MADE["tail"], KEPT_AT, DELIVERIES[:12])[:1], **INPUTS,
            as_of=monitor.as_of).notes


MIAMI, MIAMI_MOBILE = "+13055550123", "+13055550199"


def _event(n: int, number: str, hour: int) -> dict[str, Any]:
    """A call's end: unanswered after 45 s of ringing."""
    at, end = f"2026-11-24T{hour}:00:00Z", f"2026-11-24T{hour}:00:45Z"
    return {"id": f"evt_{n}", "type": "call.completed", "created_at": end,
            "data": {"call_id": f"call_{n}", "direction": "outbound", "status": "no_answer",
                     "from": "+14155550100", "to": number, "campaign_id": "cmp_1",
                     "started_at": at, "ended_at": end}}


def test_a_persons_other_number_is_judged_with_the_number_an_event_touched() -> None:
    """Florida's cap counts calls "to a person ... regardless of the phone number used":
    the fourth call, to the lead's other number, is over it only with the two calls to the
    lead's own number, which no event of this observation touched; and a late third call
    to the own number moves the finding onto the call after it."""
    leads = pd.DataFrame({"id": ["lead_1"], "campaign_id": ["cmp_1"], "phone": [MIAMI],
                          "status": ["callback"], "other_phones": [MIAMI_MOBILE]})
    stream = [_event(1, MIAMI, 14), _event(2, MIAMI_MOBILE, 15), _event(4, MIAMI_MOBILE, 17),
              _event(3, MIAMI, 16)]
    with Monitor(leads=leads) as monitor:
        monitor.observe(stream[:2])
        found = [monitor.observe(event).added for event in stream[2:]]
        calls = monitor.calls
        assert_frame_equal(monitor.findings,
                           audit(calls, leads=leads, as_of=monitor.as_of).findings)
    assert found[0].empty  # three calls to the person
    assert found[1][["rule", "call_id"]].values.tolist() == [["call_frequency", "call_4"]]


def test_a_check_dated_after_the_moment_is_judged_again_once_the_moment_passes_it() -> None:
    """A scrub dated after the calls screens no lead until the moment passes it, and no
    finding quotes the moment against it: an event of another number judges that number
    alone, and the event that moves the moment past the check judges its number again."""
    leads = pd.DataFrame({"id": ["lead_1", "lead_2"], "campaign_id": ["cmp_1", "cmp_1"],
                          "phone": [MIAMI, "+12125550100"], "status": ["callback", "new"]})
    dnc = pd.DataFrame({"phone": [MIAMI], "listed": [False],
                        "checked_at": [pd.Timestamp("2026-11-24T16:30:00Z")]})
    with Monitor(leads=leads, dnc=dnc) as monitor:
        monitor.observe(_event(1, MIAMI, 14))
        assert "unscreened_lead" in set(monitor.findings["rule"])  # not checked by 14:00
        before = monitor.observe(_event(2, "+12125550100", 15))
        assert before.judged == 1  # the call of the number the event touched
        after = monitor.observe(_event(3, "+12125550100", 17))  # past the check
        assert after.judged == 3
        assert after.withdrawn["rule"].tolist() == ["unscreened_lead"]
        assert_frame_equal(monitor.findings, audit(monitor.calls, leads=leads, dnc=dnc,
                                                   as_of=monitor.as_of).findings)


def test_a_listing_dated_after_the_moment_is_judged_again_as_the_moment_moves() -> None:
    """A listing dated after the moment is read as unknown, and its finding quotes the
    moment: an event of another number moves the moment, and the listed number's finding
    is judged again (its check, dated with it, only once the moment passes it)."""
    listed_at = pd.Timestamp("2026-11-24T18:00:00Z")
    dnc = pd.DataFrame({"phone": [MIAMI], "listed": [True], "listed_at": [listed_at],
                        "checked_at": [listed_at], "list": ["national"]})
    with Monitor(dnc=dnc) as monitor:
        for n, (number, hour) in enumerate([(MIAMI, 14), ("+12125550100", 15),
                                            ("+12125550100", 16)], 1):
            monitor.observe(_event(n, number, hour))
            assert_frame_equal(monitor.findings,
                               audit(monitor.calls, dnc=dnc, as_of=monitor.as_of).findings)
        assert monitor.findings["evidence"].str.contains("is after the audit's as_of").any()


def _call(n: int, day: str, *, answered: bool = True, abandoned: bool = False) -> dict[str, Any]:
    """Call ``n`` of ``cmp_1`` on ``day`` at 10:00 in New York, to a number of its own:
    answered and talked through (a sale), abandoned (no disposition, 2 s of talk), or
    unanswered."""
    at = pd.Timestamp(f"{day}T15:00:00Z")
    talk = pd.Timedelta(seconds=2 if abandoned else 60)
    return {"id": f"call_{n:03d}", "direction": "outbound", "from_number": "+14155550100",
            "to_number": f"+1212555{100 + n % 100:04d}", "campaign_id": "cmp_1",
            "status": "completed" if answered else "no_answer", "created_at": at,
            "answered_at": at if answered else pd.NaT,
            "ended_at": at + (talk if answered else pd.Timedelta(seconds=30)),
            "duration_seconds": talk.total_seconds() if answered else 0,
            "disposition": "sale" if answered and not abandoned else None}


def test_a_campaigns_late_first_call_moves_its_periods_and_their_findings() -> None:
    """47 CFR 64.1200(a)(7) counts a campaign's periods from its first call: an unanswered
    call that arrives late, dated before every other, moves every period, and the
    abandoned call of a period over 3 % falls in one under it."""
    calls = pd.DataFrame([_call(0, "2026-11-01", answered=False),
                          *(_call(n, "2026-11-20") for n in range(1, 21)),
                          _call(21, "2026-11-28", abandoned=True),
                          *(_call(n, "2026-11-28") for n in range(22, 31)),
                          *(_call(n, "2026-12-03") for n in range(31, 91)),
                          {**_call(92, "2026-12-04", answered=False), "campaign_id": "cmp_2",
                           "created_at": pd.Timestamp("2026-12-04T03:00:00Z")}])  # 22:00
    late = pd.DataFrame([_call(91, "2026-10-27", answered=False)])
    with Monitor() as monitor:
        monitor.observe(calls)
        assert monitor.findings[["rule", "call_id"]].values.tolist() == [
            ["calling_hours", "call_092"], ["abandonment", "call_021"]]  # 1 of 30: 3.3 %
        changes = monitor.observe(late)
        assert changes.withdrawn["call_id"].tolist() == ["call_021"]  # 1 of 70: 1.4 %
        assert changes.judged < len(monitor.calls)
        assert_frame_equal(monitor.findings,
                           audit(monitor.calls, as_of=monitor.as_of).findings)


def test_calls_past_the_share_that_remakes_the_frame_are_judged_as_the_audit_judges() -> None:
    """More calls changed than the monitor keeps beside its frame (``_calls.AT_LEAST``),
    with no whole judgment between: the frame is remade while parts are judged, and the
    parts taken after it are still every call of their numbers."""
    made = bench_monitor.account(3000, 700, 2400)
    inputs = bench_monitor.inputs_of(made["leads"], made["dnc"])
    deliveries = bench_monitor.stream(made["tail"])
    kept_at = bench_monitor.latest(made["kept"])
    with Monitor(**inputs) as monitor:
        monitor.observe(made["kept"])
        for start in range(0, len(deliveries), 700):
            monitor.observe(deliveries[start:start + 700])
            calls, as_of = bench_monitor.so_far(made["kept"], made["tail"], kept_at,
                                                deliveries[:start + 700])
            calls = calls.sort_values(["created_at", "id"], kind="stable", ignore_index=True)
            assert_frame_equal(monitor.findings, audit(calls, **inputs, as_of=as_of).findings)
        assert len(monitor.calls) - len(made["kept"]) > AT_LEAST  # each a changed row
