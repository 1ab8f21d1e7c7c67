"""``client.campaigns``: read, pause and resume campaigns."""

from __future__ import annotations

from typing import Unpack

from ...contract import MAX_PAGE_LIMIT, Campaign, CampaignStatus
from .._http._pagination import ListIterator
from .._http._results import ApiData
from .._http._transport import Call
from ._base import Area, Options, WriteOptions


class Campaigns(Area):
    """Campaigns: ``/v1/campaigns``. Creating campaigns is not offered by the API."""

    def list(
        self,
        *,
        status: CampaignStatus | str | None = None,
        limit: int = MAX_PAGE_LIMIT,
        cursor: str | None = None,
        **options: Unpack[Options],
    ) -> ListIterator[Campaign]:
        """Every campaign, archived ones excepted, lazily across pages."""
        return self._list(Campaign, "campaigns.list", {"status": status}, limit=limit,
                          cursor=cursor, options=options)

    def get(self, campaign_id: str, **options: Unpack[Options]) -> Campaign:
        """One campaign."""
        return self._model(Campaign, Call("campaigns.get", {"campaign_id": campaign_id}, **options))

    def progress(self, campaign_id: str, **options: Unpack[Options]) -> ApiData:
        """Progress counts of a campaign (shape not shown by the contract: plain data)."""
        return self._data(Call("campaigns.progress", {"campaign_id": campaign_id}, **options))

    def pause(self, campaign_id: str, **options: Unpack[WriteOptions]) -> Campaign:
        """Pause a running campaign; pausing a paused one changes nothing.

        Raises:
            ConflictError: ``campaign_not_running`` for any other state.
        """
        call = Call("campaigns.pause", {"campaign_id": campaign_id}, body={}, **options)
        return self._model(Campaign, call)

    def resume(self, campaign_id: str, *, override: str | None = None,
               **options: Unpack[WriteOptions]) -> Campaign:
        """Resume a paused campaign: real calls start (tier 2, ``campaigns:resume``).

        The client's guard first judges the campaign's diallable leads at the service's
        now (``client.guard.resumes[-1]`` says how many the law forbids and when they
        open); where more than half are forbidden it raises
        :class:`~dialkit.errors.ContactForbiddenError` unless ``override="reason"``.

        Raises:
            ConflictError: ``campaign_not_paused``, or ``registry_stale_blocked``
                when a national do-not-call list is outdated.
        """
        call = Call("campaigns.resume", {"campaign_id": campaign_id}, body={}, **options)
        return self._model(Campaign, call, override=override)
