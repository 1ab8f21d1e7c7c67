"""Fetching what the funnel needs from an account: leads, calls, callbacks, appointments."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import pandas as pd

if TYPE_CHECKING:
    from ...client import Client


def load(client: Client, *,
         campaign_id: str | Sequence[str] | None = None) -> dict[str, pd.DataFrame]:
    """The frames :func:`funnel` takes, as keyword arguments: ``funnel(**load(client))``.

    Args:
        client: The account.
        campaign_id: One campaign's leads, calls and callbacks only, or several
            campaigns' (a list of ids); appointments carry no campaign: all of them
            come, and the funnel matches them by phone.

    Returns:
        ``leads``, ``calls`` (both directions; the analytics keep what they need),
        ``callbacks`` (of every campaign of the leads and the calls; absent when
        they name no campaign) and ``appointments``.
    """
    leads = client.frames.leads(campaign_id=campaign_id)
    calls = client.frames.calls(campaign_id=campaign_id)
    campaigns = sorted(set(leads["campaign_id"].dropna()) | set(calls["campaign_id"].dropna()))
    callbacks = client.frames.callbacks(campaigns) if campaigns else None
    frames = {"leads": leads, "calls": calls, "appointments": client.frames.appointments()}
    if callbacks is not None:
        frames["callbacks"] = callbacks
    return frames
