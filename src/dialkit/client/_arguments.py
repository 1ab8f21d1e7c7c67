"""Arguments checked before sending: missing values, and refusals in the service's terms.

Every method builds its request body through :func:`checked`, which runs the
contract's request model and turns a refusal into one
:class:`~dialkit.errors.InvalidArgumentError`: the service's per-field codes
and JSON pointers, and a message naming the argument, the item index and what
to pass. Lead fields arrive from ``DataFrame.to_dict("records")`` with NaN,
``None``, ``pd.NA`` or ``pd.NaT`` for an empty cell; :func:`without_missing`
reads those as "absent".
"""

from __future__ import annotations

import math
import numbers
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from .._secrets import mask
from ..contract import E164_PATTERN, LeadInput, field_error_code, json_pointer
from ..errors import FieldProblem, InvalidArgumentError
from ._transport import KEY_SHAPE

T = TypeVar("T")

CUSTOM_FIELDS = "custom_fields"
ASSUMED_REGION = "US"
"""Region a number without ``+`` is read in, only to suggest its E.164 form."""

SHOWN_PROBLEMS = 5
"""How many problems an error's message spells out; ``errors`` holds them all."""

_VALUE_CHARS = 60
_LEAD_FIELDS = ", ".join(LeadInput.model_fields)
_UNKNOWN_FIELD_HINTS: Mapping[str, str] = {
    "leads": f"A lead's fields are {_LEAD_FIELDS}: put other columns in custom_fields "
             "(a dict) or drop them.",
}
"""What to do about an unknown field, by the argument it was found in."""

E164_HINT = ("Local numbers convert with the phonenumbers package: "
             "format_number(parse(number, region), PhoneNumberFormat.E164).")


def is_missing(value: object) -> bool:
    """Whether ``value`` is an empty cell: ``None``, NaN, ``pd.NA`` or ``pd.NaT``.

    Example:
        >>> is_missing(float("nan")), is_missing(None), is_missing(0)
        (True, True, False)
    """
    if value is None:
        return True
    if isinstance(value, str | bytes | bool | int | Mapping | list | tuple):
        return False
    pandas = sys.modules.get("pandas")  # pd.NA and pd.NaT exist only if pandas was imported
    if pandas is not None and pandas.api.types.is_scalar(value):
        return bool(pandas.isna(value))
    return isinstance(value, numbers.Real) and math.isnan(value)


def without_missing(fields: Mapping[str, Any], *, none_is_value: bool = False) -> dict[str, Any]:
    """``fields`` without its empty cells, also inside ``custom_fields``.

    Args:
        fields: A lead's fields (a record of ``DataFrame.to_dict("records")``).
        none_is_value: Keep ``None`` (an update, where it clears a field).
    """
    def absent(value: object) -> bool:
        return is_missing(value) and not (none_is_value and value is None)

    kept = {name: value for name, value in fields.items() if not absent(value)}
    custom = kept.get(CUSTOM_FIELDS)
    if isinstance(custom, Mapping):
        kept[CUSTOM_FIELDS] = {key: value for key, value in custom.items() if not absent(value)}
    return kept


def checked(validate: Callable[[Any], T], data: Any, *, at: Sequence[str | int] = ()) -> T:
    """``validate(data)``, a pydantic refusal raised as :class:`InvalidArgumentError`.

    Args:
        validate: A model's ``model_validate`` or an adapter's ``validate_python``.
        data: The request body, or one argument (then ``at`` names it).
        at: Where ``data`` sits in the body, for pointers and messages.
    """
    try:
        return validate(data)
    except ValidationError as exc:
        raise invalid_argument(exc.errors(), at) from None


def invalid_argument(errors: Sequence[ErrorDetails],
                     at: Sequence[str | int] = ()) -> InvalidArgumentError:
    """The error for pydantic's ``errors``, with the service's pointers and codes.

    Its message spells out the first few problems, then each hint once (what a
    lead's fields are, how to convert local numbers).
    """
    problems: list[FieldProblem] = []
    hints: dict[str, None] = {}  # insertion-ordered, each hint once
    for error in errors:
        loc = [*at, *error["loc"]]
        detail, hint = _describe(error, loc)
        problems.append(FieldProblem(pointer=json_pointer(loc),
                                     code=field_error_code(error["type"]), detail=detail))
        if hint is not None:
            hints[hint] = None
    parts = [problem.detail for problem in problems[:SHOWN_PROBLEMS]]
    if len(problems) > SHOWN_PROBLEMS:
        parts.append(f"and {len(problems) - SHOWN_PROBLEMS} more (see .errors)")
    message = " ".join(["; ".join(parts) + ". Nothing was sent.", *hints])
    return InvalidArgumentError(message, errors=problems)


def _describe(error: ErrorDetails, loc: Sequence[str | int]) -> tuple[str, str | None]:
    """One problem in words (where, the value, what to pass), and a hint for the message."""
    where, value, kind = python_path(loc), error.get("input"), error["type"]
    if kind == "missing":
        return f"{where} is required", None
    if kind == "extra_forbidden":
        hint = _UNKNOWN_FIELD_HINTS.get(str(loc[0]), "The service refuses unknown fields.")
        return f"{python_path(loc[:-1])} has an unknown field {loc[-1]!r}", hint
    if is_missing(value):
        return f"{where} is a missing value ({value!r}): pass a value or leave it out", None
    if kind == "string_pattern_mismatch" and error.get("ctx", {}).get("pattern") == E164_PATTERN:
        return (f"{where} {shown(value)} is not an E.164 number: {e164_advice(str(value))}",
                E164_HINT)
    return f"{where} {shown(value)}: {error['msg'][:1].lower()}{error['msg'][1:]}", None


def python_path(loc: Sequence[str | int]) -> str:
    """A location as the caller wrote it: ``leads[3].custom_fields.plan``.

    Example:
        >>> python_path(["phones", 0])
        'phones[0]'
    """
    path = ""
    for part in loc:
        path += f"[{part}]" if isinstance(part, int) else f".{part}" if path else str(part)
    return path or "the arguments"


def shown(value: object) -> str:
    """A value for a message: its repr, with anything key-shaped masked, or what it is if long."""
    text = KEY_SHAPE.sub(lambda match: mask(match.group()), repr(value))
    if len(text) <= _VALUE_CHARS:
        return text
    if isinstance(value, Mapping | list):
        return f"(a {type(value).__name__} of {len(value)})"
    return text[:_VALUE_CHARS - 1] + "…"


def e164_advice(value: str) -> str:
    """What to pass instead of ``value``: its E.164 form when it can be told for sure.

    A number written with ``+`` names its country; one without is read as a
    US number, and the suggestion says so.

    Example:
        >>> e164_advice("415-555-0123")
        "pass '+14155550123' if it is a US number"
    """
    import phonenumbers

    international = value.lstrip().startswith("+")
    try:
        number = phonenumbers.parse(value, None if international else ASSUMED_REGION)
    except phonenumbers.NumberParseException:
        number = None
    if number is None or not phonenumbers.is_valid_number(number):
        return "pass '+', the country code and the number, digits only (such as '+14155550123')"
    e164 = phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)
    return f"pass {e164!r}" if international else f"pass {e164!r} if it is a US number"
