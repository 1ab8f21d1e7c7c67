"""The guard on libphonenumber's own example numbers (issue 50): a fixed-line and a mobile
number of nine countries, judged at 03:00 and at noon of their own clock, over real HTTP;
the guard's verdict is ``next_allowed``'s, the law table's.

Where the table has no row for a country (France, Germany, Australia, India, Brazil,
Japan) no law judges a call at any hour: the guard once let it through, and now refuses it
at every hour, not judged (``no_law_held``, issue 98), as ``next_allowed`` answers it. The
table, not the guard, says which places have calling hours (docs/client.md, "The guard").
The UK's row sets none ("any": PECR has no calling hours).
"""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pandas as pd
import phonenumbers
import pytest
from phonenumbers import PhoneNumberFormat, PhoneNumberType, timezone

from dialkit import Client
from dialkit.compliance import next_allowed
from dialkit.errors import ContactForbiddenError

REGIONS = ("US", "CA", "GB", "FR", "DE", "AU", "IN", "BR", "JP")
NO_HOURS = {"GB"}
"""The regions whose row of the law table forbids calls at no hour."""
UNHELD = {"FR", "DE", "AU", "IN", "BR", "JP"}
"""The regions the law table has no row of: their calls are judged at no hour."""
DAY = datetime(2026, 11, 4)
"""A Wednesday: a weekday everywhere, no holiday of any row."""


def examples() -> dict[str, str]:
    """Each distinct example fixed-line and mobile number, E.164, with its region (NANP's
    example is one number for both)."""
    found = {}
    for region in REGIONS:
        for kind in (PhoneNumberType.FIXED_LINE, PhoneNumberType.MOBILE):
            number = phonenumbers.example_number_for_type(region, kind)
            assert number is not None, (region, kind)
            found[phonenumbers.format_number(number, PhoneNumberFormat.E164)] = region
    return found


def local(phone: str, hour: int) -> datetime:
    """``hour`` o'clock of :data:`DAY` at the number's (first) zone, in UTC."""
    zone = timezone.time_zones_for_number(phonenumbers.parse(phone))[0]
    return DAY.replace(hour=hour, tzinfo=ZoneInfo(zone)).astimezone(UTC)


def test_the_guard_judges_example_numbers_as_the_law_table_does(client: Client) -> None:
    """At 03:00 local the law table forbids North America's numbers (and the guard refuses
    them with its rule), not the UK's, and judges no other's (refused, ``no_law_held``); at
    noon it allows every number it holds the law of and still judges no other."""
    client.me()
    asked = [(phone, local(phone, 3)) for phone in examples()]
    asked += [(phone, local(phone, 12)) for phone, region in examples().items()
              if region not in NO_HOURS]
    for phone, at in asked:
        said = next_allowed(phone, pd.Timestamp(at)).iloc[0]
        region = examples()[phone]
        assert said["allowed"] == (region in NO_HOURS or (
            region not in UNHELD and at.hour != local(phone, 3).hour)), (phone, at)
        assert (said["rule"] == "no_law_held") == (region in UNHELD), (phone, at)
        if said["allowed"]:
            client.guard.contact("sms.send", phone, at=at)
            continue
        with pytest.raises(ContactForbiddenError) as raised:
            client.guard.contact("sms.send", phone, at=at)
        assert (raised.value.rule, raised.value.next_allowed_at) == (
            said["rule"], None if pd.isna(said["next_allowed_at"]) else said["next_allowed_at"])
    assert client.guard.overrides == []
