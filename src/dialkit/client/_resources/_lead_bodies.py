"""Lead bodies as the service takes them: per-lead problems are the service's to answer.

The contract answers a lead with no phone, a blank or invalid phone, or a
field over its limit with its own result (``invalid`` with ``missing_phone``,
``invalid_phone`` or ``field_rule``); only the request's shape refuses the
whole batch. So the client checks the body against the contract's shape
models (:class:`~dialkit.contract.LeadImportBody`,
:class:`~dialkit.contract.LeadCreateBody`), the ones the emulator parses
requests with, and sends every lead's values for the service to judge.

Records go as they come: empty cells (NaN, ``None``, ``pd.NA``, ``pd.NaT``)
are not sent and dates are sent as ISO 8601 (see
:func:`~dialkit.client._http._arguments.sendable`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...contract import MAX_IMPORT_BATCH, ErrorCode, LeadCreateBody, LeadImportBody, LeadInput
from ...errors import FieldProblem, InvalidArgumentError
from .._http._arguments import refusal, require_json, sendable
from ._base import request_body


def import_body(leads: Sequence[LeadInput | Mapping[str, Any]]) -> dict[str, Any]:
    """The body of an import, refused here only where the service would refuse it whole.

    The shape is checked first and the batch size second, in the service's
    order, so the error is the one the service would answer.
    """
    _require_a_list(leads)
    items = [_lead(lead) for lead in leads]
    require_json(items, ["leads"])
    body = request_body(LeadImportBody, leads=items)
    if len(items) > MAX_IMPORT_BATCH:
        raise InvalidArgumentError(
            f"leads holds {len(items)} leads; an import takes at most {MAX_IMPORT_BATCH}: "
            f"split the list into batches of {MAX_IMPORT_BATCH}. Nothing was sent.",
            code=ErrorCode.BATCH_TOO_LARGE)
    return body


def create_body(fields: Mapping[str, Any]) -> dict[str, Any]:
    """The body of a single add: its options checked, the lead's fields left to the service."""
    sent = sendable(fields)
    require_json(sent)
    return request_body(LeadCreateBody, **sent)


def _require_a_list(leads: object) -> None:
    """Refuse one lead, a whole DataFrame or a string given as ``leads``, saying what to pass."""
    if hasattr(leads, "to_dict") and hasattr(leads, "columns"):
        advice = "a DataFrame: pass its rows as leads.to_dict('records')"
    elif isinstance(leads, Mapping | LeadInput):
        advice = "one lead: pass a list of leads, such as [lead]"
    elif isinstance(leads, str | bytes) or not isinstance(leads, Sequence):
        advice = f"a {type(leads).__name__}: pass a list of leads (dicts)"
    else:
        return
    raise refusal([FieldProblem(pointer="/leads", code="invalid_type",
                                detail=f"leads is {advice}")])


def _lead(lead: object) -> object:
    """A lead's fields as sent; anything but a lead as given, for the shape check to name."""
    if isinstance(lead, LeadInput):
        return sendable(lead.model_dump(exclude_unset=True))
    if isinstance(lead, Mapping):
        return sendable(lead)
    return lead
