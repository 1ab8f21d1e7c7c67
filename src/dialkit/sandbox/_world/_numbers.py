"""Fictional but valid phone numbers for the synthetic world, their country, zone and local time.

The seeded world must never dial a real person's number, yet every number must
pass ``phonenumbers.is_valid_number`` so that lead cleaning, DNC checks and
calling-hours audits treat it like a real one. The numbering plans' fiction
ranges give both:

- NANP (US, CA): ``NPA-555-0100`` to ``NPA-555-0199`` is reserved for fiction in
  every area code. A world that needs more numbers than that spills over into
  the rest of the 555 exchange, which is not assigned to subscribers.
  ``phonenumbers`` accepts both in every area code listed here.
- GB: Ofcom's drama ranges (``0113 496 0000`` to ``0999`` and friends). Two of
  them are *not* valid for ``phonenumbers`` and are left out: ``0115 496`` and
  the mobile range ``07700 900`` (nor is the area-less ``01632 960``).

Validating a million numbers one by one would take half a minute, so validity
is proven per range instead: every NANP fiction block and every drama range has
been checked number by number, the wider 555 exchange on a sample of each area
code, and the tests check samples of drawn numbers. The area codes are those
that ``phonenumbers`` maps to a single time zone, so a number's local time is
unambiguous.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from functools import lru_cache
from typing import NamedTuple
from zoneinfo import ZoneInfo

import numpy as np
from numpy.typing import NDArray

from dialkit._phones._asked import asked_number, time_zones
from dialkit._phones._asked import country_of as number_country

_US_AREA_CODES = """
201 202 203 205 206 207 209 210 212 213 214 215 216 217 218 219 220 223 224 225 227 228 229 231
234 235 239 240 248 251 252 253 254 256 260 262 267 269 270 272 274 276 279 281 283 301 302 303
304 305 307 308 309 310 312 313 314 315 316 317 318 319 320 321 323 324 325 326 327 329 330 331
332 334 336 337 339 341 346 347 350 351 352 353 360 361 363 364 369 380 385 386 401 402 404 405
406 407 408 409 410 412 413 414 415 417 419 423 424 425 430 432 434 435 440 442 443 445 447 448
458 463 464 469 470 472 475 478 479 480 484 501 502 503 504 505 507 508 509 510 512 513 515 516
517 518 520 530 531 534 539 540 541 551 557 559 561 562 563 564 567 570 571 572 573 574 575 580
582 585 586 601 602 603 606 607 608 609 610 612 614 615 616 617 618 619 620 623 626 628 629 630
631 636 640 641 645 646 650 651 656 657 659 660 661 662 667 669 678 680 681 682 686 689 702 703
704 706 707 708 712 713 714 715 716 717 718 719 720 724 725 726 727 728 730 731 732 734 737 738
740 743 747 748 754 757 760 762 763 765 769 770 771 772 773 774 779 781 785 786 801 802 803 804
805 806 808 810 812 813 814 815 816 817 818 820 821 826 828 830 831 832 835 838 839 840 843 845
847 848 850 854 856 857 858 859 860 862 863 864 865 870 872 878 901 903 904 906 908 909 910 912
913 914 915 916 917 918 919 920 925 928 929 930 931 934 936 937 938 940 941 943 945 947 948 949
951 952 954 956 959 970 971 972 973 975 978 979 980 983 984 985 989
"""

_CA_AREA_CODES = """
204 226 236 249 250 257 263 273 289 306 343 354 365 367 368 382 403 416 418 428 431 437 438 450
468 474 506 514 519 548 579 581 584 587 604 613 639 647 672 683 705 742 753 778 780 782 807 819
825 867 873 902 905 942
"""

_GB_DRAMA_RANGES = (
    ("+44113496", 0), ("+44114496", 0), ("+44116496", 0), ("+44117496", 0), ("+44118496", 0),
    ("+44121496", 0), ("+44131496", 0), ("+44141496", 0), ("+44151496", 0), ("+44161496", 0),
    ("+44191498", 0), ("+44207946", 0), ("+44289649", 6000), ("+44292018", 0),
)
"""Ofcom drama ranges as (E.164 prefix, first line): 1,000 four-digit lines each."""

COUNTRIES = ("US", "CA", "GB")
"""The countries of the synthetic world, in the order the world indexes them."""


class NumberRange(NamedTuple):
    """Consecutive numbers ``prefix`` + a zero-padded line from ``first`` on."""

    prefix: str
    first: int
    size: int
    width: int


@dataclass(frozen=True)
class Numbers:
    """Drawn numbers with the time zone and country (index into ``COUNTRIES``) of each."""

    e164: NDArray[np.str_]
    zone: NDArray[np.str_]
    country: NDArray[np.int64]

    def take(self, index: NDArray[np.int64]) -> Numbers:
        """The numbers at ``index``."""
        return Numbers(self.e164[index], self.zone[index], self.country[index])

    @staticmethod
    def concat(parts: Sequence[Numbers]) -> Numbers:
        """One set holding ``parts`` in order."""
        return Numbers(*(np.concatenate([getattr(p, f) for p in parts])
                         for f in ("e164", "zone", "country")))


def number_ranges(country: str, *, fiction_only: bool = True) -> tuple[NumberRange, ...]:
    """The proven-valid ranges of ``country``; NANP's widen to the 555 exchange on request."""
    if country == "GB":
        return tuple(NumberRange(prefix, first, 1000, 4) for prefix, first in _GB_DRAMA_RANGES)
    codes = {"US": _US_AREA_CODES, "CA": _CA_AREA_CODES}.get(country)
    if codes is None:
        raise ValueError(f"no fictional numbers for {country!r}; pass one of {COUNTRIES}")
    first, size = (100, 100) if fiction_only else (0, 10_000)
    return tuple(NumberRange(f"+1{code}555", first, size, 4) for code in codes.split())


