"""Days the law names by a rule, where the ``holidays`` package's calendar lacks them.

A statute names its banned days in words: "Flag Day" (14 June), "the third Monday
of February", "the Tuesday after the first Monday of November" (a general
election). Where the maintained ``holidays`` calendar of the place has the day
under some name, the jurisdiction table names it so; where it does not (Flag
Day in Pennsylvania, Election Day in the years without a presidential election),
the row states the day as the statute does, and this module computes its dates.
A day the law names is then applied, never only reported.

Three forms, each optionally limited to even or odd years:

- a fixed date: ``"14 June"``;
- the nth weekday of a month: ``"third Monday of February"``, ``"last Monday of May"``;
- a weekday after one: ``"Tuesday after the first Monday of November"``.

A holiday that falls on a weekend is observed on another day as each statute moves
it (:class:`ObservedRule`): one implementation for every row, so that the same words
are applied the same way wherever they occur.

Examples:
    >>> flag = day_rule({"name": "Flag Day", "rule": "14 June", "source": "https://x.org"}, "PA")
    >>> flag.on(2026)
    datetime.date(2026, 6, 14)
    >>> election = day_rule({"name": "Election Day", "rule": "Tuesday after the first Monday "
    ...                      "of November", "source": "https://x.org"}, "PA")
    >>> election.on(2026), election.on(2027)
    (datetime.date(2026, 11, 3), datetime.date(2027, 11, 2))
"""

from __future__ import annotations

import calendar
import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from .._utils._base_error import (
    DayRuleError,  # noqa: F401
    )

MONTHS = {name.casefold(): n for n, name in enumerate(calendar.month_name) if name}
WEEKDAYS = {name.casefold(): n for n, name in enumerate(calendar.day_name)}
ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "last": -1}
YEARS = ("every", "even", "odd")
KEYS = frozenset({"name", "rule", "years", "source"})

_FIXED = re.compile(r"(\d{1,2}) (\w+)")
_NTH = re.compile(r"(\w+) (\w+) of (\w+)")
_AFTER = re.compile(r"(\w+) after the (\w+) (\w+) of (\w+)")


@dataclass(frozen=True)
class DayRule:
    """A banned day as the statute states it.

    Attributes:
        name: What the statute calls the day (``Flag Day``), for reports.
        rule: The day in words, one of the module's three forms.
        years: ``every``, ``even`` or ``odd``: the years the day is one.
        source: Where the statute's words naming the day were read.
    """

    name: str
    rule: str
    years: str
    source: str

    def on(self, year: int) -> date | None:
        """The day's date in ``year``, or None where the rule skips that year."""
        if (self.years == "even" and year % 2) or (self.years == "odd" and not year % 2):
            return None
        return _date(self.rule.casefold(), year)

    def between(self, start: date, end: date) -> dict[date, str]:
        """The day's dates from ``start`` to ``end`` (both included), with its name."""
        found = (self.on(year) for year in range(start.year, end.year + 1))
        return {day: self.name for day in found if day is not None and start <= day <= end}


def day_rule(raw: Mapping[str, Any], where: str) -> DayRule:
    """One checked rule from its TOML table (``name``, ``rule``, ``source``, ``years``).

    Raises:
        DayRuleError: A key is missing or unknown, or the rule is not one of the forms;
            the message names ``where`` and the rule.
    """
    if not isinstance(raw, Mapping):
        raise DayRuleError(f"{where}: a named day must be a table {{name, rule, source}}")
    unknown = sorted(set(raw) - KEYS)
    missing = sorted({"name", "rule", "source"} - set(raw))
    if unknown or missing:
        raise DayRuleError(f"{where}: named day {dict(raw)!r}: "
                           + (f"unknown key(s) {unknown}" if unknown else f"missing {missing}"))
    rule = DayRule(str(raw["name"]), str(raw["rule"]), str(raw.get("years", "every")),
                   str(raw["source"]))
    if rule.years not in YEARS:
        raise DayRuleError(f"{where}: named day {rule.name!r}: years {rule.years!r} is not "
                           f"one of {', '.join(YEARS)}")
    if not rule.source.startswith(("https://", "http://")):
        raise DayRuleError(f"{where}: named day {rule.name!r}: source must be an http(s) address")
    try:
        _date(rule.rule.casefold(), 2000)
    except (KeyError, ValueError):
        raise DayRuleError(
            f"{where}: named day {rule.name!r}: rule {rule.rule!r} is not '14 June', "
            "'third Monday of February' or 'Tuesday after the first Monday of November'"
        ) from None
    return rule


