"""Arguments checked before sending, and their errors in the service's vocabulary.

Methods check their arguments against the contract's request models, so a
request the service would refuse as a whole is refused here, before the rate
limit and the network. pydantic's errors are translated once, here, into
:class:`~dialkit.errors.InvalidArgumentError`: a message naming the argument,
the item and what to pass, and ``errors`` as the JSON pointers and codes the
service would answer.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from typing import Any

import phonenumbers
import pydantic

from ..contract import E164_PATTERN, FieldError
from ..errors import InvalidArgumentError
from ._transport import KEY_SHAPE

_SHOWN_CHARS = 40
"""Longest value a message repeats."""

_CODES = {
    "missing": "missing", "extra_forbidden": "unknown_field",
    "string_too_long": "too_long", "too_long": "too_long",
    "string_too_short": "too_short", "too_short": "too_short",
    "string_pattern_mismatch": "invalid_format",
    "greater_than": "out_of_range", "greater_than_equal": "out_of_range",
    "less_than": "out_of_range", "less_than_equal": "out_of_range",
}
"""pydantic's error types, as the service's per-field codes; other types are
``invalid_type`` when they are about a type, else ``invalid``."""


def refused(exc: pydantic.ValidationError,
            prefix: Sequence[str | int] = ()) -> InvalidArgumentError:
    """The InvalidArgumentError for pydantic's ``exc``; ``prefix`` leads every location."""
    problems, errors = [], []
    for error in exc.errors(include_url=False):
        location = (*prefix, *error["loc"])
        errors.append(FieldError(pointer=pointer(location), code=_code(error)))
        problems.append(f"{argument(location)}{_shown(error)} {_advice(error)}")
    return invalid(problems, errors)


def invalid(problems: Sequence[str], errors: list[FieldError]) -> InvalidArgumentError:
    """One error for every problem found (the message shows the first five)."""
    more = f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""
    return InvalidArgumentError("; ".join(problems[:5]) + more, errors)


def is_missing(value: Any) -> bool:
    """Whether ``value`` means "absent": ``None``, NaN, or pandas' ``NA`` / ``NaT``.

    Records from ``DataFrame.to_dict("records")`` hold these for empty cells.
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return True
    pandas = sys.modules.get("pandas")
    return pandas is not None and (value is pandas.NA or value is pandas.NaT)


def pointer(location: Sequence[str | int]) -> str:
    """The JSON pointer of a location in the body: ``/leads/3/email``."""
    return "".join(f"/{str(part).replace('~', '~0').replace('/', '~1')}" for part in location)


def argument(location: Sequence[str | int]) -> str:
    """``leads[3].email`` for the location ``("leads", 3, "email")``."""
    text = ""
    for part in location:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "the body"


def _code(error: Any) -> str:
    kind = str(error["type"])
    return _CODES.get(kind, "invalid_type" if kind.endswith("_type") else "invalid")


def _shown(error: Any) -> str:
    if error["type"] in ("missing", "extra_forbidden") or "input" not in error:
        return ""
    value = KEY_SHAPE.sub("…", repr(error["input"]))
    return f" {value[:_SHOWN_CHARS]}{'…' if len(value) > _SHOWN_CHARS else ''}"


def _advice(error: Any) -> str:
    kind = error["type"]
    if kind == "missing":
        return "is required"
    if kind == "extra_forbidden":
        return "is not a field of this request; remove it (the contract lists the fields)"
    pattern = (error.get("ctx") or {}).get("pattern")
    if kind == "string_pattern_mismatch" and pattern == E164_PATTERN:
        return _not_e164(error["input"])
    return "is refused: " + str(error["msg"]).replace("String", "text").lower()


def _not_e164(value: object) -> str:
    """Why a phone is not E.164, with the E.164 form when it is a plain US number."""
    hint = "E.164 is + then the country code and number, digits only, e.g. +14155550123"
    try:
        parsed = phonenumbers.parse(str(value), "US")
    except phonenumbers.NumberParseException:
        return f"is not E.164 ({hint})"
    if not phonenumbers.is_valid_number(parsed):
        return f"is not E.164 ({hint})"
    formatted = phonenumbers.format_number(parsed, phonenumbers.PhoneNumberFormat.E164)
    return f"is not E.164 (pass {formatted} if it is a US number; {hint})"

