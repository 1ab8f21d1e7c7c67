"""The calling rules of each place, as data: one table shipped in the package.

Law is data (docs/design.md): the calling windows by day, the Sunday and holiday
bans, the frequency caps and the Do-Not-Call scrub ages of the federal
baseline, the US states whose rules differ from it, the UK and Canada live in
``jurisdictions.toml`` beside this module, a row per jurisdiction with its
citation, two sources and the date it was last reviewed. A row that two
independent public sources did not both confirm says so (``confirmed`` is
false), so that a report can name it rather than apply it silently as law.

The file is read and checked once, on first use: a bad time, an unknown
holiday name, a missing citation or a row without two sources is refused with
an error naming the row. Holidays are resolved through the maintained
``holidays`` package for the row's country and subdivision, by the names the
row gives; a day the law names and the calendar lacks is stated as the statute
states it (``named_days``: a date, an nth weekday, an election Tuesday; :mod:`._days`)
and applied the same way.

Published as :mod:`dialkit.compliance.jurisdictions`; it lives here, in the shared
law (:mod:`dialkit._law`), because the emulator's world keeps the same law as the
audit applies and may not import the compliance package.

Examples:
    >>> from dialkit._law import _jurisdictions as jurisdictions
    >>> florida = jurisdictions.get("US-FL")
    >>> florida.window_for(datetime(2026, 11, 23, 19, 30))
    (datetime.time(8, 0), datetime.time(20, 0))
    >>> jurisdictions.is_banned_day("US-LA", date(2026, 11, 22))  # a Sunday
    True
"""

from __future__ import annotations

import builtins
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .._utils._base_error import (
    DayRuleError,
    LawDataError,
    UnknownJurisdictionError,  # noqa: F401
)
from . import _rows as law
from ._days import NONE_OBSERVED, DayRule, ObservedRule, day_rule, observed_rule

if TYPE_CHECKING:
    from holidays import HolidayBase

DATA_FILE = "jurisdictions.toml"
"""The table's file name inside the ``dialkit._law`` package."""

NO_CALLS = "no calls"
ANY_TIME = "any"
AS_FEDERAL = "federal"
"""A state row's day windows where its words set the federal hours: the federal row
judges them, and the row is there for its other rules (a ban during an emergency)."""
OBSERVED_SUFFIX = " (observed)"
HOLIDAY_CHECK_YEARS = range(2020, 2031)
"""The years a row's holiday names are looked for in the ``holidays`` calendar
when the file is checked: a name the calendar never uses there is a typo."""

Window = tuple[time, time]
"""Recipient-local hours in which calls are allowed, from the first to the
second (a call at the second is outside)."""

WHOLE_DAY: Window = (time.min, time.max)
DAY_COLUMNS = ("weekday", "saturday", "sunday")
_WINDOW = re.compile(r"(\d\d):(\d\d)-(\d\d):(\d\d)")
_ID = re.compile(r"[A-Z]{2}(-[A-Z]{2})?")
COLUMNS = frozenset({
    "id", "name", "weekday", "saturday", "sunday", "holiday", "holidays", "observed_rule",
    "observed_rules", "holiday_since", "max_calls", "cap_hours", "cap_scope",
    "dnc_scrub_days", "citation", "cites", "sources", "reviewed", "confirmed", "doubts",
    "scope", "applies_to", "holiday_categories", "named_days", "holiday_weekdays_only",
    "consent_lifts_hours", "text", "doubtful", "end_included", "emergency_ban"})
"""Every column a row may have: any other is refused, so that a misspelt
``max_call`` cannot drop a cap without a word."""
DEFAULT_CATEGORIES = ("public",)
CITE_KINDS = ("hours", "days", "cap", "emergency")
"""What a row's ``cites`` name a section for: its calling ``hours``, its Sunday and
holiday bans (``days``; absent: the hours' section), its frequency ``cap`` and its ban
during a declared state of ``emergency``."""
APPLIES_TO = ("all", "campaign")
"""The calls a row's rule covers: ``all``, or ``campaign`` calls only (placed by the
dialer: a call with a ``campaign_id``), where the text covers automated calls only."""


JurisdictionDataError = LawDataError
"""The table's file is not as it must be; the message names the row (the error of every
table of law, :class:`LawDataError`, by the name this table published it)."""


