"""``compare``: two campaigns or two periods side by side, with a test of each difference."""

from __future__ import annotations

from collections.abc import Collection

import pandas as pd

from ._inputs._inputs import POSITIVE, answered, outbound, positive_calls
from ._stats import Z95, two_proportion_test


def compare(frame_a: pd.DataFrame, frame_b: pd.DataFrame, *,
            positive: Collection[str] = POSITIVE, z: float = Z95) -> pd.DataFrame:
    """The answer and conversion rates of two sets of calls, their difference, and whether
    it is more than chance (a two-proportion z-test).

    Pass the calls of each side: two campaigns
    (``calls[calls.campaign_id == a]``) or two periods
    (``calls[calls.created_at < cut]``). Only outbound calls count.

    Args:
        frame_a: The first calls (``client.frames.calls()`` columns).
        frame_b: The second calls.
        positive: The disposition codes that are a conversion.
        z: The normal quantile of the difference's interval: 1.96 for 95%.

    Returns:
        One row per metric: ``answer_rate`` (answered of the outbound calls) and
        ``conversion_rate`` (calls with a ``positive`` disposition, of the answered
        ones). Columns ``metric``, ``successes_a``, ``trials_a``, ``rate_a``, the
        same for b, ``difference`` (b - a), ``low`` and ``high`` (its interval),
        ``z`` and ``p_value`` (two-sided).

    Examples:
        >>> client = dialkit.Client.sandbox()
        >>> calls = client.frames.calls()
        >>> table = compare(calls[calls.created_at < "2026-10-28"],
        ...                 calls[calls.created_at >= "2026-10-28"])
        >>> table["metric"].tolist(), bool((table["trials_a"] > 0).all())
        (['answer_rate', 'conversion_rate'], True)
        >>> client.close()
    """
    sides = [_counts(frame, positive) for frame in (frame_a, frame_b)]
    rows = []
    for metric in ("answer_rate", "conversion_rate"):
        (hits_a, tries_a), (hits_b, tries_b) = (side[metric] for side in sides)
        test = two_proportion_test(hits_a, tries_a, hits_b, tries_b, z)
        rows.append({"metric": metric, "successes_a": hits_a, "trials_a": tries_a,
                     "rate_a": test["rate_a"], "successes_b": hits_b, "trials_b": tries_b,
                     "rate_b": test["rate_b"], "difference": test["difference"],
                     "low": test["low"], "high": test["high"], "z": test["z"],
                     "p_value": test["p_value"]})
    return pd.DataFrame(rows)


def _counts(calls: pd.DataFrame, positive: Collection[str]) -> dict[str, tuple[int, int]]:
    """Successes and trials of each metric."""
    frame = outbound(calls, ("answered_at", "disposition"))
    picked = answered(frame)
    converted = positive_calls(frame, positive) & picked
    return {"answer_rate": (int(picked.sum()), len(frame)),
            "conversion_rate": (int(converted.sum()), int(picked.sum()))}
