"""Opaque, signed pagination cursors.

A cursor carries the sort key of the last item of a page, the list it belongs
to, a digest of the filters, the data set (so the account and the API client)
and an expiry, all signed with HMAC-SHA256. Any alteration, another list,
other filters, another client or an expired cursor answers 400
``invalid_cursor``; the client cannot tell these apart, as the contract wants.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Mapping
from typing import Any

import orjson

from dialkit.contract import MAX_CURSOR_LENGTH, ErrorCode

from .._problems import ApiProblem

CURSOR_TTL_SECONDS = 24 * 3600


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _filters_digest(filters: Mapping[str, object]) -> str:
    canonical = orjson.dumps({k: v for k, v in filters.items() if v is not None},
                             option=orjson.OPT_SORT_KEYS)
    return _b64(hashlib.sha256(canonical).digest()[:9])


class CursorCodec:
    """Makes and reads cursors under one secret."""

    def __init__(self, secret: bytes) -> None:
        self._secret = secret

    def _sign(self, text: str) -> str:
        """Signs the encoded text itself, so no two texts share a signature."""
        return _b64(hmac.new(self._secret, text.encode("ascii"), hashlib.sha256).digest()[:18])

    def encode(self, *, listing: str, dataset: str, filters: Mapping[str, object],
               position: list[Any], now: float) -> str:
        """A cursor that resumes ``listing`` after ``position``."""
        payload = {"l": listing, "d": dataset, "f": _filters_digest(filters), "p": position,
                   "e": int(now) + CURSOR_TTL_SECONDS}
        text = _b64(orjson.dumps(payload))
        cursor = f"{text}.{self._sign(text)}"
        if len(cursor) > MAX_CURSOR_LENGTH:
            raise ValueError("cursor longer than the contract allows")
        return cursor

    def decode(self, cursor: str, *, listing: str, dataset: str,
               filters: Mapping[str, object], now: float) -> list[Any]:
        """The position stored in ``cursor``, or 400 ``invalid_cursor``."""
        try:
            text, signature = cursor.split(".")
            valid = hmac.compare_digest(signature.encode(), self._sign(text).encode())
            payload = orjson.loads(_unb64(text)) if valid else None
        except (ValueError, UnicodeEncodeError):
            payload = None
        if (
            not isinstance(payload, dict)
            or payload.get("l") != listing
            or payload.get("d") != dataset
            or payload.get("f") != _filters_digest(filters)
            or not isinstance(payload.get("e"), int)
            or payload["e"] < now
            or not isinstance(payload.get("p"), list)
        ):
            raise ApiProblem(
                ErrorCode.INVALID_CURSOR,
                "The cursor is not valid for this list: it was altered, belongs to another "
                "list or other filters, or expired. Start again without a cursor.",
                errors=[("/query/cursor", "invalid")],
            )
        position: list[Any] = payload["p"]
        return position
