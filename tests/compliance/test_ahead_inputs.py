"""``next_allowed`` and ``upcoming`` take what lifts a Do-Not-Call list's rule by the audit's
names, and lift what the audit lifts (issue 73: "the audit, ``upcoming``, ``next_allowed``
and the guard read them alike").

Derived from the lists' rows, not from the code: the US registry protects residential
subscribers (47 CFR 64.1200(c)(2)) from telephone solicitations, which a tax-exempt
nonprofit's calls are not (47 U.S.C. 227(a)(4)(C)), and a signed written agreement or an
established business relationship exempts a call (16 CFR 310.4(b)(1)(iii)(B)(1) and (2));
Canada's DNCL binds neither a registered charity's appeals (Telecommunications Act
41.7(1)(a)) nor a newspaper's subscription calls (41.7(1)(g)), nor a call to a person with
a written contract in force (41.7(2)), and a nonprofit is no charity.
A reassigned ``yes`` asked after a contract was signed voids it (47 CFR 64.1200(m)).

Both numbers are listed on their country's register since 1 January 2026, and were last
checked in May (after the listing: no safe harbor); each call is asked about on Tuesday 2
June 2026 at 16:00 UTC, 12:00 in New York and Toronto, inside every window.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd
import pytest

from dialkit.compliance import AuditInputError, audit, next_allowed, upcoming
from dialkit.errors import InputError

NUMBERS = {"US": "+12125550123", "CA": "+14165550123"}
AT = "2026-06-02T16:00Z"
REGISTRY = "16 CFR 310.4(b)(1)(iii)(B); 47 CFR 64.1200(c)(2)"


def listed(phone: str) -> pd.DataFrame:
    return pd.DataFrame({"phone": [phone], "listed": True, "list": "national",
                         "listed_at": pd.to_datetime(["2026-01-01"], utc=True),
                         "checked_at": pd.to_datetime(["2026-05-01"], utc=True)})


def lead(phone: str, **more: object) -> pd.DataFrame:
    return pd.DataFrame({"id": ["lead_1"], "campaign_id": ["cmp_1"], "phone": [phone],
                         "status": ["callback"], **{k: [v] for k, v in more.items()}})


def contract(**named: str) -> pd.DataFrame:
    return pd.DataFrame({**{key: [value] for key, value in named.items()},
                         "signed_at": ["2026-03-01T00:00Z"], "ends_at": [None]})


def reassigned(phone: str) -> pd.DataFrame:
    return pd.DataFrame({"phone": [phone], "asked_at": ["2026-04-01T00:00Z"],
                         "answer": ["yes"]})


Case = tuple[str, str, Callable[[str], dict[str, Any]], bool]
CASES: list[Case] = [
    ("US", "nonprofit", lambda phone: {"nonprofit": True}, True),
    ("US", "charity", lambda phone: {"charity": True}, False),
    ("US", "newspaper", lambda phone: {"newspaper": True}, False),
    ("US", "contract", lambda phone: {"contracts": contract(phone=phone)}, False),
    ("CA", "charity", lambda phone: {"charity": True}, True),
    ("CA", "newspaper", lambda phone: {"newspaper": True}, True),
    ("CA", "nonprofit", lambda phone: {"nonprofit": True}, False),
    ("CA", "contract", lambda phone: {"contracts": contract(phone=phone)}, True),
    ("CA", "contract by lead", lambda phone: {"contracts": contract(lead_id="lead_1")}, True),
    ("CA", "contract voided", lambda phone: {"contracts": contract(phone=phone),
                                             "reassigned": reassigned(phone)}, False),
]
"""Each listed number, what is given, and whether it lifts the list's rule. A lead's
``line`` is not among them: both judges read it with the account's leads already."""
IDS = [f"{country}: {given}" for country, given, _, _ in CASES]


def audited(phone: str, inputs: dict[str, Any]) -> bool:
    """Whether the audit finds a call to ``phone`` at :data:`AT` by ``lead_1`` no breach of
    a list's rule, given the same inputs."""
    call = pd.DataFrame({"id": ["call_1"], "direction": "outbound",
                         "from_number": "+14155550100", "to_number": [phone],
                         "created_at": pd.to_datetime([AT], utc=True), "answered_at": pd.NaT,
                         "ended_at": pd.NaT, "campaign_id": ["cmp_1"], "disposition": None})
    found = audit(call, leads=lead(phone), dnc=listed(phone), as_of=AT, **inputs).findings
    return "dnc_call" not in set(found["rule"])


