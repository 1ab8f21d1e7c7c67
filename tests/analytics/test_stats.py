"""The Wilson interval and the two-proportion test against published values."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dialkit.analytics import two_proportion_test, wilson_interval


@pytest.mark.parametrize(("successes", "trials", "low", "high"), [
    (81, 263, 0.2553, 0.3662),  # Newcombe (1998), Statistics in Medicine 17, table II
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
    (20, 20, 0.8389, 1.0),
])
def test_wilson_interval_matches_newcombe(successes: int, trials: int, low: float,
                                          high: float) -> None:
    got = wilson_interval(successes, trials)
    assert (float(got[0]), float(got[1])) == pytest.approx((low, high), abs=5e-5)


def test_wilson_interval_is_element_wise_and_nan_without_trials() -> None:
    low, high = wilson_interval(np.array([1, 0, 5]), np.array([2, 0, 10]))
    assert math.isnan(low[1]) and math.isnan(high[1])
    assert low[2] == pytest.approx(0.2366, abs=5e-5) and high[2] == pytest.approx(0.7634,
                                                                                 abs=5e-5)


def test_two_proportion_test_matches_statsmodels_example() -> None:
    # statsmodels' proportions_ztest(count=[5, 12], nobs=[83, 99]): z -1.408, p 0.159
    test = two_proportion_test(5, 83, 12, 99)
    assert test["z"] == pytest.approx(1.4078, abs=1e-4)  # b - a, so the sign is b's
    assert test["p_value"] == pytest.approx(0.1592, abs=1e-4)
    assert test["difference"] == pytest.approx(12 / 99 - 5 / 83)
    se = math.sqrt(5 / 83 * 78 / 83 / 83 + 12 / 99 * 87 / 99 / 99)
    assert (test["low"], test["high"]) == pytest.approx(
        (test["difference"] - 1.96 * se, test["difference"] + 1.96 * se), abs=1e-4)


def test_two_proportion_test_without_trials_is_nan() -> None:
    test = two_proportion_test(3, 10, 0, 0)
    assert test["rate_a"] == 0.3 and math.isnan(test["rate_b"]) and math.isnan(test["p_value"])
