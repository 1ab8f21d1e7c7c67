"""The Idempotency-Keys of a lead import, derived from its content (the client's
``leads.import_batch`` and the leads' import journal both derive them, so they live below
both): the same batch to the same campaign, the same key; and a refused key's next in a
fixed chain. Which refusals are stored answers to walk past is a question of the service's
answer, so the client answers it (``dialkit.client.stored_refusal``): this module, of the
shared helpers below the contract, imports nothing of dialkit."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

import orjson

MAX_KEY_CHAIN = 20
"""Most keys an import walks through after stored refusals (see :func:`next_import_key`)."""


def import_key(campaign_id: str, body: Mapping[str, Any]) -> str:
    """An Idempotency-Key derived from an import's campaign and content.

    The same leads sent to the same campaign always get the same key, so
    running a notebook cell twice within the key's 24 hours returns the first
    import's answer instead of importing again.
    """
    content = orjson.dumps(body, option=orjson.OPT_SORT_KEYS)
    return key_of(campaign_id.encode() + b"\0" + content)


def next_import_key(key: str) -> str:
    """The key that follows ``key`` once the import under it was refused.

    The service stores a refusal (say 409 ``campaign_not_importable``) under
    its key for 24 hours, so a derived key would keep answering it after the
    cause is fixed. A refused import wrote nothing, so the same batch may go
    again under the next key of a fixed chain; a re-run walks the same chain
    and meets the same stored answers, so the batch is still imported once.
    """
    return key_of(f"{key}/next".encode())


def key_of(material: bytes) -> str:
    """The Idempotency-Key of an import request made of ``material`` (the leads' import
    journal derives its rechecks' keys here too)."""
    return f"dk_import_{hashlib.sha256(material).hexdigest()[:48]}"