@dataclass(frozen=True)
class Jurisdiction(law.LawRow):
    """One row of the table: a place's calling rules and where they come from.

    Attributes:
        id: ``US`` (federal), ``US-XX`` (a state by its postal code), ``GB``, ``CA``.
        name: What reports call it.
        weekday, saturday, sunday: The allowed window on that day, or None for
            "no calls".
        holiday: The window on the named holidays (None: no calls); None too
            when the row names no holidays, which are then ordinary days.
        holidays: The holidays ``holiday`` applies to, as the ``holidays``
            package names them for this country and subdivision.
        observed_rule: Where a holiday that falls on a Saturday or Sunday is observed as
            well (:class:`._days.ObservedRule`), as the row's statute moves it.
        max_calls, cap_period, cap_scope: At most ``max_calls`` calls per number
            in any ``cap_period`` (None: no cap set by law), and what counts.
        dnc_scrub_age: How old a Do-Not-Call check may be, where the row sets
            its own (None in a state row: the federal rule applies).
        citation, sources, reviewed, confirmed, doubts, text: As every row of law
            has them (:class:`._rows.LawRow`).
        scope: Which calls the rule covers, where the law says (a "mini-TCPA"
            that covers some calls only, its exemptions); empty when unsaid.
        holiday_categories: The ``holidays`` categories ``holidays`` are named
            from (``public`` unless a banned day is in another, as Good Friday).
        named_days: Days the law bans that the ``holidays`` calendar lacks, stated
            as the statute states them (:mod:`._days`) and applied like ``holidays``.
        holiday_weekdays_only: Whether the holiday window replaces the weekday
            window only (a holiday on a Saturday or Sunday keeps that day's window),
            as a statute whose holiday exception sits in its Monday-Friday clause.
        observed_rules: The holidays (by name) that another statute moves otherwise
            than ``observed_rule``, with their own rule (a federal holiday in a state row).
        holiday_since: Holidays (by name) that are holidays of the row only from a date:
            the day their text took effect.
        applies_to: ``all`` calls, or ``campaign`` calls only (:data:`APPLIES_TO`).
        cites: The section that decides each kind of finding (:data:`CITE_KINDS`), each
            quoted in ``text``; :meth:`cite` falls back to ``citation``.
        doubtful: Which reading the row applies that a text read did not settle (empty:
            none), so that a report names it as doubtful rather than choosing silently.
        consent_lifts_hours: Whether the row's hours and day bans bind only calls made
            without the person's prior consent, as its quoted words say: a call with
            such consent standing is not judged by the row (:mod:`..compliance._law`).
        end_included: Whether a call at a window's end itself is allowed, as words that
            forbid calls only "after" it say (Fla. Stat. 501.616(6)(a): "after 8 p.m.":
            a call at 20:00:00 sharp is not after 8 p.m.; one a moment later is).
            Elsewhere the end is outside: "between 8 a.m. and 9 p.m." does not settle
            the end, and the stricter reading stands.
        emergency_ban: Whether the row's law forbids telephone solicitation during a
            declared state of emergency (its words in ``text``, its section the
            ``emergency`` cite): a call to the place while an emergency the audit is
            given is declared there is outside every window.
        federal_hours: Whether the row's words set the federal hours (its day columns
            say :data:`AS_FEDERAL`): the federal row judges them, and the row's own
            windows are the whole day, so that a call is named by one row, not two.
    """

    id: str
    name: str
    weekday: Window | None
    saturday: Window | None
    sunday: Window | None
    holiday: Window | None
    holidays: tuple[str, ...]
    observed_rule: ObservedRule
    max_calls: int | None
    cap_period: timedelta | None
    cap_scope: str
    dnc_scrub_age: timedelta | None
    scope: str = ""
    holiday_categories: tuple[str, ...] = DEFAULT_CATEGORIES
    named_days: tuple[DayRule, ...] = ()
    holiday_weekdays_only: bool = False
    observed_rules: tuple[tuple[str, ObservedRule], ...] = ()
    holiday_since: tuple[tuple[str, date], ...] = ()
    applies_to: str = "all"
    cites: tuple[tuple[str, str], ...] = ()
    doubtful: str = ""
    consent_lifts_hours: bool = False
    end_included: bool = False
    emergency_ban: bool = False
    federal_hours: bool = False

    @property
    def status(self) -> str:
        """``confirmed`` or ``unconfirmed``, as a report's cover says it."""
        return "confirmed" if self.confirmed else "unconfirmed"

    @property
    def country(self) -> str:
        return self.id[:2]

    @property
    def subdivision(self) -> str | None:
        return self.id[3:] or None

    def cite(self, kind: str) -> str:
        """The section that decides a finding of ``kind`` (:data:`CITE_KINDS`): the row's
        ``cites`` entry (a day ban falls back to the hours'), else its ``citation``."""
        cites = dict(self.cites)
        return cites.get(kind) or (kind == "days" and cites.get("hours")) or self.citation

    def observed_on(self, name: str) -> ObservedRule:
        """The observed-day rule of one of the row's holidays (by name)."""
        return dict(self.observed_rules).get(name, self.observed_rule)

    def holiday_on(self, day: date) -> str | None:
        """The holiday of this row that ``day`` is (or is observed on), if any: one the
        ``holidays`` calendar names, or one of the row's own ``named_days``. None on a
        Saturday or Sunday where the row's holidays replace the weekday window only."""
        return _year_holidays(self, day.year).get(day)

    def holidays_between(self, start: date, end: date) -> dict[date, str]:
        """This row's named holidays from ``start`` to ``end`` (both included), by date.

        What an audit over many calls looks up once per row, instead of asking
        :meth:`holiday_on` call by call.
        """
        found: dict[date, str] = {}
        for year in range(start.year, end.year + 1):
            found.update(_year_holidays(self, year))
        return {day: name for day, name in sorted(found.items()) if start <= day <= end}

    def actual_holidays(self, first: int, last: int) -> dict[date, str]:
        """The row's holidays on their own dates (none moved) in the years ``first`` to
        ``last``, each from the date its text took effect (``holiday_since``)."""
        days: dict[date, str] = {}
        for rule in self.named_days:
            days.update(rule.between(date(first, 1, 1), date(last, 12, 31)))
        if self.holidays:
            calendar = self._calendar()
            for year in range(first, last + 1):
                calendar.get(date(year, 1, 1))  # fills the calendar for the year
            for day in (day for day in calendar if first <= day.year <= last):
                names = [name for name in calendar.get_list(day) if name in self.holidays]
                if names:
                    days.setdefault(day, names[0])
        since = dict(self.holiday_since)
        return {day: name for day, name in days.items()
                if name not in since or day >= since[name]}

    def _calendar(self) -> HolidayBase:
        return _calendar(self.country, self.subdivision, self.holiday_categories)

    def window_on(self, day: date) -> Window | None:
        """The allowed window on a recipient-local date, or None if no calls are allowed."""
        if self.holiday_on(day) is not None:
            return self.holiday
        return (self.weekday, self.weekday, self.weekday, self.weekday, self.weekday,
                self.saturday, self.sunday)[day.weekday()]

    def window_for(self, local: datetime) -> Window | None:
        """The allowed window on the day of a recipient-local time, or None."""
        return self.window_on(local.date())

    def allows(self, local: datetime) -> bool:
        """Whether a call at this recipient-local time is inside the row's window (at its
        end too, where the row's words forbid calls only after it: :attr:`end_included`)."""
        window = self.window_for(local)
        if window is None:
            return False
        moment = local.time()
        return window[0] <= moment < window[1] or (self.end_included and moment == window[1])

    def is_banned_day(self, day: date) -> bool:
        """Whether no calls at all are allowed on this recipient-local date."""
        return self.window_on(day) is None


