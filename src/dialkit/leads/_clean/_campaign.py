"""The campaign a lead file is for: read before anything is checked or sent.

A mistyped campaign id, or a campaign that is running, used to surface only
when the first batch was refused, after the file had been cleaned against
it. :func:`check_campaign` reads the campaign first and refuses with the
account's campaigns that can take leads; :func:`campaigns` lists them, with
their lead counts (from each campaign's progress, never by reading every lead),
for a notebook or ``dialkit campaigns list``.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Unpack

import pandas as pd

from dialkit._utils import _tuning
from dialkit.contract import IMPORTABLE_STATUSES, CampaignStatus
from dialkit.errors import NotFoundError, PermissionDeniedError

from ..._utils._base_error import CampaignError

if TYPE_CHECKING:
    from dialkit.client import Client
    from dialkit.frames import FrameOptions

LISTED_MAX = 20
"""Campaigns named in a refusal at most; the rest are counted."""


_ALLOWED = f"{', '.join(IMPORTABLE_STATUSES[:-1])} or {IMPORTABLE_STATUSES[-1]}"


def not_importable(campaign_id: str, status: str) -> str:
    """Why a campaign in ``status`` takes no leads and what to do: the one wording of
    the check at clean time and of an import the service stopped with
    ``campaign_not_importable``. Only a running campaign can be made to take them
    (by pausing it); the caller adds what follows."""
    advice = "pause it" if status == CampaignStatus.RUNNING else "choose another campaign"
    return (f"campaign {campaign_id} is {status}, and leads can go only into a {_ALLOWED} "
            f"campaign: {advice}")


def check_campaign(client: Client, campaign_id: str) -> None:
    """Refuse a campaign that is not the account's or cannot take leads.

    A key that may not read campaigns (403) is let through: it may still import,
    and the service's answer to the import decides.

    Raises:
        CampaignError: The campaign is unknown or not in an importable state; the
            message lists the account's campaigns that can take leads.
    """
    try:
        status = str(client.campaigns.get(campaign_id).status.value)
    except NotFoundError:
        raise CampaignError(f"campaign {campaign_id!r} is not a campaign of this account. "
                            f"{_choices(client)}", campaign_id=campaign_id, status=None) from None
    except PermissionDeniedError:
        return
    if status in IMPORTABLE_STATUSES:
        return
    if status == CampaignStatus.RUNNING:
        message = f"{not_importable(campaign_id, status)}, then run it again."
    else:
        message = f"{not_importable(campaign_id, status)}. {_choices(client)}"
    raise CampaignError(message, campaign_id=campaign_id, status=status)


def _choices(client: Client) -> str:
    """The account's campaigns that can take leads, one per line (id, name, status)."""
    found = [c for c in client.campaigns.list() if c.status in IMPORTABLE_STATUSES]
    if not found:
        return f"The account has no {_ALLOWED} campaign to take leads."
    lines = [f"  {c.id}  {c.name} ({c.status.value})" for c in found[:LISTED_MAX]]
    if len(found) > LISTED_MAX:
        lines.append(f"  and {len(found) - LISTED_MAX} more (dialkit campaigns list)")
    return "Campaigns that can take leads:\n" + "\n".join(lines)


def campaigns(client: Client, *, count_leads: bool = False,
              **options: Unpack[FrameOptions]) -> pd.DataFrame:
    """The account's campaigns with how many leads each holds, to choose where a lead
    file goes.

    The contract's campaign has no lead count; each campaign's progress
    (``client.campaigns.progress``) gives it as ``leads.total`` where the service's
    answer has one (the emulator's does; the contract does not show the shape). So
    the listing costs a request per campaign, however many leads they hold: after a
    2,000,000-lead import, counting them from the lead list took 23 minutes.

    Args:
        client: The account.
        count_leads: Count the leads of campaigns whose progress gives no total
            from the account's lead list instead (``client.frames.leads``: a
            request per 100 leads, with a progress bar); without it their count
            is missing (``<NA>``).
        **options: ``refresh``, ``max_age`` and ``progress``, as for ``client.frames``.

    Returns:
        One row per campaign, archived ones excepted, newest first: ``id``,
        ``name``, ``status`` and ``leads`` (``Int64``); ``importable`` says whether
        it takes leads now (draft, ready or paused).

    Examples:
        >>> import dialkit.leads
        >>> client = dialkit.Client.sandbox()
        >>> table = dialkit.leads.campaigns(client)
        >>> table.columns.tolist()
        ['id', 'name', 'status', 'leads', 'importable']
        >>> sorted(table.loc[table["importable"], "status"].unique())
        ['draft', 'paused', 'ready']
        >>> client.close()
    """
    shown = client.frames.campaigns(**options)[["id", "name", "status"]].copy()
    shown["leads"] = pd.array(_lead_totals(client, shown["id"].tolist()), dtype="Int64")
    missing = shown["leads"].isna()
    if count_leads and missing.any():
        counted = client.frames.leads(**options)["campaign_id"].value_counts()
        shown.loc[missing, "leads"] = shown.loc[missing, "id"].map(counted).fillna(0)
    shown["importable"] = shown["status"].isin([s.value for s in IMPORTABLE_STATUSES])
    return shown.reset_index(drop=True)


def _lead_totals(client: Client, ids: list[str]) -> list[int | None]:
    """Each campaign's ``leads.total`` from its progress, fetched a few at once (the
    key's rate limiter sets the pace); ``None`` where the answer has none, or the
    campaign went (archived) since it was listed."""
    with ThreadPoolExecutor(max(1, min(_tuning.REQUESTS_AT_ONCE, len(ids)))) as pool:
        return list(pool.map(lambda campaign_id: _lead_total(client, campaign_id), ids))


def _lead_total(client: Client, campaign_id: str) -> int | None:
    try:
        leads = client.campaigns.progress(campaign_id).get("leads")
    except NotFoundError:
        return None
    total = leads.get("total") if isinstance(leads, dict) else None
    return total if isinstance(total, int) and not isinstance(total, bool) else None
