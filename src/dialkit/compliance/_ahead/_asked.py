"""What :func:`~._when.next_allowed` is asked about, read before it judges: the numbers (or
leads) and the one campaign a call would be of. A value that is no number, or several
campaigns for one call, is the caller's mistake, refused naming it: an answer "not allowed"
would hide it."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from ..._utils._base_error import AuditInputError
from ...contract import E164_PATTERN
from .._checks._lead_of import lead_states
from .._inputs._prepared import LEAD_COLUMNS
from ._when_past import has_lead_columns


def one_campaign(campaign_id: object) -> str | None:
    """The one campaign a call asked about would be of: several are refused, naming what to
    pass (the audit's ``campaign_id`` may name several, one call is of one)."""
    if campaign_id is None or isinstance(campaign_id, str):
        return campaign_id
    raise AuditInputError(f"next_allowed(campaign_id={campaign_id!r}) names no one campaign: "
                          "pass the id of the campaign the call would be of, or leave it out")


def numbers_asked(given: object) -> tuple[pd.Series, np.ndarray | None, object]:
    """The numbers asked about, the leads' address states (None: not leads, or none), and
    the leads' ids (None: not leads). Leads with a ``line`` but not the audit's columns
    are refused: the line would go unread (it is read with the account's leads beside
    the calls), and a business line read as a residential one is no answer to trust."""
    if isinstance(given, pd.DataFrame):
        if "phone" not in given:
            raise AuditInputError("next_allowed() needs numbers or leads with a 'phone' "
                                  f"column; these columns are {list(given.columns)}")
        if "line" in given and not has_lead_columns(given):
            missing = [column for column in LEAD_COLUMNS if column not in given]
            raise AuditInputError(
                f"next_allowed() reads the leads' line with the audit's columns of a lead "
                f"({', '.join(LEAD_COLUMNS)}); these leads have no {', '.join(missing)}: "
                "pass client.frames.leads() with its line column", frame="leads")
        _refuse_non_e164(given["phone"], "leads.phone")
        phones = given["phone"].reset_index(drop=True)
        ids = given["id"].to_numpy(object) if "id" in given else None
        return phones, lead_states(given.reset_index(drop=True)), ids
    if isinstance(given, str) or given is None:
        _refuse_non_e164(pd.Series([given], dtype=object), "phones_or_leads", one=True)
        given = [given]
    if isinstance(given, pd.Series):  # as it is: its numbers' zones are kept with its data
        phones = given.reset_index(drop=True)
    elif isinstance(given, Iterable):  # an Arrow array's items are Arrow's scalars: its list
        phones = pd.Series(given.to_pylist() if hasattr(given, "to_pylist") else list(given),
                           dtype=object)
    else:
        raise TypeError(f"next_allowed() takes a number, numbers or leads, not "
                        f"{type(given).__name__}")
    if pd.api.types.infer_dtype(phones, skipna=True) not in ("string", "empty"):
        raise AuditInputError("next_allowed() takes numbers as text (E.164, "
                              "'+14155550123'), a list or Series of them, or leads")
    _refuse_non_e164(given if isinstance(given, pd.Series) else phones, "phones_or_leads")
    return phones, None, None


def _refuse_non_e164(phones: pd.Series, where: str, *, one: bool = False) -> None:
    """Refuse the first value of ``phones`` that is not an E.164 number (an empty one too),
    as ``client.dnc.check`` refuses it: named by ``where`` and its label (``phones_or_leads[2]``),
    with its E.164 form where it can be told (:func:`~dialkit._phones._asked.e164_advice`).
    A number the law cannot place is an answer (``unknown_timezone``); a value that is no
    number is the caller's mistake, and an answer "not allowed" would hide it."""
    text = phones.astype("string[pyarrow]")  # a number (14155550123) as its digits: refused
    bad = (text.isna() | ~text.str.fullmatch(E164_PATTERN[1:-1])).to_numpy(bool, na_value=True)
    if not bad.any():
        return
    from ..._phones._asked import e164_advice  # the message's words: only on a refusal
    from ..._utils._secrets import shown

    label = phones.index[bad.argmax()]
    value = phones[label]
    named = where if one else f"{where}[{label!r}]"
    if value is None or (not isinstance(value, str) and pd.isna(value)):
        raise AuditInputError(f"{named} is empty: pass a number in E.164, "
                              "e.g. +14155550123")
    raise AuditInputError(f"{named} {shown(value)} is not E.164 ({e164_advice(str(value))})")