@lru_cache(maxsize=1024)
def _year_holidays(row: Jurisdiction, year: int) -> dict[date, str]:
    """A row's holidays in one year, by date: each on its own date and, where the row's
    observed-day rule moves it, on that day too (named ``... (observed)``); a day that
    is a holiday of its own keeps its own name. On weekdays only where the row's
    holidays replace the weekday window only. Kept: ``holiday_on`` asks it per call."""
    moved: dict[date, str] = {}
    actual = row.actual_holidays(year - 1, year + 1)  # a move may cross the new year
    for day, name in actual.items():
        to = row.observed_on(name).on(day)
        if to is not None:
            moved.setdefault(to, name + OBSERVED_SUFFIX)
    days = {**moved, **actual}
    return {day: name for day, name in sorted(days.items()) if day.year == year
            and not (row.holiday_weekdays_only and day.weekday() >= 5)}


def get(jurisdiction_id: str) -> Jurisdiction:
    """The row of a jurisdiction, by id (``"US-FL"``, ``"US"``, ``"GB"``, ``"CA"``)."""
    table = _table()
    try:
        return table[jurisdiction_id]
    except KeyError:
        raise UnknownJurisdictionError(f"no jurisdiction {jurisdiction_id!r} in the table; "
                                       f"known ids: {', '.join(table)}") from None


