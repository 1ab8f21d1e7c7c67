"""Each refusal of a lead in words a vendor reads without the contract at hand.

A cleaned workbook goes back to whoever sent the file; ``field_rule`` / ``email`` is the
service's code, and a vendor needs "the email address is not one the service accepts".
The words sit beside the codes (which programs and the contract keep), one sentence for
each verdict the clean can give (:data:`._verdicts.VERDICTS`).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

import pandas as pd

from dialkit.contract import (
    EMAIL_MAX,
    EXTERNAL_ID_MAX,
    FIRST_NAME_MAX,
    FULL_NAME_MAX,
    LAST_NAME_MAX,
    PHONE_MAX,
)

from ._verdicts import Verdict

EXPLANATION = "explanation"
"""The column of a cleaned workbook that holds each refusal in words."""

WORDS: Mapping[Verdict, str] = MappingProxyType({
    ("invalid", "missing_phone", None): "the row has no phone number",
    ("invalid", "field_rule", "phone"): f"the phone cell is longer than {PHONE_MAX} "
                                        "characters, too long to be a phone number",
    ("invalid", "invalid_phone", None): "not a valid phone number for the row's country",
    ("blocked_country", None, None): "the number is in a country the account does not call",
    ("duplicate", "duplicate_in_request", None): "the same phone number or lead id as an "
                                                 "earlier row of the file",
    ("duplicate", "duplicate_in_campaign", None): "already a lead of the campaign",
    ("invalid", "field_rule", "external_id"): f"the lead id is longer than {EXTERNAL_ID_MAX} "
                                              "characters, or used in another campaign",
    ("invalid", "field_rule", "first_name"): f"the first name is longer than {FIRST_NAME_MAX} "
                                             "characters",
    ("invalid", "field_rule", "last_name"): f"the last name is longer than {LAST_NAME_MAX} "
                                            "characters",
    ("invalid", "field_rule", "full_name"): f"the name is longer than {FULL_NAME_MAX} "
                                            "characters",
    ("invalid", "field_rule", "email"): "the email address is not a valid address (or is "
                                        f"longer than {EMAIL_MAX} characters)",
    ("on_dnc", None, None): "the number is on the account's Do-Not-Call list",
})
"""Each refusal the clean gives, by ``status``, ``reason`` and ``field``, in words."""


def explained(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` (cleaned rows, or their summary) with :data:`EXPLANATION` right after its
    ``field`` column (``explanation (clean)`` where the file has a column of that name):
    each row's refusal in words, empty for an accepted row."""
    keys = zip(*(frame[name].astype(object).where(frame[name].notna(), None).tolist()
                 for name in ("status", "reason", "field")), strict=True)
    name = EXPLANATION if EXPLANATION not in frame.columns else f"{EXPLANATION} (clean)"
    words = frame.assign(**{name: [WORDS.get(key) for key in keys]})
    columns = [column for column in frame.columns if column != name]
    at = columns.index("field") + 1
    return words[[*columns[:at], name, *columns[at:]]]
