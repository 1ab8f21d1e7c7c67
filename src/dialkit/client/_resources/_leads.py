"""``client.leads``: read, add, update and import leads."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Unpack

from ..._utils._import_keys import MAX_KEY_CHAIN, import_key, next_import_key
from ...contract import (
    MAX_PAGE_LIMIT,
    Lead,
    LeadCreated,
    LeadInput,
    LeadStatus,
    LeadUpdateRequest,
)
from ...errors import ApiError
from .._http._arguments import require_json, sendable
from .._http._pagination import ListIterator
from .._http._results import ApiData, ImportResult
from .._http._retry import stored_refusal
from .._http._transport import Call
from ._base import UNSET, Area, Options, Unset, WriteOptions, request_body
from ._lead_bodies import create_body, import_body


def batch_key(campaign_id: str, leads: Sequence[LeadInput | Mapping[str, Any]]) -> str:
    """The Idempotency-Key :meth:`Leads.import_batch` derives for ``leads`` (before any
    refusal moves it along the chain of :func:`next_import_key`): a journal can
    record it before the batch is sent."""
    return import_key(campaign_id, import_body(leads))


class Leads(Area):
    """Leads (contacts): ``GET/POST /v1/leads``, ``PATCH /v1/leads/{lead_id}``, import."""

    def list(
        self,
        *,
        campaign_id: str | None = None,
        status: LeadStatus | str | None = None,
        external_id: str | None = None,
        limit: int = MAX_PAGE_LIMIT,
        cursor: str | None = None,
        **options: Unpack[Options],
    ) -> ListIterator[Lead]:
        """Every lead, newest first, lazily across pages (scope ``leads:read``).

        ``external_id`` matches only this API client's own ids.

        Examples:
            >>> client = dialkit.Client.sandbox()
            >>> new = [lead.phone for lead in client.leads.list(status="new")]
            >>> len(new) > 0, new[0].startswith("+")
            (True, True)
            >>> client.close()
        """
        filters = {"campaign_id": campaign_id, "status": status, "external_id": external_id}
        return self._list(Lead, "leads.list", filters, limit=limit, cursor=cursor, options=options)

    def get(self, lead_id: str, **options: Unpack[Options]) -> Lead:
        """One lead; its ``etag`` can be passed to :meth:`update` as ``if_match``."""
        return self._model(Lead, Call("leads.get", {"lead_id": lead_id}, **options))

    def history(self, lead_id: str, **options: Unpack[Options]) -> ApiData:
        """The lead's history (shape not shown by the contract: plain data)."""
        return self._data(Call("leads.history", {"lead_id": lead_id}, **options))

    def create(
        self,
        *,
        campaign_id: str,
        phone: str,
        external_id: str | None = None,
        first_name: str | None = None,
        last_name: str | None = None,
        full_name: str | None = None,
        email: str | None = None,
        custom_fields: Mapping[str, Any] | None = None,
        source: str | None = None,
        dial_now: bool | None = None,
        dial_within_seconds: int | None = None,
        override: str | None = None,
        **options: Unpack[WriteOptions],
    ) -> LeadCreated:
        """Add one lead to a campaign, optionally to be dialled first (``dial_now``).

        The answer says whether it was accepted (``status``, ``reason``) and
        what became of ``dial_now``. As in an import, the lead's fields are
        judged by the service: no phone, an invalid phone or a bad email is an
        ``invalid`` answer with its reason, not an error; only the options
        (``campaign_id``, ``source``, ``dial_now``, ``dial_within_seconds``)
        are checked here. Empty cells (NaN, ``None``, ``pd.NA``, ``pd.NaT``)
        are not sent, so a record of ``DataFrame.to_dict("records")`` can be
        passed as ``**record``. A running campaign or ``dial_now`` also needs
        scope ``calls:originate`` and the click-to-call switch. With ``dial_now`` the
        client's guard judges the number at the service's now first, as a call
        (``ContactForbiddenError`` unless ``override="reason"``).
        """
        body = create_body({
            "campaign_id": campaign_id, "phone": phone, "external_id": external_id,
            "first_name": first_name, "last_name": last_name, "full_name": full_name,
            "email": email, "custom_fields": custom_fields, "source": source,
            "dial_now": dial_now, "dial_within_seconds": dial_within_seconds,
        })
        return self._model(LeadCreated, Call("leads.create", body=body, **options),
                           override=override)

    def update(
        self,
        lead_id: str,
        *,
        full_name: str | None | Unset = UNSET,
        email: str | None | Unset = UNSET,
        custom_fields: Mapping[str, Any] | None | Unset = UNSET,
        if_match: str | None = None,
        **options: Unpack[WriteOptions],
    ) -> Lead:
        """Change a lead's name, email or custom fields; the phone never changes.

        ``None`` clears ``full_name`` or ``email``; in ``custom_fields`` a key
        set to ``None`` is removed and keys not sent are kept. An empty cell
        (NaN, ``pd.NA``, ``pd.NaT``) is not sent, so that field or key keeps
        its value. ``if_match`` (a lead's ``etag``) refuses the change with
        412 if the lead changed.
        """
        fields = sendable({"full_name": full_name, "email": email,
                           "custom_fields": custom_fields}, none_is_value=True)
        if isinstance(custom_fields, Mapping):
            require_json(fields["custom_fields"], ["custom_fields"])
        body = request_body(LeadUpdateRequest, omit=UNSET, **fields)
        call = Call("leads.update", {"lead_id": lead_id}, body=body, if_match=if_match, **options)
        return self._model(Lead, call)

    def import_batch(
        self,
        campaign_id: str,
        leads: Sequence[LeadInput | Mapping[str, Any]],
        **options: Unpack[WriteOptions],
    ) -> ImportResult:
        """Import up to 200 leads into a draft, ready or paused campaign.

        The answer holds one :class:`~dialkit.contract.LeadResult` per input
        lead in ``.data``, by 0-based ``index``; iterating the answer walks
        them, and ``.to_frame()`` gives them as a DataFrame. Each lead is
        judged by the service: a lead with no phone, an invalid phone or a bad
        email gets its own ``invalid`` result, and only the request's shape
        (no leads, more than 200, a field the contract does not know) refuses
        the batch, raised here before sending as
        :class:`~dialkit.errors.InvalidArgumentError`. A lead is a dict or a
        :class:`~dialkit.contract.LeadInput`; empty cells (NaN, ``None``,
        ``pd.NA``, ``pd.NaT``) are not sent, so ``df.to_dict("records")``
        can be passed as it comes. Unless ``idempotency_key`` is given, the
        key is derived from the campaign and the leads, so the same batch is
        never imported twice: a repeat within 24 hours returns the first
        answer (``replayed`` is true). A batch the service refused (a paused
        campaign that was running, a scope granted since) goes again under
        the next key of a fixed chain, see :func:`next_import_key`.

        Examples:
            >>> import dialkit
            >>> client = dialkit.Client.sandbox()
            >>> campaign = next(client.campaigns.list(status="paused"))
            >>> result = client.leads.import_batch(
            ...     campaign.id, [{"phone": "+14155550123", "full_name": "Ada Lovelace"}])
            >>> result.summary.accepted, [str(lead.status) for lead in result]
            (1, ['accepted'])
            >>> client.close()
        """
        body = import_body(leads)
        if "idempotency_key" in options:
            return self._import(campaign_id, body, options)
        options["idempotency_key"] = import_key(campaign_id, body)
        for link in range(MAX_KEY_CHAIN):
            try:
                return self._import(campaign_id, body, options)
            except ApiError as error:
                if not stored_refusal(error) or link == MAX_KEY_CHAIN - 1:
                    raise
                options["idempotency_key"] = next_import_key(options["idempotency_key"])
        raise AssertionError("unreachable: the last link returns or raises")

    def _import(self, campaign_id: str, body: dict[str, Any],
                options: WriteOptions) -> ImportResult:
        call = Call("leads.import", params={"campaign_id": campaign_id}, body=body, **options)
        return self._model(ImportResult, call)