def all() -> tuple[Jurisdiction, ...]:
    """Every row, in the file's order (the federal baseline first)."""
    return tuple(_table().values())


def unconfirmed() -> tuple[Jurisdiction, ...]:
    """The rows two independent sources did not both confirm, for a report's cover."""
    return tuple(row for row in all() if not row.confirmed)


def doubtful() -> tuple[Jurisdiction, ...]:
    """The rows applied on a reading that no text read settled, for a report's cover."""
    return tuple(row for row in all() if row.doubtful)


def is_banned_day(jurisdiction_id: str, day: date) -> bool:
    """Whether a jurisdiction allows no calls at all on a recipient-local date.

    A Sunday in a state that bans Sunday calls is banned, and so is one of the
    holidays its row names (resolved through the ``holidays`` package).
    """
    return get(jurisdiction_id).is_banned_day(day)


def load(path: Path | str | None = None) -> dict[str, Jurisdiction]:
    """Read and check a table file (the package's own by default), rows by id.

    Raises:
        JurisdictionDataError: The file cannot be read as the table; the message
            names the row and the column at fault.
    """
    data, where = law.read(path, DATA_FILE)
    return law.by_id((_row(raw, at), at) for raw, at in law.rows(data, "jurisdiction", where))


@lru_cache(maxsize=1)
def _table() -> dict[str, Jurisdiction]:
    """The package's table, read and checked once."""
    return load()


def _row(raw: Mapping[str, Any], where: str) -> Jurisdiction:
    """One checked row from its TOML table."""
    jid = law.text(raw, "id", where)
    if not _ID.fullmatch(jid):
        raise JurisdictionDataError(f"{where}: id {jid!r} is not 'US', 'US-XX', 'GB' or 'CA'")
    law.known_columns(raw, COLUMNS, where)
    holidays = tuple(law.strings(raw, "holidays", where, required=False))
    named_days = _named_days(raw, where)
    if "holiday" in raw and not (holidays or named_days):
        raise JurisdictionDataError(f"{where}: a holiday window needs the holidays it applies to")
    categories = tuple(law.strings(raw, "holiday_categories", where, required=False)) \
        or DEFAULT_CATEGORIES
    _check_holidays(jid, holidays, named_days, categories, where)
    days = (*holidays, *(day.name for day in named_days))
    observed, by_name = _observed(raw, days, where)
    max_calls, cap_period = _cap(raw, where)
    return Jurisdiction(
        id=jid, name=law.text(raw, "name", where),
        weekday=_window(raw, "weekday", where), saturday=_window(raw, "saturday", where),
        sunday=_window(raw, "sunday", where),
        holiday=_window(raw, "holiday", where) if holidays or named_days else None,
        holidays=holidays, observed_rule=observed, observed_rules=by_name,
        holiday_since=tuple(law.by_name(raw, "holiday_since", date, days, where).items()),
        applies_to=law.choice(raw, "applies_to", APPLIES_TO, where),
        cites=tuple(law.by_name(raw, "cites", str, CITE_KINDS, where).items()),
        doubtful=law.text(raw, "doubtful", where) if "doubtful" in raw else "",
        max_calls=max_calls, cap_period=cap_period,
        cap_scope=law.typed(raw, "cap_scope", str, where, ""),
        dnc_scrub_age=_days(raw, "dnc_scrub_days", where),
        scope=law.typed(raw, "scope", str, where, ""),
        holiday_categories=categories, named_days=named_days,
        holiday_weekdays_only=law.typed(raw, "holiday_weekdays_only", bool, where, False),
        consent_lifts_hours=_lifted(raw, where), end_included=_end_included(raw, where),
        emergency_ban=_emergency_ban(raw, where), federal_hours=_federal_hours(raw, where),
        **law.law_columns(raw, where),
    )


def _lifted(raw: Mapping[str, Any], where: str) -> bool:
    """``consent_lifts_hours``: true only of a row whose quoted words bind calls made
    without the person's consent."""
    return _worded(raw, "consent_lifts_hours", "consent", where)