@pytest.mark.parametrize(("country", "given", "inputs", "lifted"), CASES, ids=IDS)
def test_next_allowed_lifts_a_listing_where_the_audit_does(
        country: str, given: str, inputs: Callable[[str], dict[str, Any]],
        lifted: bool) -> None:
    phone = NUMBERS[country]
    answers = [next_allowed(lead(phone), AT, dnc=listed(phone), **given_now).iloc[0]
               for given_now in ({}, inputs(phone))]
    assert [(answer["allowed"], answer["rule"] if not answer["allowed"] else None)
            for answer in answers] == [(False, "dnc_call"),
                                       (True, None) if lifted else (False, "dnc_call")]
    assert audited(phone, inputs(phone)) is lifted


def scheduled(phone: str) -> dict[str, pd.DataFrame]:
    """``upcoming``'s frames: no call made yet, ``lead_1`` of ``phone`` and its callback
    due at :data:`AT`, the number listed."""
    return {"calls": pd.DataFrame(columns=["id", "direction", "from_number", "to_number",
                                           "created_at", "answered_at", "ended_at",
                                           "campaign_id", "disposition"]),
            "leads": lead(phone, next_attempt_at=pd.NaT), "dnc": listed(phone),
            "callbacks": pd.DataFrame({"id": ["cb_1"], "lead_id": ["lead_1"],
                                       "campaign_id": ["cmp_1"], "status": ["pending"],
                                       "scheduled_at": pd.to_datetime([AT], utc=True)})}


def due(phone: str, **inputs: Any) -> list[str]:
    """The rules ``upcoming`` finds the callback of ``phone`` would break."""
    found = upcoming(scheduled(phone), as_of="2026-06-02T15:00Z", horizon="1d", **inputs)
    rules: list[str] = found["rule"].tolist()
    return rules


@pytest.mark.parametrize(("country", "given", "inputs", "lifted"), CASES, ids=IDS)
def test_upcoming_lifts_a_listing_where_the_audit_does(
        country: str, given: str, inputs: Callable[[str], dict[str, Any]],
        lifted: bool) -> None:
    phone = NUMBERS[country]
    assert due(phone) == ["dnc_call"]
    assert due(phone, **inputs(phone)) == ([] if lifted else ["dnc_call"])


@pytest.mark.parametrize(("kind", "lifted"), [("written", True), ("ebr", True),
                                               ("oral", False)])
def test_upcoming_reads_the_consents_the_audit_reads(kind: str, lifted: bool) -> None:
    """The registry's rule is lifted by a signed written agreement or an established
    business relationship (16 CFR 310.4(b)(1)(iii)(B)(1) and (2)), not by an oral consent."""
    phone = NUMBERS["US"]
    consents = pd.DataFrame({"phone": [phone], "kind": [kind],
                             "given_at": ["2026-05-15T00:00Z"], "revoked_at": [None]})
    assert due(phone, consents=consents) == ([] if lifted else ["dnc_call"])
    assert audited(phone, {"consents": consents}) is lifted


def test_the_citation_of_a_listing_is_in_next_alloweds_words() -> None:
    """A listing's evidence names its list; the refusal says its law too, as an answer of
    the hours says its statute."""
    phone = NUMBERS["US"]
    said = next_allowed(phone, AT, dnc=listed(phone)).iloc[0]["forbidden_by"]
    assert said.startswith("the number is on the US National Do Not Call Registry")
    assert said.endswith(f"; {REGISTRY}")


def test_leads_whose_line_would_go_unread_are_refused() -> None:
    """A line is read with the account's leads; leads of a few columns are numbers asked
    about, and their ``business`` would have been read as a residential line."""
    phone = NUMBERS["US"]
    with pytest.raises(AuditInputError, match=r"these leads have no id, campaign_id, "
                                              r"status: pass client.frames.leads\(\)"):
        next_allowed(pd.DataFrame({"phone": [phone], "line": ["business"]}), AT,
                     dnc=listed(phone))


@pytest.mark.parametrize("judge", ["next_allowed", "upcoming"])
@pytest.mark.parametrize("value", ["yes", "no", 1, None])
def test_a_fact_that_is_not_true_or_false_is_refused_by_name(judge: str,
                                                            value: object) -> None:
    phone = NUMBERS["CA"]
    with pytest.raises(InputError, match=rf"{judge}\(charity={value!r}\) is not True or "
                                         r"False"):
        if judge == "next_allowed":
            next_allowed(phone, AT, dnc=listed(phone), charity=value)  # type: ignore[arg-type]
        else:
            upcoming(scheduled(phone), charity=value)  # type: ignore[arg-type]


def test_a_contract_frame_the_audit_would_refuse_is_refused_by_next_allowed() -> None:
    phone = NUMBERS["CA"]
    with pytest.raises(AuditInputError, match="contracts has no column signed_at"):
        next_allowed(phone, AT, dnc=listed(phone),
                     contracts=pd.DataFrame({"phone": [phone]}))
