"""The Do-Not-Call lists and the law of each, as data: ``dnc_lists.toml`` beside this module.

Law is data (docs/design.md): which list a number is on decides which rule a call to it breaks
and how long after the listing the call may still be placed (PECR's 28 days, the CRTC's
31, none for a person's own request), and which consent records exempt it. A row per list
of a country, with its citation, two sources, the quoted text and what was left in doubt,
checked on first use as every table of law is (:mod:`._rows`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from functools import lru_cache
from typing import Any

from .._utils._base_error import LawDataError
from . import _rows as law

DATA_FILE = "dnc_lists.toml"
LISTS = ("national", "company", "state")
"""The kinds of list: the country's register, the account's own list of people who
asked not to be called, or a US state's own list beside the national registry, which the
DNC results name by its id (``US-IN``)."""
KINDS = ("written", "ebr", "oral", "invitation")
"""The kinds of consent record (``consents=``'s ``kind``): ``invitation`` is the person's
own request or invitation to be called (Fla. Stat. 501.059(1)(k)1's "express
request of the person called", RSMo 407.1095(3)(a)'s "prior express invitation or
permission"), which a list's law may name beside a written or oral consent."""
CONTRACT = "contract"
"""The kind of record a written contract in force is (``contracts=``): a list
whose ``exempt_by`` names it is lifted by one (Canada's DNCL: Telecommunications Act
41.7's existing business relationship)."""
EXEMPTING = (*KINDS, CONTRACT)
"""What a list's ``exempt_by`` may name; where a list's words on its exemptions were not
reached (its ``unread``), a record of any of them makes its call a risk, not a breach."""
FACTS = {
    "nonprofit": "a tax-exempt nonprofit calling for itself (audit(nonprofit=True))",
    "charity": "a registered charity (Income Tax Act 248(1)), or a caller on its behalf, "
               "soliciting a donation (audit(charity=True))",
    "newspaper": "a newspaper of general circulation, or a caller on its behalf, soliciting "
                 "subscriptions (audit(newspaper=True))"}
"""The facts of an account a list's law may be lifted by (its ``exempt_facts``), each in
words: what the caller says by passing it. Each stands for its own fact: a registered
charity is narrower than a nonprofit, so ``nonprofit`` does not lift a list that names
``charity`` only."""
RELATIONSHIPS = ("purchase", "inquiry")
"""The kinds of established business relationship (``consents=``'s ``relationship``):
a purchase or transaction, or an inquiry or application; absent, a purchase."""
COLUMNS = frozenset({
    "id", "country", "list", "name", "grace_days", "grace_needs_check", "late_citation",
    "late_business_days", "late_since", "late_days_before", "exempt_by", "residential_only",
    "exempt_facts", "state", "scrub", "required", "relationships", "unread",
    *law.LAW_COLUMNS})
RELATIONSHIP_COLUMNS = frozenset({"id", "country", *RELATIONSHIPS, CONTRACT,
                                  *law.LAW_COLUMNS})
_STATE = re.compile(r"^[A-Z]{2}$")
_PERIOD = re.compile(r"^([1-9][0-9]*) (days|months)$")
LASTING = "while it lasts"
"""A relationship's period where the law sets none (Florida's "prior or existing business
relationship"): it exempts for as long as the record stands (its ``revoked_at``)."""
UNCOUNTED = "not counted"
"""A relationship's period where the law does not count that kind at all (Pennsylvania's
inquiry, which lasts only with the person's consent: a consent record of its own)."""


@dataclass(frozen=True)
class Period:
    """A length of time as a law counts it: so many days, or calendar months; or, of a
    relationship, :data:`LASTING` or :data:`UNCOUNTED` (``count`` 0)."""

    count: int
    unit: str
    """``days``, ``months``, :data:`LASTING` or :data:`UNCOUNTED`."""

    def __str__(self) -> str:
        return f"{self.count} {self.unit}" if self.count else self.unit


@dataclass(frozen=True)
class DncList(law.LawRow):
    """One row: a list of a country and its law.

    Attributes:
        id: ``US-national``, ``GB-company``, ...
        country: The country whose numbers it holds (``US``, ``GB``, ``CA``).
        list: ``national`` or ``company``.
        name: What reports call it.
        grace: How long after the listing a call is not a breach.
        grace_needs_check: Whether the grace is a safe harbor that holds only for a call
            placed with a check of the number no older than ``grace``, made before the
            listing.
        late_citation, late_business_days, late_since, late_days_before: A second rule
            with a longer period of its own, which a later call breaks too (empty: none).
        exempt_by: The record kinds that exempt a call to a listed number (an ``ebr``
            record while every row of :attr:`relationships` holds; a ``contract`` of
            ``contracts=``).
        residential_only: Whether the list's law protects residential subscribers only
            (a call to a business line is not judged by it).
        exempt_facts: The facts of the account (:data:`FACTS`) that lift the list's rule
            from all its calls.
        state: Of a state's list, its postal code (empty: none).
        scrub: Of a state's list, how often it is published and must be taken again.
        required: Of a state's list, whether the words read oblige a caller to obtain
            it (a missing scrub of it is then a risk).
        relationships: The key of the :func:`relationships` rows bounding an ``ebr``:
            the state list's id where it names its own, else the country.
        unread: The words on the list's exemptions that were not reached (empty: none
            left unread): a call that a record the other lists' words name would exempt
            is then a risk naming them, not a breach.
        citation: The section that decides a call to a listed number.
        sources, reviewed, confirmed, doubts, text: As every row of law has them
            (:class:`._rows.LawRow`).
    """

    id: str
    country: str
    list: str
    name: str
    grace: timedelta
    grace_needs_check: bool
    late_citation: str
    late_business_days: int
    late_since: date | None
    late_days_before: int
    exempt_by: tuple[str, ...]
    residential_only: bool = False
    exempt_facts: tuple[str, ...] = ()
    state: str = ""
    scrub: str = ""
    required: bool = False
    relationships: str = ""
    unread: str = ""

    @property
    def results_name(self) -> str:
        """What the DNC results' ``list`` column says of a listing on this list:
        ``national``, ``company``, or a state list's id (``US-IN``)."""
        return self.id if self.list == "state" else self.list


@dataclass(frozen=True)
class Relationship(law.LawRow):
    """How long one law (``[[relationship]]`` rows) counts an established business
    relationship: after a purchase or transaction, after an inquiry or application.

    Attributes:
        id: ``US-TSR``, ``US-FCC``, ``CA-CRTC``.
        country: The country whose lists' exemption it bounds.
        purchase, inquiry: How long the relationship lasts from each.
        contract: How long after a written contract ends it still exempts (None: the
            law counts no contract).
        citation, sources, reviewed, confirmed, doubts, text: As every row of law has them.
    """

    id: str
    country: str
    purchase: Period
    inquiry: Period
    contract: Period | None = None


@dataclass(frozen=True)
class ConsentRule(law.LawRow):
    """A rule that needs a consent record of its own (``[[consent]]`` rows), with the
    columns every row of law has (:class:`._rows.LawRow`)."""

    id: str


def consent_rule(rule_id: str) -> ConsentRule:
    """The ``[[consent]]`` row ``rule_id`` (``US-wireless``)."""
    return _consents()[rule_id]


def relationships(country: str | None = None) -> tuple[Relationship, ...]:
    """Every law's count of an established business relationship in ``country`` (every
    country's: None), or of a state list's own law (``US-TN``, a list's
    :attr:`DncList.relationships`, asked by that key only): an ``ebr`` record exempts a
    call only while each of them holds."""
    return tuple(row for row in _relationships().values()
                 if row.country == country or (country is None and "-" not in row.country))


def state_list(value: str) -> DncList | None:
    """The state list the DNC results name by ``value`` (``US-IN``); None for another
    value (``national`` and ``company`` name a list of the number's country)."""
    row = _table().get(value)
    return row if row is not None and row.list == "state" else None


def frame_values() -> tuple[str, ...]:
    """What the DNC results' ``list`` column may hold: ``national``, ``company`` and every
    state list's id; another value is refused, never read as the national register."""
    return ("national", "company", *(row.id for row in all() if row.list == "state"))


def get(country: str, kind: str) -> DncList | None:
    """The row of a country's list of ``kind``, or None where the table has none."""
    return _table().get(f"{country}-{kind}")


def all() -> tuple[DncList, ...]:  # noqa: A001 - as the jurisdictions' table names it
    """Every row, in the file's order."""
    return tuple(_table().values())


def load(text: str, where: str = DATA_FILE) -> dict[str, DncList]:
    """The rows of a table's TOML ``text``, by id.

    Raises:
        LawDataError: The text is not such a table; the message names the row.
    """
    return _lists(law.parse(text, where), where)


@lru_cache(maxsize=1)
def _table() -> dict[str, DncList]:
    return _lists(_data(), DATA_FILE)


def _lists(data: Mapping[str, Any], where: str) -> dict[str, DncList]:
    return law.by_id((_row(raw, at), at) for raw, at in law.rows(data, "list", where))


@lru_cache(maxsize=1)
def _consents() -> dict[str, ConsentRule]:
    return law.by_id(
        (ConsentRule(id=law.text(raw, "id", at), **law.law_columns(raw, at)), at)
        for raw, at in law.rows(_data(), "consent", DATA_FILE, label="consent row"))


@lru_cache(maxsize=1)
def _relationships() -> dict[str, Relationship]:
    return law.by_id((_relationship(raw, at), at) for raw, at in law.rows(
        _data(), "relationship", DATA_FILE, label="relationship row"))


def _relationship(raw: Mapping[str, Any], where: str) -> Relationship:
    """One checked ``[[relationship]]`` row."""
    law.known_columns(raw, RELATIONSHIP_COLUMNS, where)
    return Relationship(id=law.text(raw, "id", where), country=law.text(raw, "country", where),
                        purchase=_period(raw, "purchase", where),
                        inquiry=_period(raw, "inquiry", where),
                        contract=_period(raw, CONTRACT, where) if CONTRACT in raw else None,
                        **law.law_columns(raw, where))


def _period(raw: Mapping[str, Any], key: str, where: str) -> Period:
    """A column that is a length of time: ``"540 days"``, ``"18 months"``; of a
    relationship's kind, also :data:`LASTING` or :data:`UNCOUNTED`."""
    said = law.text(raw, key, where)
    if key in RELATIONSHIPS and said in (LASTING, UNCOUNTED):
        return Period(0, said)
    found = _PERIOD.match(said)
    if not found:
        also = f", {LASTING!r} or {UNCOUNTED!r}" if key in RELATIONSHIPS else ""
        raise LawDataError(f"{where}: {key} must be a number of days or months "
                               f"('90 days', '18 months'){also}, not {raw[key]!r}")
    return Period(int(found[1]), found[2])


@lru_cache(maxsize=1)
def _data() -> dict[str, Any]:
    return law.read(None, DATA_FILE)[0]


def _row(raw: Mapping[str, Any], where: str) -> DncList:
    """One checked row from its TOML table."""
    law.known_columns(raw, COLUMNS, where)
    kind, country = law.text(raw, "list", where), law.text(raw, "country", where)
    exempt = tuple(law.strings(raw, "exempt_by", where, required=True))
    facts = tuple(law.strings(raw, "exempt_facts", where, required=False))
    if kind not in LISTS or not set(exempt) <= set(EXEMPTING) or not set(facts) <= set(FACTS):
        raise LawDataError(f"{where}: list must be one of {LISTS}, exempt_by hold only "
                           f"{EXEMPTING} and exempt_facts only {tuple(FACTS)}")
    state = _state(raw, kind, country, where)
    if law.text(raw, "id", where) != f"{country}-{state or kind}":
        raise LawDataError(f"{where}: id must be {country}-{state or kind}")
    since = raw.get("late_since")
    return DncList(
        id=f"{country}-{state or kind}", country=country, list=kind,
        name=law.text(raw, "name", where),
        grace=timedelta(days=law.typed(raw, "grace_days", int, where, None)),
        grace_needs_check=law.typed(raw, "grace_needs_check", bool, where, None),
        late_citation=law.typed(raw, "late_citation", str, where, ""),
        late_business_days=law.typed(raw, "late_business_days", int, where, 0),
        late_since=since if isinstance(since, date) else None,
        late_days_before=law.typed(raw, "late_days_before", int, where, 0),
        exempt_by=exempt,
        residential_only=law.typed(raw, "residential_only", bool, where, False),
        exempt_facts=facts, state=state,
        scrub=law.text(raw, "scrub", where) if state else "",
        required=law.typed(raw, "required", bool, where, None) if state else False,
        relationships=_relationship_key(raw, state, country, where),
        unread=law.typed(raw, "unread", str, where, ""),
        **law.law_columns(raw, where))


def _state(raw: Mapping[str, Any], kind: str, country: str, where: str) -> str:
    """A state list's postal code: required of a ``state`` list (of the US), refused on
    another, with the columns only a state's list has."""
    own = ("state", "scrub", "required")
    if kind != "state":
        if any(column in raw for column in own):
            raise LawDataError(f"{where}: {', '.join(own)} are a state list's columns")
        return ""
    state = law.text(raw, "state", where)
    if country != "US" or not _STATE.match(state):
        raise LawDataError(f"{where}: a state list is of country US and names its state "
                           f"by its postal code ('IN'), not {state!r}")
    return state


def _relationship_key(raw: Mapping[str, Any], state: str, country: str, where: str) -> str:
    """Which :func:`relationships` rows bound the list's ``ebr``: its own (a state list
    naming its id) or its country's; an ``ebr`` of a list no row bounds is refused."""
    named = law.strings(raw, "relationships", where, required=False)
    if named and (not state or named != [f"{country}-{state}"]):
        raise LawDataError(f"{where}: relationships names the list's own id, "
                           f"{country}-{state}, on a state list only")
    return named[0] if named else country