def _worded(raw: Mapping[str, Any], key: str, words: str, where: str) -> bool:
    """A flag column that says what the row's quoted words say: true only where ``words``
    are quoted in ``text``, so that a reader can check the reading against them."""
    flag: bool = law.typed(raw, key, bool, where, False)
    if flag and words not in str(raw.get("text", "")).casefold():
        raise JurisdictionDataError(f"{where}: {key} needs the words that say so "
                                    f"({words!r}) quoted in text")
    return flag


def _end_included(raw: Mapping[str, Any], where: str) -> bool:
    """``end_included``: true only of a row whose quoted words forbid calls "after" the
    window's end, so that the end itself is not forbidden by them."""
    return _worded(raw, "end_included", "after", where)


def _emergency_ban(raw: Mapping[str, Any], where: str) -> bool:
    """``emergency_ban``: true only of a row whose quoted words forbid solicitation during
    a declared state of emergency, and that names the section (``cites.emergency``) each
    finding of it cites."""
    banned = _worded(raw, "emergency_ban", "emergency", where)
    if banned and "emergency" not in law.typed(raw, "cites", dict, where, {}):
        raise JurisdictionDataError(f"{where}: emergency_ban needs cites.emergency, the "
                                    "section a finding of it cites")
    return banned


def _federal_hours(raw: Mapping[str, Any], where: str) -> bool:
    """Whether a state row's day columns all say :data:`AS_FEDERAL`; some of them only,
    or the federal row's own, is refused (a day would be judged by no window)."""
    said = [raw.get(day) == AS_FEDERAL for day in DAY_COLUMNS]
    if builtins.any(said) and not (builtins.all(said) and "-" in str(raw.get("id", ""))):
        raise JurisdictionDataError(f"{where}: {AS_FEDERAL!r} is a state row's window in "
                                    f"each of {', '.join(DAY_COLUMNS)}, or in none")
    return builtins.all(said)


def _observed(raw: Mapping[str, Any], days: tuple[str, ...],
              where: str) -> tuple[ObservedRule, tuple[tuple[str, ObservedRule], ...]]:
    """The row's observed-day rule, required of a row with holidays (each row states its
    own), and the holidays another statute moves otherwise (``observed_rules``)."""
    if days and "observed_rule" not in raw:
        raise JurisdictionDataError(
            f"{where}: a row with holidays states its observed_rule ('none' where a holiday "
            "is kept on its own date only)")
    by_name = law.by_name(raw, "observed_rules", str, days, where)
    try:
        return (observed_rule(law.typed(raw, "observed_rule", str, where, "none"), where)
                if days else NONE_OBSERVED,
                tuple((name, observed_rule(text, where)) for name, text in by_name.items()))
    except DayRuleError as error:
        raise JurisdictionDataError(str(error)) from None


def _window(raw: Mapping[str, Any], key: str, where: str) -> Window | None:
    """A day's window from ``"HH:MM-HH:MM"``, ``"any"`` or ``"no calls"``."""
    value: str = law.typed(raw, key, str, where, None)
    if value == NO_CALLS:
        return None
    if value == ANY_TIME or (value == AS_FEDERAL and key in DAY_COLUMNS):
        return WHOLE_DAY
    try:
        return hours_window(value)
    except ValueError as error:
        said = str(error) if str(error) == ENDS_FIRST else (
            f"is not a window 'HH:MM-HH:MM', {ANY_TIME!r} or {NO_CALLS!r}")
        raise JurisdictionDataError(f"{where}: {key} {value!r} {said}") from None


ENDS_FIRST = "ends before it starts"


def hours_window(text: str) -> Window:
    """``"HH:MM-HH:MM"`` as a window of hours, its start before its end: the one reading of
    that form, for the law's rows and a policy's window alike.

    Raises:
        ValueError: ``text`` is not of that form or names no time (``25:00``), or the
            window :data:`ENDS_FIRST` (then the message is those words).

    Examples:
        >>> hours_window("09:00-20:00")
        (datetime.time(9, 0), datetime.time(20, 0))
    """
    match = _WINDOW.fullmatch(text)
    try:
        if match is None:
            raise ValueError
        h1, m1, h2, m2 = (int(part) for part in match.groups())
        start, end = time(h1, m1), time(h2, m2)
    except ValueError:
        raise ValueError(f"{text!r} is not a window 'HH:MM-HH:MM'") from None
    if start >= end:
        raise ValueError(ENDS_FIRST)
    return start, end


