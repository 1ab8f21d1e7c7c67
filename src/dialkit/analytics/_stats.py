"""The two statistics the tables quote, written out so no statistics package is needed.

- The Wilson score interval of a proportion: unlike the plain ``p ± z·se`` it
  stays inside [0, 1] and keeps a sensible width for 0 of 3 or 3 of 3, which is
  exactly where an hour × weekday cell with few calls sits.
- The two-proportion z-test (pooled standard error) with the unpooled Wald
  interval of the difference: the textbook pair for "did B answer more often than A".
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike, NDArray

Z95 = 1.959963984540054
"""The standard normal quantile of 0.975: a two-sided 95% interval."""

Floats = NDArray[np.float64]


def wilson_interval(successes: ArrayLike, trials: ArrayLike,
                    z: float = Z95) -> tuple[Floats, Floats]:
    """The Wilson score interval of ``successes`` out of ``trials``, element-wise; exactly
    0 below none and 1 above all, where rounding would put the bound a hair off.

    Args:
        successes: Counts of successes (scalars or arrays).
        trials: Counts of trials, the same shape; a cell of no trials gets NaN.
        z: The normal quantile: 1.96 for 95%.

    Returns:
        The lower and upper bounds, as float arrays.

    Examples:
        >>> low, high = wilson_interval(81, 263)
        >>> round(float(low), 4), round(float(high), 4)
        (0.2553, 0.3662)
    """
    k = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = k / n
        denominator = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denominator
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    empty = n <= 0
    low = np.where(empty, np.nan, np.where(k <= 0, 0.0, np.clip(centre - half, 0.0, 1.0)))
    high = np.where(empty, np.nan, np.where(k >= n, 1.0, np.clip(centre + half, 0.0, 1.0)))
    return low, high


def two_proportion_test(successes_a: int, trials_a: int, successes_b: int, trials_b: int,
                        z: float = Z95) -> dict[str, float]:
    """Whether two proportions differ: the pooled two-proportion z-test.

    Returns:
        ``rate_a``, ``rate_b``, ``difference`` (b - a), ``low`` and ``high`` (the
        unpooled Wald interval of the difference), ``z`` and ``p_value``
        (two-sided); NaN where a side has no trials or nobody and everybody differ.

    Examples:
        >>> round(two_proportion_test(5, 83, 12, 99)["p_value"], 3)
        0.159
    """
    if min(trials_a, trials_b) <= 0:
        nan = math.nan
        return {"rate_a": successes_a / trials_a if trials_a else nan,
                "rate_b": successes_b / trials_b if trials_b else nan,
                "difference": nan, "low": nan, "high": nan, "z": nan, "p_value": nan}
    a, b = successes_a / trials_a, successes_b / trials_b
    pooled = (successes_a + successes_b) / (trials_a + trials_b)
    se_pooled = math.sqrt(pooled * (1 - pooled) * (1 / trials_a + 1 / trials_b))
    se = math.sqrt(a * (1 - a) / trials_a + b * (1 - b) / trials_b)
    statistic = (b - a) / se_pooled if se_pooled else math.nan
    p_value = math.erfc(abs(statistic) / math.sqrt(2)) if se_pooled else math.nan
    return {"rate_a": a, "rate_b": b, "difference": b - a, "low": b - a - z * se,
            "high": b - a + z * se, "z": statistic, "p_value": p_value}
