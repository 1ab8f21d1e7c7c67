"""Decoding a request body: JSON, its depth, numbers out of range, and its strings.

orjson decodes almost every body; when it refuses one, the slow path finds out
why, so the answer names the real fault: ``too_deep`` for nesting past the
contract's 20 levels at any size (orjson stops at 1,024 and calls that invalid
JSON), ``out_of_range`` at the pointer of each number no JSON decoder of the
service can hold (an integer outside 64 bits, a float that overflows to
infinity), and ``invalid_json`` for the rest.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

import orjson

from dialkit.contract import MAX_JSON_DEPTH, ErrorCode

from .._problems import ApiProblem, field_error

_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NOT_BRACKETS = bytes(set(range(256)) - set(b"[]{}"))
_INT_RANGE = (-(2**63), 2**64 - 1)
"""Integers orjson (and so the service) holds: signed and unsigned 64 bits."""


class _OutOfRange:
    """Marks a number the slow path read but the service cannot hold."""


_OUT_OF_RANGE = _OutOfRange()


@dataclass(frozen=True, slots=True)
class JsonBody:
    """A decoded body, or why it cannot be: kept until the check order reaches it."""

    value: Any
    problem: ApiProblem | None = None

    def strings(self) -> Iterator[str]:
        """Every string in the body, object keys included, as decoded."""
        stack = [self.value]
        while stack:
            item = stack.pop()
            if isinstance(item, str):
                yield item
            elif isinstance(item, dict):
                yield from item.keys()
                stack.extend(item.values())
            elif isinstance(item, list):
                stack.extend(item)


def decode(body: bytes) -> JsonBody:
    """Decode ``body``; a failure is kept as the problem the service answers for it."""
    try:
        parsed = orjson.loads(body)
    except orjson.JSONDecodeError:
        return _decode_slowly(body)
    if depth(parsed) > MAX_JSON_DEPTH:
        return JsonBody(None, _too_deep())
    return JsonBody(parsed)


def depth(value: Any) -> int:
    """Nesting depth of parsed JSON (a scalar is 0, ``{}`` is 1)."""
    deepest, level = 0, [(value, 0)]
    while level:
        item, d = level.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, d + 1)
            level.extend((child, d + 1) for child in
                         (item.values() if isinstance(item, dict) else item))
    return deepest


def _decode_slowly(body: bytes) -> JsonBody:
    """Why orjson refused ``body``: too deep, numbers out of range, or not JSON."""
    if _bracket_depth(body) > MAX_JSON_DEPTH:
        return JsonBody(None, _too_deep())
    try:
        parsed = json.loads(body.decode("utf-8"), parse_int=_int, parse_float=_float,
                            parse_constant=_refuse_constant)
    except ValueError:  # UnicodeDecodeError and JSONDecodeError included
        parsed = None
    pointers = [] if parsed is None else list(_out_of_range(parsed, ""))
    if not pointers:
        return JsonBody(None, field_error("", "invalid_json",
                                          "The body is not valid JSON in UTF-8."))
    problem = ApiProblem(
        ErrorCode.VALIDATION_FAILED,
        f"The body holds numbers out of range at {', '.join(p or '(body)' for p in pointers)}: "
        "integers must fit "
        "in 64 bits and decimals must be finite doubles.",
        errors=[(pointer, "out_of_range") for pointer in pointers])
    return JsonBody(None, problem)


def _bracket_depth(body: bytes) -> int:
    """The deepest nesting of brackets outside strings, without parsing."""
    brackets = _STRING.sub(b"", body).translate(None, _NOT_BRACKETS)
    steps = (1 if char in b"[{" else -1 for char in brackets)
    return max(accumulate(steps, initial=0))


def _int(text: str) -> int | _OutOfRange:
    # A length check first: int() refuses over 4,300 digits, and costs time before that.
    if len(text) > 21:
        return _OUT_OF_RANGE
    value = int(text)
    return value if _INT_RANGE[0] <= value <= _INT_RANGE[1] else _OUT_OF_RANGE


def _float(text: str) -> float | _OutOfRange:
    value = float(text)
    return value if math.isfinite(value) else _OUT_OF_RANGE


def _refuse_constant(text: str) -> None:
    raise ValueError(f"{text} is not JSON")


def _out_of_range(value: Any, pointer: str) -> Iterator[str]:
    """JSON pointers of the numbers marked out of range (depth is at most 20 here)."""
    if value is _OUT_OF_RANGE:
        yield pointer
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _out_of_range(item, f"{pointer}/{_escape(key)}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _out_of_range(item, f"{pointer}/{index}")


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def _too_deep() -> ApiProblem:
    return field_error("", "too_deep", f"The body nests deeper than {MAX_JSON_DEPTH} levels.")