def draw_numbers(rng: np.random.Generator, country: str, n: int) -> Numbers:
    """``n`` distinct numbers of ``country``, from the fiction ranges while they suffice.

    Raises:
        ValueError: ``country`` has fewer than ``n`` such numbers; ask for fewer.
    """
    ranges = number_ranges(country)
    if n > sum(r.size for r in ranges) and country != "GB":
        ranges = number_ranges(country, fiction_only=False)
    size = ranges[0].size
    if n > size * len(ranges):
        raise ValueError(f"only {size * len(ranges)} {country} numbers exist; ask for fewer")
    which, offset = np.divmod(rng.choice(size * len(ranges), size=n, replace=False), size)
    first = np.array([r.first for r in ranges])
    lines = np.strings.zfill((first[which] + offset).astype(np.str_), ranges[0].width)
    prefixes = np.array([r.prefix for r in ranges])
    zones = np.array([_range_zone(r) for r in ranges])
    return Numbers(e164=np.strings.add(prefixes[which], lines), zone=zones[which],
                   country=np.full(n, COUNTRIES.index(country), dtype=np.int64))


def world_numbers(rng: np.random.Generator, leads: int, caller_ids: Mapping[str, int],
                  unlisted: int) -> tuple[Numbers, Numbers, Numbers]:
    """Distinct numbers for an account's caller ids, DNC entries of no lead, and its leads.

    Leads are 70% US, 15% CA and 15% GB, in random order. GB has only 14,000
    drama numbers, so a large world holds fewer GB leads. Each country also gets
    ``unlisted`` numbers that belong to no lead.
    """
    gb = min(round(0.15 * leads), 11_000)
    wanted = {"US": leads - gb - round(0.15 * leads), "CA": round(0.15 * leads), "GB": gb}
    groups: tuple[list[Numbers], ...] = ([], [], [])
    for country in COUNTRIES:
        sizes = (caller_ids[country], unlisted, wanted[country])
        drawn = draw_numbers(rng, country, sum(sizes))
        bounds = np.cumsum((0, *sizes))
        for group, start, stop in zip(groups, bounds, bounds[1:], strict=False):
            group.append(drawn.take(np.arange(start, stop)))
    callers, extras, people = (Numbers.concat(group) for group in groups)
    return callers, extras, people.take(rng.permutation(leads))


@lru_cache(maxsize=1024)
def _range_zone(numbers: NumberRange) -> str:
    zone = timezone_of(f"{numbers.prefix}{numbers.first:0{numbers.width}d}")
    if zone is None:
        raise ValueError(f"phonenumbers knows no time zone for {numbers.prefix}")
    return zone


def country_of(e164: str) -> str | None:
    """ISO 3166 alpha-2 region of an E.164 number, or ``None`` if it has none."""
    parsed = asked_number(e164)
    return None if parsed is None else number_country(parsed)


def timezone_of(e164: str) -> str | None:
    """The number's IANA zone (the first ``phonenumbers`` lists), or ``None`` if unknown.

    Calling-hours rules use the recipient's local time; where a number maps to
    several zones the first one is taken, as the audits do.
    """
    parsed = asked_number(e164)
    if parsed is None:
        return None
    zones = time_zones(parsed)
    return str(zones[0]) if zones and zones[0] != "Etc/Unknown" else None


I64 = NDArray[np.int64]
DAY_MS = 86_400_000
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


class LocalClock:
    """Vectorised conversion between UTC and local days in a few time zones.

    Calling-hours rules read the recipient's wall clock, and converting a
    million times one by one with ``zoneinfo`` takes seconds. So each zone's UTC
    offset is tabulated once per local day, at noon. The world places no call
    near the 01:00-03:00 DST switch, so that offset holds wherever it is used.
    Times are epoch milliseconds; days count from ``first_day`` (an epoch day).
    """

    def __init__(self, zones: Sequence[str], first_day: int, last_day: int) -> None:
        self.first_day = first_day
        self.offsets = np.array([[_noon_offset(zone, day) for day in range(first_day, last_day)]
                                 for zone in zones], dtype=np.int64).reshape(len(zones), -1)

    def _offset(self, zone: I64, day: I64) -> I64:
        offset: I64 = self.offsets[zone, np.clip(day, 0, self.offsets.shape[1] - 1)]
        return offset

    def to_utc(self, zone: I64, day: I64, local: I64) -> I64:
        """UTC of ``local`` ms into local day ``day`` in zone ``zone`` (an index)."""
        return (self.first_day + day) * DAY_MS + local - self._offset(zone, day)

    def to_local(self, zone: I64, utc: I64) -> tuple[I64, I64]:
        """Local day and ms into it; the second pass settles days near midnight."""
        day = utc // DAY_MS - self.first_day
        for _ in range(2):
            naive = utc + self._offset(zone, day)
            day = naive // DAY_MS - self.first_day
        return day, naive - (self.first_day + day) * DAY_MS

    def weekday(self, day: I64) -> I64:
        """Monday 0 to Sunday 6."""
        return (self.first_day + day + 3) % 7


def _noon_offset(zone: str, epoch_day: int) -> int:
    noon = datetime.combine((_EPOCH + timedelta(days=epoch_day)).date(), time(12))
    offset = ZoneInfo(zone).utcoffset(noon)
    return 0 if offset is None else offset // timedelta(milliseconds=1)