def _cap(raw: Mapping[str, Any], where: str) -> tuple[int | None, timedelta | None]:
    """The frequency cap: both ``max_calls`` and ``cap_hours``, or neither."""
    calls = law.typed(raw, "max_calls", int, where, 0) or None
    hours = law.typed(raw, "cap_hours", int, where, 0) or None
    if (calls is None) != (hours is None) or (calls or 1) < 1 or (hours or 1) < 1:
        raise JurisdictionDataError(
            f"{where}: max_calls and cap_hours must both be positive, or both absent")
    return calls, None if hours is None else timedelta(hours=hours)


def _days(raw: Mapping[str, Any], key: str, where: str) -> timedelta | None:
    days: int = law.typed(raw, key, int, where, 0)
    if key in raw and days < 1:
        raise JurisdictionDataError(f"{where}: {key} must be a positive number of days")
    return timedelta(days=days) if days else None


def _named_days(raw: Mapping[str, Any], where: str) -> tuple[DayRule, ...]:
    """The row's ``named_days``, each checked (:func:`._days.day_rule`)."""
    values: list[Any] = law.typed(raw, "named_days", list, where, [])
    try:
        return tuple(day_rule(value, where) for value in values)
    except DayRuleError as error:
        raise JurisdictionDataError(str(error)) from None


def _check_holidays(jid: str, names: tuple[str, ...], named_days: tuple[DayRule, ...],
                    categories: tuple[str, ...], where: str) -> None:
    """Refuse a holiday name the row's calendar never uses, and a named day that the
    calendar has on every date the rule gives: such a day is named from the calendar
    (``holidays``), so that the calendar's maintainers keep its dates."""
    if not names and not named_days:
        return
    try:
        known = _holiday_names(jid[:2], jid[3:] or None, categories)
    except ValueError as exc:  # the holidays package refuses an unknown category
        raise JurisdictionDataError(
            f"{where}: holiday_categories {list(categories)}: {exc}") from None
    unknown = [name for name in names if name not in known]
    if unknown:
        raise JurisdictionDataError(
            f"{where}: unknown holiday name(s) {unknown} for {jid}; the holidays "
            f"package names these: {sorted(known)}")
    calendar = _calendar(jid[:2], jid[3:] or None, categories)
    listed = [rule.name for rule in named_days if builtins.all(
        day in calendar for year in HOLIDAY_CHECK_YEARS if (day := rule.on(year)) is not None)]
    if listed:
        raise JurisdictionDataError(
            f"{where}: named day(s) {listed} are holidays of the holidays calendar in every "
            f"year now; name them in holidays instead")


@cache
def _holiday_names(country: str, subdivision: str | None,
                   categories: tuple[str, ...]) -> frozenset[str]:
    calendar = _calendar(country, subdivision, categories)
    for year in HOLIDAY_CHECK_YEARS:
        calendar.get(date(year, 1, 1))  # fills the calendar for the year
    return frozenset(name.removesuffix(OBSERVED_SUFFIX)
                     for names in calendar.values() for name in names.split("; "))


@cache
def _calendar(country: str, subdivision: str | None,
              categories: tuple[str, ...] = DEFAULT_CATEGORIES) -> HolidayBase:
    """The holidays of a place on their own dates (each row moves them by its own
    observed-day rule); imported here so ``import dialkit`` stays light."""
    import holidays

    return holidays.country_holidays(country, subdiv=subdivision, categories=categories,
                                     observed=False)


def window_text(window: Window | None, end_included: bool = False) -> str:
    """A window as the table and the reports say it: ``08:00-20:00``, ``no calls``; one
    whose end itself is allowed (:attr:`Jurisdiction.end_included`) as ``08:00 through
    20:00:00``, so that no reader takes its end for the first minute outside."""
    if window is None:
        return NO_CALLS
    if window == WHOLE_DAY:
        return "any time"
    if end_included:
        return f"{window[0]:%H:%M} through {window[1]:%H:%M:%S}"
    return "-".join(t.strftime("%H:%M") for t in window)


def cap_text(row: Jurisdiction) -> str:
    """A row's frequency cap in words, or ``none`` where the law sets none."""
    if row.max_calls is None or row.cap_period is None:
        return "none"
    text = f"{row.max_calls} per {row.cap_period.total_seconds() / 3600:g} h"
    return f"{text} ({row.cap_scope})" if row.cap_scope else text

