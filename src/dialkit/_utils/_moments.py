"""Times and lengths of time as a caller gives them: one reading of each for every
argument of the library and every option of the CLI.

pandas reads far more than was meant: ``pd.Timedelta("30")`` is 30 nanoseconds, so a
horizon of ``30`` looked 30 ns ahead and found nothing ("0 scheduled calls would break
a rule"); ``pd.Timestamp("now")`` is the clock, ``"11/01/2026"`` a guess between
November and January. A time here is an ISO 8601 date or time (``2026``, ``2026-11``,
``2026-11-01``, ``2026-11-01T09:00``, with ``Z`` or an offset) or a date/time object. A
time of day a person typed without a zone (``2026-11-22 19:00``) names no moment until
its zone is known: it is read in the zone the caller names (``tz="America/New_York"``,
``--tz``), and refused without one, never taken silently as UTC (a New York evening
read as UTC is five hours off, and the law's hours are judged on the wrong side of 21:00).
A date alone (``2026-11-01``) is a day, and starts at midnight UTC unless a zone is
named; a length of time is a number *with its unit* (``30d``,
``12h``, ``90min``, ``1d12h``) or a ``timedelta``, above zero. Anything else is
refused with a ``ValueError`` naming the argument (``horizon='30'``), which the CLI
shows as its option (``--horizon '30'``).

pandas keeps the toolkit's times in nanoseconds, from 1677-09-21 to 2262-04-11: a time
outside them wraps round to another moment once the audit's arrays take it (``--at
0206-11-03T15:00Z`` was answered for another moment, exit 0), and a longer length of time
overflows. Every reader here that answers in pandas' types refuses such a value with a
:class:`~dialkit.errors.TimeRangeError` naming it and the range; the readers
without pandas answer Python's own types, which hold years 1 to 9999 exactly, and a
caller that hands their answer to pandas checks it with :func:`held`.

One instant written in ISO 8601 and read without pandas (the emulator's clock and
configuration, the MCP tools' questions) is read by :func:`iso_datetime`. This module
imports pandas and numpy only when a function that needs them runs, so that those
readers, which load neither, need not load them for it.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta, tzinfo
from typing import TYPE_CHECKING, TypeVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ._base_error import InputError, TimeRangeError

if TYPE_CHECKING:
    import pandas as pd

TIME_FORMS = "'2026-11-01', '2026-11-01T09:00Z' or '2026-11-01T09:00-05:00'"
"""Examples of a time, for the messages."""
SPAN_FORMS = "'30d', '12h', '90min' or '2w'"
"""Examples of a length of time, for the messages."""

EARLIEST = datetime(1677, 9, 21, 0, 12, 43, 145225, tzinfo=UTC)
"""The first moment pandas holds (``pd.Timestamp.min``), to the microsecond within it."""
LATEST = datetime(2262, 4, 11, 23, 47, 16, 854775, tzinfo=UTC)
"""The last moment pandas holds (``pd.Timestamp.max``), to the microsecond within it."""
LONGEST = timedelta(days=106_751, hours=23, minutes=47, seconds=16, microseconds=854775)
"""The longest length of time pandas holds (``pd.Timedelta.max``), some 292 years."""
_Moment = TypeVar("_Moment", bound=datetime)
HELD = f"{EARLIEST:%Y-%m-%d %H:%M:%S} to {LATEST:%Y-%m-%d %H:%M:%S} UTC"
"""The range of times pandas holds, for the messages."""

_ISO_TIME = re.compile(
    r"\d{4}(-\d{2}(-\d{2}([T ]\d{2}(:\d{2}(:\d{2}([.,]\d{1,9})?)?)?"
    r"(Z|[+-]\d{2}(:?\d{2})?)?)?)?)?", re.IGNORECASE)
"""ISO 8601's extended calendar forms, from a year alone to a fraction of a second with
a zone (a space for the ``T``, as pandas and CSV exports write it)."""
_UNITS = {"w": "W", "week": "W", "weeks": "W", "d": "D", "day": "D", "days": "D",
          "h": "h", "hr": "h", "hrs": "h", "hour": "h", "hours": "h",
          "min": "min", "mins": "min", "minute": "min", "minutes": "min",
          "s": "s", "sec": "s", "secs": "s", "second": "s", "seconds": "s"}
"""The units a length of time is written in. ``m`` is not among them: minutes to pandas,
months to many a reader."""
_PIECE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([a-z]+)\s*", re.IGNORECASE)


def iso_datetime(text: str) -> datetime:
    """``text``, one instant in ISO 8601 (``2026-11-02T15:00:00Z``, an offset, a date
    alone, the basic forms), as a ``datetime``: aware where ``text`` has ``Z`` or an
    offset, naive where it has none (the caller says what a naive one means). Python's
    own reading (``datetime.fromisoformat``), the one for a single time read without
    pandas: it holds years 1 to 9999 exactly, so a time pandas cannot hold is not refused
    here but by :func:`held`, where the answer is handed to pandas.

    Raises:
        ValueError: ``text`` is no ISO 8601 date or time (``datetime``'s message).

    Examples:
        >>> iso_datetime("2026-11-02T15:00:00.250Z")
        datetime.datetime(2026, 11, 2, 15, 0, 0, 250000, tzinfo=datetime.timezone.utc)
        >>> iso_datetime("2026-11-02 10:00")
        datetime.datetime(2026, 11, 2, 10, 0)
    """
    return datetime.fromisoformat(text)


def iso_date(text: str) -> date:
    """``text``, one day in ISO 8601 (``2026-11-01``), as a ``date``.

    Raises:
        ValueError: ``text`` is no ISO 8601 date (``date``'s message).

    Examples:
        >>> iso_date("2026-11-01")
        datetime.date(2026, 11, 1)
    """
    return date.fromisoformat(text)


def held(moment: _Moment, name: str, value: object = None) -> _Moment:
    """``moment`` (a ``datetime`` or pandas ``Timestamp``; a naive one read as UTC) where
    pandas holds it, for a caller about to hand it to pandas; read without pandas.

    Raises:
        TimeRangeError: ``moment`` is outside :data:`HELD`; the message names ``name`` and
            ``value``, as the caller was given it (``moment`` itself by default).

    Examples:
        >>> held(datetime(2026, 11, 2, tzinfo=UTC), "at").year
        2026
        >>> held(datetime(206, 11, 3, 15, tzinfo=UTC), "at", "0206-11-03T15:00Z")
        Traceback (most recent call last):
        dialkit.errors.TimeRangeError: at='0206-11-03T15:00Z' is outside the times pandas ...
    """
    naive = moment.tzinfo is None
    if not ((EARLIEST.replace(tzinfo=None) if naive else EARLIEST) <= moment
            <= (LATEST.replace(tzinfo=None) if naive else LATEST)):
        given = moment if value is None else value
        raise TimeRangeError(f"{name}={given!r} is outside the times pandas holds, {HELD}: "
                             "pass a time between them (is its year mistyped?)")
    return moment


def utc_times(values: pd.Series, where: str, *, strict: bool = True) -> pd.Series:
    """``values`` as UTC timestamps: kept as they are when already so (the frames'
    type), else read as ISO 8601 (text from a CSV export; times without an offset
    are taken as UTC), and times of another zone converted: every column of times the
    toolkit reads in UTC is read here, none by its own ``pd.to_datetime``.

    ``strict=False`` reads a value that is no time, or one outside :data:`HELD`, as
    missing (``NaT``), for a figure that only describes the data (a frame's first and
    last time).

    Raises:
        ValueError: A value is no ISO 8601 time; the message names ``where`` (the
            frame and column), the first such value and its row.
        TimeRangeError: A time outside :data:`HELD`, named so with its row.
    """
    import numpy as np  # noqa: PLC0415 - on first use (see the module's docstring)
    import pandas as pd  # noqa: PLC0415

    dtype = values.dtype
    if isinstance(dtype, pd.DatetimeTZDtype) and str(dtype.tz) == "UTC":
        return _held_times(values, values, where, strict=strict)
    if not strict:
        read = pd.to_datetime(values, utc=True, format="ISO8601", errors="coerce")
        return _held_times(read, values, where, strict=False)
    try:
        read = pd.to_datetime(values, utc=True, format="ISO8601")
    except (ValueError, TypeError, OverflowError):
        read = pd.to_datetime(values, utc=True, format="ISO8601", errors="coerce")
        row = int(np.flatnonzero((read.isna() & values.notna()).to_numpy(bool))[0])
        raise InputError(f"{where} holds {values.iloc[row]!r} at row {row}, which is not an "
                         "ISO 8601 time: write times as 2026-11-02T15:00:00Z (or with an "
                         "offset)") from None
    return _held_times(read, values, where, strict=True)


def _held_times(read: pd.Series, values: pd.Series, where: str, *,
                strict: bool) -> pd.Series:
    """``read`` (``values`` as UTC times) where pandas holds every time of it: one outside
    :data:`HELD` is refused, naming its row (``strict``), or read as ``NaT``. A column in
    nanoseconds holds none outside, so it is not looked at."""
    import numpy as np  # noqa: PLC0415 - on first use (see the module's docstring)

    if read.dt.unit == "ns":
        return read
    outside = ((read < EARLIEST) | (read > LATEST)).to_numpy(bool)
    if not outside.any():
        return read
    if not strict:
        return read.mask(outside)
    row = int(np.flatnonzero(outside)[0])
    raise TimeRangeError(f"{where} holds {values.iloc[row]!r} at row {row}, which is outside "
                         f"the times pandas holds, {HELD}: correct it (is its year "
                         "mistyped?)")


def utc_moment(value: object, name: str, *, tz: object = None,
               tz_name: str = "tz") -> pd.Timestamp:
    """``value`` as a moment in UTC: a date or time object, or ISO 8601 text. One with a
    zone (``Z``, an offset, an aware ``datetime``) is that moment; one without is read in
    ``tz`` (an IANA zone name or a ``tzinfo``); without ``tz``, a time of day is refused
    and a date alone starts at midnight UTC.

    Raises:
        ValueError: Not such a time, a time of day without a zone and no ``tz``, or a ``tz``
            that names no zone; the message names ``name`` (``since``), what to pass, and
            ``tz_name`` (``tz``, ``--tz``) where a zone may be named.
        TimeRangeError: A time outside :data:`HELD`.

    Examples:
        >>> utc_moment("2026-11-01T09:00-05:00", "since")
        Timestamp('2026-11-01 14:00:00+0000', tz='UTC')
        >>> utc_moment("2026-11-22 19:00", "at", tz="America/New_York")
        Timestamp('2026-11-23 00:00:00+0000', tz='UTC')
        >>> utc_moment("2026-11-22 19:00", "at")
        Traceback (most recent call last):
        dialkit.errors.InputError: at='2026-11-22 19:00' has no time zone: ...
        >>> utc_moment("30", "since")
        Traceback (most recent call last):
        dialkit.errors.InputError: since='30': pass an ISO date or time, e.g. '2026-11-01', ...
    """
    return held(_moment(value, name, tz, tz_name), name, value)


def _moment(value: object, name: str, tz: object, tz_name: str) -> pd.Timestamp:
    """:func:`utc_moment`'s reading, before its range is checked."""
    at = _timestamp(value)
    if at is None:
        raise InputError(f"{name}={value!r}: pass an ISO date or time, e.g. {TIME_FORMS}")
    if at.tzinfo is not None:
        return at.tz_convert("UTC")
    if tz is not None:
        return _localized(at, value, name, _zone(tz, tz_name))
    if _is_date(value):
        return at.tz_localize("UTC")
    raise InputError(f"{name}={value!r} has no time zone: write it with one, e.g. "
                     "'2026-11-22T19:00Z' (UTC) or '2026-11-22T19:00-05:00', or name the "
                     f"zone it is read in ({tz_name}='America/New_York')")


PERIOD_FORMS = (f"an ISO date or time ({TIME_FORMS}), a length of time back from now "
                "('30d', '7d', '12h') or 'today' or 'yesterday' (from midnight UTC)")
"""The forms a bound of a period takes (:func:`period_bound`), for the messages."""
_DAYS_BACK = {"today": 0, "yesterday": 1}


def period_bound(value: object, name: str, *,
                 now: pd.Timestamp | None = None) -> pd.Timestamp:
    """A bound of a period (``since``, ``until``) as people say it, in UTC: what
    :func:`utc_moment` reads; ``today`` or ``yesterday`` (the day's start, midnight UTC,
    as a date's); ``now``; or a length of time back from ``now`` (``30d``: 30 days ago;
    any form :func:`duration` reads).

    Raises:
        ValueError: None of these; the message names ``name`` and the forms taken.
        TimeRangeError: A bound outside :data:`HELD` (or a length of time back from
            ``now`` longer than :data:`LONGEST`).

    Examples:
        >>> import pandas as pd
        >>> now = pd.Timestamp("2026-11-25T21:40Z")
        >>> period_bound("30d", "since", now=now)
        Timestamp('2026-10-26 21:40:00+0000', tz='UTC')
        >>> period_bound("yesterday", "since", now=now)
        Timestamp('2026-11-24 00:00:00+0000', tz='UTC')
        >>> period_bound("last week", "since")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        dialkit.errors.InputError: since='last week': pass an ISO date or time ... (from ...)
    """
    import pandas as pd  # noqa: PLC0415 - on first use (see the module's docstring)

    now = pd.Timestamp.now(tz="UTC") if now is None else now
    word = value.strip().lower() if isinstance(value, str) else None
    if word in _DAYS_BACK:
        return held(now.floor("D") - pd.Timedelta(days=_DAYS_BACK[word]), name, value)
    if word == "now":
        return held(now, name, value)
    if word is None or _timestamp(value) is not None:
        return utc_moment(value, name)
    span = _written(word, name, value)
    if span is None or span <= pd.Timedelta(0):
        raise InputError(f"{name}={value!r}: pass {PERIOD_FORMS}")
    return _shifted(now, span, name, value, back=True)


def period_text(**bounds: tuple[object, pd.Timestamp | None]) -> str:
    """A period asked, in words: each bound given (``since=(value, moment)``, as
    :func:`period_bound` read ``value``) in UTC, after the words it was asked in where those
    were no time.

    Examples:
        >>> import pandas as pd
        >>> period_text(since=("30d", pd.Timestamp("2026-10-26T21:40Z")), until=(None, None))
        'since 30d (2026-10-26 21:40 UTC)'
    """
    said = []
    for name, (value, moment) in bounds.items():
        if moment is None:
            continue
        shown = f"{moment:%Y-%m-%d %H:%M} UTC"
        if isinstance(value, str) and _timestamp(value) is None:
            shown = f"{value.strip()} ({shown})"
        said.append(f"{name} {shown}")
    return " ".join(said)


def _is_date(value: object) -> bool:
    """Whether ``value`` is a day rather than a moment: a ``date`` (not a ``datetime``) or
    ISO text of a year, month or day without a time."""
    if isinstance(value, str):
        return re.fullmatch(r"\s*\d{4}(-\d{2}(-\d{2})?)?\s*", value) is not None
    return isinstance(value, date) and not isinstance(value, datetime)


def _zone(tz: object, tz_name: str) -> tzinfo:
    """``tz`` as a zone: a ``tzinfo``, or an IANA name (``America/New_York``, ``UTC``)."""
    if isinstance(tz, tzinfo):
        return tz
    try:
        return ZoneInfo(str(tz).strip())
    except (ZoneInfoNotFoundError, ValueError):
        raise InputError(f"{tz_name}={tz!r} is not a time zone: pass an IANA name, e.g. "
                         "'America/New_York', 'Europe/London' or 'UTC'") from None


def _localized(at: pd.Timestamp, value: object, name: str, zone: tzinfo) -> pd.Timestamp:
    """``at``, a wall-clock time, in ``zone``, as UTC; a time the clock skipped or showed
    twice that day (a DST change) is refused, naming both readings' cure: an offset."""
    try:
        return at.tz_localize(zone, ambiguous="raise", nonexistent="raise").tz_convert("UTC")
    except ValueError:  # pandas' AmbiguousTimeError, NonExistentTimeError
        raise InputError(f"{name}={value!r} is not one moment in {zone}: the clocks changed "
                         "then, and that time was shown twice or not at all; write it with "
                         "its offset, e.g. '2026-11-01T01:30-04:00'") from None


def _timestamp(value: object) -> pd.Timestamp | None:
    """``value`` read as a time, None where it is none: a number (nanoseconds since 1970 to
    pandas) and text that is not ISO 8601 are none."""
    import numpy as np  # noqa: PLC0415 - on first use (see the module's docstring)
    import pandas as pd  # noqa: PLC0415

    if isinstance(value, str):
        if _ISO_TIME.fullmatch(value.strip()) is None:
            return None
        value = value.strip().upper()
    elif not isinstance(value, date | np.datetime64):
        return None
    try:
        at = pd.Timestamp(value)
    except (ValueError, OverflowError):  # a month 13, a day 32
        return None
    return None if pd.isna(at) else at


def duration(value: object, name: str) -> pd.Timedelta:
    """``value`` as a length of time above zero: a ``timedelta`` (pandas' or numpy's too)
    or a number with its unit (``30d``, ``12h``, ``90min``, ``2w``, ``1d12h``; ``days``,
    ``hours``, ... spelt out).

    Raises:
        ValueError: A number without a unit (``30``, ``"30"``), text that is no length of
            time, or one not above zero; the message names ``name`` (``horizon``).
        TimeRangeError: A length longer than pandas holds (:data:`LONGEST`).

    Examples:
        >>> duration("1d12h", "horizon")
        Timedelta('1 days 12:00:00')
        >>> duration("30", "horizon")
        Traceback (most recent call last):
        dialkit.errors.InputError: horizon='30': give a unit, e.g. '30d', '12h', '90min' or '2w'
    """
    import numpy as np  # noqa: PLC0415 - on first use (see the module's docstring)
    import pandas as pd  # noqa: PLC0415

    if isinstance(value, int | float | np.number) or (
            isinstance(value, str) and re.fullmatch(r"\s*[+-]?\d+(\.\d*)?\s*", value)):
        raise InputError(f"{name}={value!r}: give a unit, e.g. {SPAN_FORMS}")
    span = (pd.Timedelta(value) if isinstance(value, timedelta | np.timedelta64)
            else _written(value, name, value) if isinstance(value, str) else None)
    if span is None:
        raise InputError(f"{name}={value!r} is not a length of time: pass a number and its "
                         f"unit (w, d, h, min, s), e.g. {SPAN_FORMS}, or a timedelta")
    if pd.isna(span) or span <= pd.Timedelta(0):
        raise InputError(f"{name}={value!r}: pass a length of time above zero, e.g. "
                         f"{SPAN_FORMS}")
    if span > LONGEST:
        raise _too_long(name, value)
    return span


def later(moment: pd.Timestamp, value: object, name: str) -> pd.Timestamp:
    """``moment`` (in UTC) plus the length of time ``value`` (read by :func:`duration`), where
    pandas holds the sum: the end of a horizon looked ahead from ``moment``.

    Raises:
        ValueError: ``value`` is no length of time (:func:`duration`).
        TimeRangeError: The sum is past :data:`LATEST` (``moment + span`` itself would
            raise pandas' ``OutOfBoundsDatetime``, a bug in dialkit to the CLI).

    Examples:
        >>> import pandas as pd
        >>> later(pd.Timestamp("2026-11-02T15:00Z"), "7d", "horizon")
        Timestamp('2026-11-09 15:00:00+0000', tz='UTC')
        >>> later(pd.Timestamp("2026-11-02T15:00Z"), "100000d", "horizon")
        Traceback (most recent call last):
        dialkit.errors.TimeRangeError: horizon='100000d' from 2026-11-02 15:00 UTC ends past ...
    """
    return _shifted(moment, duration(value, name), name, value, back=False)


def _shifted(moment: pd.Timestamp, span: pd.Timedelta, name: str, value: object, *,
             back: bool) -> pd.Timestamp:
    """``moment`` ``span`` later (or ``back``: earlier), refused as ``name=value`` where
    the answer is outside :data:`HELD`."""
    edge, way, which = (EARLIEST, "starts before", "first") if back else (
        LATEST, "ends past", "last")
    if span > abs(edge - moment):
        raise TimeRangeError(f"{name}={value!r} from {moment:%Y-%m-%d %H:%M} UTC {way} "
                             f"{edge:%Y-%m-%d %H:%M:%S} UTC, the {which} time pandas holds: "
                             f"pass a shorter length of time, e.g. {SPAN_FORMS}")
    return moment - span if back else moment + span


def _written(text: str, name: str, value: object) -> pd.Timedelta | None:
    """``text`` as numbers and their units summed (``1d12h``), None where it is not so;
    past :data:`LONGEST`, refused as ``name=value``."""
    import pandas as pd  # noqa: PLC0415 - on first use (see the module's docstring)
    from pandas.errors import OutOfBoundsTimedelta  # noqa: PLC0415

    pieces = list(_PIECE.finditer(text))
    if not pieces or "".join(p.group(0) for p in pieces) != text:
        return None
    units = [_UNITS.get(p.group(2).lower()) for p in pieces]
    if None in units:
        return None
    try:  # summed in nanoseconds: past LONGEST, they overflow
        return sum((pd.Timedelta(float(p.group(1)), unit=u) for p, u in zip(pieces, units,
                                                                           strict=True)),
                   pd.Timedelta(0))
    except (OutOfBoundsTimedelta, OverflowError):
        raise _too_long(name, value) from None


def _too_long(name: str, value: object) -> TimeRangeError:
    return TimeRangeError(f"{name}={value!r} is longer than pandas holds, "
                          f"{LONGEST.days:,} days (about 292 years): pass a shorter length "
                          f"of time, e.g. {SPAN_FORMS}")
