"""Typed ids: a type prefix plus a lower-case canonical UUID.

The contract types every id (``lead_`` + UUID, ``cmp_`` + UUID, ...). Each
alias below is a plain ``str`` at runtime, but a pydantic field annotated with
it refuses any other form with an error that names the expected one, and its
JSON schema carries the matching ``pattern``.

Examples:
    >>> from pydantic import TypeAdapter
    >>> TypeAdapter(LeadId).validate_python(
    ...     "lead_123e4567-e89b-42d3-a456-426614174000"
    ... )
    'lead_123e4567-e89b-42d3-a456-426614174000'
"""

import re
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType
from typing import Annotated, Any

from pydantic import GetCoreSchemaHandler, GetJsonSchemaHandler
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import PydanticCustomError, core_schema

_UUID_PATTERN = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
_EXAMPLE_UUID = "123e4567-e89b-42d3-a456-426614174000"

ID_PREFIXES: Mapping[str, str] = MappingProxyType(
    {
        "lead": "lead_",
        "call": "call_",
        "campaign": "cmp_",
        "callback": "cb_",
        "appointment": "appt_",
        "webhook_endpoint": "wh_",
        "webhook_event": "evt_",
        "webhook_delivery": "whd_",
        "api_client": "cli_",
        "message": "msg_",
        "consent": "cns_",
    }
)
"""Id prefix by resource type, as in the contract's table of typed ids."""


def id_pattern(prefix: str) -> str:
    """Return the anchored regular expression for ids with ``prefix``.

    Args:
        prefix: An id prefix including its underscore, e.g. ``"lead_"``.

    Returns:
        A pattern usable both by :mod:`re` and in a JSON schema.

    Examples:
        >>> id_pattern("cb_")[:8]
        '^cb_[0-9'
    """
    return f"^{re.escape(prefix)}{_UUID_PATTERN}$"


def is_valid_id(prefix: str, value: str) -> bool:
    """Tell whether ``value`` is ``prefix`` followed by a lower-case UUID.

    Examples:
        >>> is_valid_id("cmp_", "cmp_123e4567-e89b-42d3-a456-426614174000")
        True
        >>> is_valid_id("cmp_", "cmp_123E4567-E89B-42D3-A456-426614174000")
        False
    """
    return _id_regex(prefix).fullmatch(value) is not None


@cache
def _id_regex(prefix: str) -> re.Pattern[str]:
    """The compiled pattern of a prefix: ids are checked on every item of every page."""
    return re.compile(id_pattern(prefix))


def new_id(prefix: str) -> str:
    """Mint a fresh id of the type named by ``prefix`` from a random UUID.

    Args:
        prefix: One of the values of :data:`ID_PREFIXES`, e.g. ``"evt_"``.

    Raises:
        ValueError: If ``prefix`` is not a contract id prefix.

    Examples:
        >>> new_id("lead_").startswith("lead_")
        True
    """
    if prefix not in ID_PREFIXES.values():
        known = ", ".join(sorted(ID_PREFIXES.values()))
        raise ValueError(f"unknown id prefix {prefix!r}; pass one of: {known}")
    return f"{prefix}{uuid.uuid4()}"


@dataclass(frozen=True, slots=True)
class TypedId:
    """``Annotated`` marker that makes a ``str`` field a typed id.

    Attributes:
        prefix: The required prefix, including its underscore.
    """

    prefix: str

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        """Validate as ``str`` first, then check prefix and UUID form."""
        return core_schema.no_info_after_validator_function(self._check, handler(source))

    def __get_pydantic_json_schema__(
        self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        """Publish the id form as a JSON schema ``pattern``."""
        json_schema = handler(schema)
        json_schema["pattern"] = id_pattern(self.prefix)
        return json_schema

    def _check(self, value: str) -> str:
        if not is_valid_id(self.prefix, value):
            raise PydanticCustomError(
                "invalid_typed_id",
                "Expected '{prefix}' followed by a lower-case UUID "
                "(8-4-4-4-12 hex digits), e.g. '{example}'",
                {"prefix": self.prefix, "example": self.prefix + _EXAMPLE_UUID},
            )
        return value


LeadId = Annotated[str, TypedId(ID_PREFIXES["lead"])]
"""The id of a lead: its prefix and a lower-case UUID, checked by pydantic."""
CallId = Annotated[str, TypedId(ID_PREFIXES["call"])]
"""The id of a call: its prefix and a lower-case UUID, checked by pydantic."""
CampaignId = Annotated[str, TypedId(ID_PREFIXES["campaign"])]
"""The id of a campaign: its prefix and a lower-case UUID, checked by pydantic."""
CallbackId = Annotated[str, TypedId(ID_PREFIXES["callback"])]
"""The id of a callback: its prefix and a lower-case UUID, checked by pydantic."""
AppointmentId = Annotated[str, TypedId(ID_PREFIXES["appointment"])]
"""The id of an appointment: its prefix and a lower-case UUID, checked by pydantic."""
WebhookEndpointId = Annotated[str, TypedId(ID_PREFIXES["webhook_endpoint"])]
"""The id of a webhook endpoint: its prefix and a lower-case UUID, checked by pydantic."""
WebhookEventId = Annotated[str, TypedId(ID_PREFIXES["webhook_event"])]
"""The id of a webhook event: its prefix and a lower-case UUID, checked by pydantic."""
WebhookDeliveryId = Annotated[str, TypedId(ID_PREFIXES["webhook_delivery"])]
"""The id of a webhook delivery: its prefix and a lower-case UUID, checked by pydantic."""
ApiClientId = Annotated[str, TypedId(ID_PREFIXES["api_client"])]
"""The id of an API client: its prefix and a lower-case UUID, checked by pydantic."""
MessageId = Annotated[str, TypedId(ID_PREFIXES["message"])]
"""The id of an SMS or WhatsApp message: its prefix and a lower-case UUID, checked by pydantic."""
ConsentId = Annotated[str, TypedId(ID_PREFIXES["consent"])]
"""The id of a consent record: its prefix and a lower-case UUID, checked by pydantic."""
