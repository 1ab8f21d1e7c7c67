"""Reading successful answers: anything unusable becomes MalformedResponseError.

A 200 whose body is truncated, HTML, ``null`` or of another shape than the
contract's must not escape as a decoder's or pydantic's exception: callers
catch :class:`~dialkit.errors.ApiError`. The message names the operation, the
status and the request id, and says what was wrong without quoting the body's
values (they may hold personal data).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import orjson
import pydantic

from ...errors import MalformedResponseError
from ._transport import Answer

Parsed = TypeVar("Parsed")

_SHOWN_PROBLEMS = 3
"""How many of pydantic's complaints a message repeats."""


def decode(answer: Answer, parse: Callable[[bytes], Parsed]) -> Parsed:
    """``parse(answer.content)``, or MalformedResponseError when it fails."""
    try:
        return parse(answer.content)
    except (ValueError, TypeError) as exc:  # orjson's and pydantic's errors are ValueErrors
        raise malformed(answer, _what(exc)) from None


def json_object(content: bytes) -> dict[str, Any]:
    """The answer as a JSON object; anything else raises ``TypeError``."""
    data = orjson.loads(content) if content else {}
    if not isinstance(data, dict):
        raise TypeError(f"expected a JSON object, got {_json_type(data)}")
    return data


def malformed(answer: Answer, what: str) -> MalformedResponseError:
    """The error for ``answer``, unusable because of ``what``."""
    return MalformedResponseError(
        f"the service's {answer.info.status_code} answer cannot be used: {what}.",
        operation=answer.operation, status=answer.info.status_code,
        request_id=answer.info.request_id)


def _what(exc: Exception) -> str:
    if isinstance(exc, pydantic.ValidationError):
        problems = [
            f"{'.'.join(str(part) for part in error['loc']) or '(body)'}: {error['msg']}"
            for error in exc.errors(include_url=False, include_input=False)
        ]
        more = len(problems) - _SHOWN_PROBLEMS
        shown = "; ".join(problems[:_SHOWN_PROBLEMS]) + (f"; and {more} more" if more > 0 else "")
        return f"its JSON is not the contract's shape ({shown})"
    if isinstance(exc, orjson.JSONDecodeError):
        return f"it is not JSON ({exc})"
    return str(exc)


def _json_type(value: object) -> str:
    names = {type(None): "null", bool: "a boolean", int: "a number", float: "a number",
             str: "a string", list: "an array"}
    return names.get(type(value), type(value).__name__)