@functools.lru_cache(maxsize=4096)
def _date(rule: str, year: int) -> date:
    """The date a rule (lower case) gives in ``year``; KeyError or ValueError if none.
    Kept: a row's ``holiday_on`` asks it of every day it judges."""
    if match := _FIXED.fullmatch(rule):
        return date(year, MONTHS[match[2]], int(match[1]))
    if match := _AFTER.fullmatch(rule):
        anchor = _nth(ORDINALS[match[2]], WEEKDAYS[match[3]], MONTHS[match[4]], year)
        return anchor + timedelta(days=(WEEKDAYS[match[1]] - anchor.weekday() - 1) % 7 + 1)
    if match := _NTH.fullmatch(rule):
        return _nth(ORDINALS[match[1]], WEEKDAYS[match[2]], MONTHS[match[3]], year)
    raise ValueError(rule)


def _nth(nth: int, weekday: int, month: int, year: int) -> date:
    """The ``nth`` (-1: the last) ``weekday`` of a month."""
    days = [week[weekday] for week in calendar.Calendar().monthdatescalendar(year, month)
            if week[weekday].month == month]
    return days[nth - 1 if nth > 0 else nth]


NO_MOVE = "none"
_MOVE = re.compile(r"(\w+)-to-(\w+)")


@dataclass(frozen=True)
class ObservedRule:
    """Where a holiday that falls on a weekend day is observed, as a statute moves it:
    ``"saturday-to-friday, sunday-to-monday"`` (5 U.S.C. 6103(b), Utah 63G-1-301(2)),
    ``"saturday-to-monday, sunday-to-monday"`` (R.I. Gen. Laws 25-1-1), or ``"none"``.

    Each move goes to the nearest such weekday (at most two days away): a Saturday to the
    Friday before or the Monday after, a Sunday to the Monday after. The one rule every
    row applies the same way (:meth:`on`), and the one way a report says it
    (:meth:`words`).

    Attributes:
        text: The rule as the table writes it.
        moves: (weekday, days moved) pairs: Monday is 0.
    """

    text: str
    moves: tuple[tuple[int, int], ...]

    def on(self, day: date) -> date | None:
        """The day a holiday on ``day`` is observed on instead, or None where it stays."""
        for weekday, by in self.moves:
            if day.weekday() == weekday:
                return day + timedelta(days=by)
        return None

    def words(self) -> str:
        """The rule in plain words: ``a Saturday holiday on the Friday before; a Sunday
        holiday on the Monday after``, or ``on its own day only``."""
        if not self.moves:
            return "on its own day only"
        days = calendar.day_name
        return "; ".join(
            f"a {days[weekday]} holiday on the {days[(weekday + by) % 7]} "
            + ("before" if by < 0 else "after") for weekday, by in self.moves)


NONE_OBSERVED = ObservedRule(NO_MOVE, ())
"""No observed day: a holiday is a holiday on its own date only."""


def observed_rule(text: str, where: str) -> ObservedRule:
    """A checked :class:`ObservedRule` from its words in the table.

    Raises:
        DayRuleError: The rule is not ``"none"`` nor moves such as ``"saturday-to-friday,
            sunday-to-monday"`` (a Saturday or a Sunday, once each, to a weekday at most
            two days away); the message names ``where``.
    """
    if text.strip() == NO_MOVE:
        return NONE_OBSERVED
    moves: list[tuple[int, int]] = []
    for part in (part.strip().casefold() for part in text.split(",")):
        match = _MOVE.fullmatch(part)
        start = WEEKDAYS.get(match[1], -1) if match else -1
        end = WEEKDAYS.get(match[2], -1) if match else -1
        by = min(((end - start) % 7, (end - start) % 7 - 7), key=abs)
        if start < 5 or not 0 <= end < 5 or not 0 < abs(by) <= 2 or start in dict(moves):
            raise DayRuleError(
                f"{where}: observed rule {text!r} is not 'none' nor moves of a weekend day "
                "such as 'saturday-to-friday, sunday-to-monday'")
        moves.append((start, by))
    return ObservedRule(text, tuple(moves))
