"""Lead bodies as the service takes them: per-lead problems are the service's to answer.

The contract answers a lead with no phone, a blank or invalid phone, or a
field over its limit with its own result in the import (``invalid`` with
``missing_phone``, ``invalid_phone`` or ``field_rule``); only the request's
shape refuses the whole batch. So the client checks only that shape (a list of
1-200 objects with the contract's fields and JSON values) and sends every
lead's values as they are, for the service to judge one by one.

Missing values mean "absent": ``None``, NaN and pandas' ``NA``/``NaT`` (what
``DataFrame.to_dict("records")`` holds for empty cells) are not sent, and dates
are sent in ISO 8601, so records from a DataFrame go as they come.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

import orjson

from ..contract import MAX_IMPORT_BATCH, FieldError, LeadInput
from ._arguments import argument, invalid, is_missing, pointer

LEAD_FIELDS = frozenset(LeadInput.model_fields)
"""The fields of a lead in the contract."""


def import_body(leads: Sequence[LeadInput | Mapping[str, Any]]) -> dict[str, Any]:
    """The body of an import of ``leads``; InvalidArgumentError for a wrong shape."""
    if isinstance(leads, str | bytes | Mapping) or not isinstance(leads, Sequence):
        raise invalid([f"leads must be a list of lead records (dicts), not "
                       f"{type(leads).__name__}"], [FieldError(pointer="/leads",
                                                               code="invalid_type")])
    if not 1 <= len(leads) <= MAX_IMPORT_BATCH:
        raise invalid([f"import_batch takes 1-{MAX_IMPORT_BATCH} leads, not {len(leads)}: "
                       f"split the list into batches of {MAX_IMPORT_BATCH}"],
                      [FieldError(pointer="/leads", code="too_long" if leads else "too_short")])
    problems: list[str] = []
    errors: list[FieldError] = []
    sent = [_lead(item, ("leads", index), problems, errors) for index, item in enumerate(leads)]
    if problems:
        raise invalid(problems, errors)
    return {"leads": sent}


def lead_fields(fields: Mapping[str, Any]) -> dict[str, Any]:
    """One lead's fields for a single add: missing values dropped, dates in ISO 8601."""
    problems: list[str] = []
    errors: list[FieldError] = []
    lead = _clean(fields, (), problems, errors)
    if problems:
        raise invalid(problems, errors)
    return lead


def _lead(item: object, location: tuple[str | int, ...], problems: list[str],
          errors: list[FieldError]) -> dict[str, Any]:
    if isinstance(item, LeadInput):
        return item.model_dump(mode="json", exclude_none=True)
    if not isinstance(item, Mapping):
        problems.append(f"{argument(location)} must be a dict of lead fields, not "
                        f"{type(item).__name__}")
        errors.append(FieldError(pointer=pointer(location), code="invalid_type"))
        return {}
    for name in item:
        if name not in LEAD_FIELDS:
            problems.append(f"{argument((*location, str(name)))} is not a lead field; rename "
                            f"or drop the column (fields: {', '.join(sorted(LEAD_FIELDS))})")
            errors.append(FieldError(pointer=pointer((*location, str(name))),
                                     code="unknown_field"))
    return _clean(item, location, problems, errors)


def _clean(fields: Mapping[str, Any], location: tuple[str | int, ...], problems: list[str],
           errors: list[FieldError]) -> dict[str, Any]:
    """``fields`` without missing values, nested mappings too, each value JSON-able."""
    lead: dict[str, Any] = {}
    for name, value in fields.items():
        if is_missing(value):
            continue
        if isinstance(value, Mapping):
            value = _clean(value, (*location, str(name)), problems, errors)
        elif isinstance(value, date):
            value = value.isoformat()
        elif not _json_able(value):
            problems.append(f"{argument((*location, str(name)))} is of type "
                            f"{type(value).__name__}, which JSON cannot carry; pass text, "
                            "a number or a boolean")
            errors.append(FieldError(pointer=pointer((*location, str(name))),
                                     code="invalid_type"))
            continue
        lead[str(name)] = value
    return lead


def _json_able(value: object) -> bool:
    try:
        orjson.dumps(value)
    except TypeError:
        return False
    return True
