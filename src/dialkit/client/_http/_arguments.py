"""Arguments checked before sending: missing values, and refusals in the service's terms.

Every method builds its request body through :func:`checked`, which runs the
contract's request model and turns a refusal into one
:class:`~dialkit.errors.InvalidArgumentError`: the service's per-field codes
and JSON pointers, and a message naming the argument, the item index and what
to pass. Lead fields arrive from ``DataFrame.to_dict("records")`` with NaN,
``None``, ``pd.NA`` or ``pd.NaT`` for an empty cell and ``pd.Timestamp`` for a
date; :func:`sendable` reads the first as "absent" and sends dates as ISO 8601.
"""

from __future__ import annotations

import math
import numbers
import sys
from collections.abc import Callable, Mapping, Sequence
from datetime import date
from typing import Any, TypeVar

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from ..._utils._secrets import shown
from ...contract import E164_PATTERN, LeadInput, field_error_code, json_pointer
from ...errors import FieldProblem, InvalidArgumentError

T = TypeVar("T")

CUSTOM_FIELDS = "custom_fields"
SHOWN_PROBLEMS = 5
"""How many problems an error's message spells out; ``errors`` holds them all."""

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

    Examples:
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


def sendable(fields: Mapping[str, Any], *, none_is_value: bool = False) -> dict[str, Any]:
    """A lead's fields as sent: empty cells left out, dates as ISO 8601, also in ``custom_fields``.

    Args:
        fields: A lead's fields (a record of ``DataFrame.to_dict("records")``).
        none_is_value: Keep ``None`` (an update, where it clears a field).

    Examples:
        >>> sendable({"phone": "+14155550123", "email": float("nan"), "custom_fields": None})
        {'phone': '+14155550123'}
    """
    kept = _sendable(fields, none_is_value)
    custom = kept.get(CUSTOM_FIELDS)
    if isinstance(custom, Mapping):
        kept[CUSTOM_FIELDS] = _sendable(custom, none_is_value)
    return kept


def _sendable(fields: Mapping[str, Any], none_is_value: bool) -> dict[str, Any]:
    return {name: value.isoformat() if isinstance(value, date) else value
            for name, value in fields.items()
            if not is_missing(value) or (none_is_value and value is None)}


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
    """The error for pydantic's ``errors``, with the service's pointers and codes."""
    problems: list[FieldProblem] = []
    hints: list[str] = []
    for error in errors:
        loc = [*at, *error["loc"]]
        detail, hint = _describe(error, loc)
        problems.append(FieldProblem(pointer=json_pointer(loc),
                                     code=field_error_code(error["type"]), detail=detail))
        hints += [] if hint is None else [hint]
    return refusal(problems, hints)


def refusal(problems: Sequence[FieldProblem], hints: Sequence[str] = ()) -> InvalidArgumentError:
    """One error for every problem found: the message spells out the first few, then each
    hint once (what a lead's fields are, how to convert local numbers)."""
    parts = [problem.detail for problem in problems[:SHOWN_PROBLEMS]]
    if len(problems) > SHOWN_PROBLEMS:
        parts.append(f"and {len(problems) - SHOWN_PROBLEMS} more (see .errors)")
    message = " ".join(["; ".join(parts) + ". Nothing was sent.", *dict.fromkeys(hints)])
    return InvalidArgumentError(message, errors=list(problems))


def require_json(value: object, at: Sequence[str | int] = ()) -> None:
    """Refuse what JSON cannot carry in a lead's fields, naming each place.

    A lead's fields take any JSON (the service judges them per lead), so no
    request model would name these precisely.
    """
    problems = json_problems(value, at)
    if problems:
        raise refusal(problems)


def json_problems(value: object, at: Sequence[str | int] = ()) -> list[FieldProblem]:
    """Where ``value`` holds something JSON cannot carry (a lead's fields take any JSON).

    Examples:
        >>> [p.pointer for p in json_problems({"custom_fields": {"at": object()}}, ["leads", 0])]
        ['/leads/0/custom_fields/at']
    """
    if isinstance(value, Mapping):
        return [problem for key, item in value.items()
                for problem in json_problems(item, [*at, str(key)])]
    if isinstance(value, list):
        return [problem for index, item in enumerate(value)
                for problem in json_problems(item, [*at, index])]
    if value is None or isinstance(value, str | int | float | bool):
        return []
    detail = (f"{python_path(at)} is of type {type(value).__name__}, which JSON cannot carry: "
              "pass text, a number or a boolean")
    return [FieldProblem(pointer=json_pointer(at), code="invalid_type", detail=detail)]


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
        from ..._phones._asked import e164_advice  # phonenumbers: only on a refusal

        return f"{where} {shown(value)} is not E.164 ({e164_advice(str(value))})", E164_HINT
    if kind in ("model_type", "dict_type"):
        return f"{where} {shown(value)} must be a dict of fields, not {type(value).__name__}", None
    return f"{where} {shown(value)}: {error['msg'][:1].lower()}{error['msg'][1:]}", None


def python_path(loc: Sequence[str | int]) -> str:
    """A location as the caller wrote it: ``leads[3].custom_fields.plan``.

    Examples:
        >>> python_path(["phones", 0])
        'phones[0]'
    """
    path = ""
    for part in loc:
        path += f"[{part}]" if isinstance(part, int) else f".{part}" if path else str(part)
    return path or "the arguments"
