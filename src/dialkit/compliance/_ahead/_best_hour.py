"""The best lawful hour: among the moments the law allows within a horizon, the
one the account's own calls say is most likely to be answered.

The rates are the account's answer rates by the recipient's local hour and weekday
(``dialkit.analytics.answer_rates``'s answer, taken as data: compliance does not import
analytics). A cell of few calls says little, so each cell's rate is shrunk toward the
overall rate by empirical-Bayes beta-binomial shrinkage (:func:`shrunk`). The moments
looked at are the number's next allowed moment and each whole hour on its first zone's
clock after it (the zone the rates are read in), each judged by the hours of the place
called in every zone (:func:`._hours.allows`, the audit's own judge). Past a number's
next allowed moment no cap of past calls forbids it again (a past call only leaves a
cap's period as time goes on), and a listed number has no next allowed moment, so the
hours alone judge the later moments.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from ..._places._localtime import first_zones, local_times, zone_info
from ..._utils._base_error import AuditInputError
from .._checks._findings import written
from .._checks._hours import allows
from .._rules._rules import Rules

MIN_PRIOR_WEIGHT, MAX_PRIOR_WEIGHT = 1.0, 1000.0
"""The bounds of the prior's weight, in calls: at most as strong as a thousand calls
(the cells' rates differ by no more than chance: every cell is the overall rate), at
least as strong as one."""
BEST_COLUMNS = ("best_at", "best_local_time", "best_rate", "next_rate")
"""The columns ``next_allowed(..., prefer=rates)`` adds."""
_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_HOUR = np.timedelta64(3600, "s")


def shrunk(rates: pd.DataFrame) -> NDArray[np.float64]:
    """Each (weekday, local hour) cell's expected answer rate, Monday first: a 7 x 24 table.

    With ``n`` calls and ``a`` answered in a cell, ``p0`` the overall rate and ``m`` the
    prior's weight, the cell's rate is ``(a + m * p0) / (n + m)``: the posterior mean
    under a Beta(``m * p0``, ``m * (1 - p0)``) prior. ``m`` is estimated from the cells
    by the method of moments: the spread of the cells' rates beyond chance,
    ``tau2 = (S - (k - 1) * p0 * (1 - p0)) / (N - sum(n ** 2) / N)`` with
    ``S = sum(n * (a / n - p0) ** 2)`` over the ``k`` cells of ``N`` calls, gives
    ``m = p0 * (1 - p0) / tau2 - 1``, kept within :data:`MIN_PRIOR_WEIGHT` and
    :data:`MAX_PRIOR_WEIGHT` (no spread beyond chance: the maximum). A cell without
    calls is the overall rate.
    """
    calls, answered = _cells(rates)
    total = calls.sum()
    if total <= 0:
        raise AuditInputError("prefer= holds no calls in any hour: pass "
                              "dialkit.analytics.answer_rates(calls) of calls made")
    overall = answered.sum() / total
    weight = _prior_weight(calls, answered, overall)
    table: NDArray[np.float64] = (answered + weight * overall) / (calls + weight)
    return table


def _cells(rates: pd.DataFrame) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The calls and answered calls of ``rates`` summed into 7 x 24 cells (cells of no
    known hour, a number of no known zone, are left out)."""
    needed = ("weekday", "local_hour", "calls", "answered")
    if not isinstance(rates, pd.DataFrame) or any(c not in rates for c in needed):
        shown = list(rates.columns) if isinstance(rates, pd.DataFrame) else type(rates).__name__
        raise AuditInputError("prefer= takes dialkit.analytics.answer_rates(calls)'s answer "
                              f"(by local_hour and weekday, with calls and answered), not {shown}")
    day = rates["weekday"].astype(object).map({d: n for n, d in enumerate(_DAYS)})
    hour = pd.to_numeric(rates["local_hour"], errors="coerce")
    known = (day.notna() & hour.between(0, 23)).to_numpy()
    cell = (day[known].astype(int) * 24 + hour[known].astype(int)).to_numpy()
    sums = [np.bincount(cell, pd.to_numeric(rates[c]).to_numpy(float)[known],
                        minlength=168).reshape(7, 24).astype(float)
            for c in ("calls", "answered")]
    return sums[0], sums[1]


def _prior_weight(calls: NDArray[np.float64], answered: NDArray[np.float64],
                  overall: float) -> float:
    """The prior's weight ``m`` by the method of moments (:func:`shrunk`)."""
    seen = calls > 0
    n, total = calls[seen], calls.sum()
    chance = overall * (1 - overall)
    spread = (n * (answered[seen] / n - overall) ** 2).sum()
    scale = total - (n ** 2).sum() / total
    tau2 = (spread - (len(n) - 1) * chance) / scale if scale > 0 else 0.0
    if tau2 <= 0 or chance <= 0:
        return MAX_PRIOR_WEIGHT
    return float(np.clip(chance / tau2 - 1, MIN_PRIOR_WEIGHT, MAX_PRIOR_WEIGHT))


def best_hours(next_at: pd.Series, phones: pd.Series, place: NDArray[np.intp],
               moments: NDArray[np.datetime64], rules: Rules,
               address: NDArray[np.object_] | None, rates: pd.DataFrame,
               horizon: pd.Timedelta) -> pd.DataFrame:
    """Per number: the allowed moment from ``next_at`` (its next allowed moment) to its
    ``moment`` plus ``horizon`` with the highest expected rate, the earliest of equals
    (``best_at``, ``best_local_time`` on its first zone's clock, ``best_rate``), and the
    expected rate at ``next_at`` (``next_rate``). Numbers of no next allowed moment or no
    known zone: none of them. ``place``: each number's place (same zones, same law)."""
    table = shrunk(rates)
    names, zone, _ = first_zones(phones.reset_index(drop=True))
    lo = next_at.to_numpy("datetime64[ns]")
    hi = moments + horizon.to_timedelta64()
    known = ~np.isnat(lo) & (zone >= 0)
    frame = pd.DataFrame({"best_at": pd.Series(pd.NaT, index=range(len(phones)),
                                               dtype="datetime64[ns, UTC]"),
                          "best_local_time": None, "best_rate": np.nan, "next_rate": np.nan})
    if not known.any():
        return frame.astype({"best_local_time": "str"})
    zone_names = np.array(names, object)[zone[known]]
    next_rate = _rates_at(table, lo[known], zone_names)
    found = _best_candidates(lo[known], hi[known], place[known], zone_names,
                             phones.to_numpy(object)[known],
                             None if address is None else address[known], rules, table)
    better = found[1] > next_rate
    best = np.where(better, found[0], lo[known])
    at = pd.Series(pd.DatetimeIndex(best).tz_localize("UTC"))
    frame.loc[known, "best_at"] = at.to_numpy()
    frame.loc[known, "best_local_time"] = written(local_times(at, pd.Series(zone_names)).to_numpy())
    frame.loc[known, "best_rate"] = np.where(better, found[1], next_rate)
    frame.loc[known, "next_rate"] = next_rate
    return frame.astype({"best_local_time": "str"})


def _rates_at(table: NDArray[np.float64], at: NDArray[np.datetime64],
              zones: NDArray[np.object_]) -> NDArray[np.float64]:
    """The expected rate at each UTC moment, on its zone's clock."""
    local = local_times(pd.Series(pd.DatetimeIndex(at).tz_localize("UTC")),
                        pd.Series(zones)).dt
    found: NDArray[np.float64] = table[local.day_of_week.to_numpy(), local.hour.to_numpy()]
    return found


def _best_candidates(lo: NDArray[np.datetime64], hi: NDArray[np.datetime64],
                     place: NDArray[np.intp], zones: NDArray[np.object_],
                     phones: NDArray[np.object_], address: NDArray[np.object_] | None,
                     rules: Rules, table: NDArray[np.float64]
                     ) -> tuple[NDArray[np.datetime64], NDArray[np.float64]]:
    """Per number, the whole hour after ``lo`` and before ``hi`` that the hours allow
    with the highest rate, the earliest of equals (NaT and -1 where there is none).
    The hours are made and judged once per place, over the span its numbers ask."""
    places, first, which = np.unique(place, return_index=True, return_inverse=True)
    span_lo = pd.Series(lo).groupby(which).min().to_numpy("datetime64[ns]")
    span_hi = pd.Series(hi).groupby(which).max().to_numpy("datetime64[ns]")
    made = _hours_of(span_lo, span_hi, zones[first])
    ok = allows(phones[first][made["place"]], made["at"],
                rules, None if address is None else address[first][made["place"]])
    made = {key: value[ok] for key, value in made.items()}
    order = np.lexsort((made["at"], made["place"]))
    cand_place, cand_at = made["place"][order], made["at"][order].astype(np.int64) // 10**9
    score = table[made["day"][order], made["hour"][order]]
    key = (cand_place.astype(np.int64) << 42) + cand_at
    row_key = which.astype(np.int64) << 42
    start = np.searchsorted(key, row_key + lo.astype(np.int64) // 10**9, side="right")
    stop = np.searchsorted(key, row_key + hi.astype(np.int64) // 10**9, side="left")
    return _range_best(start, np.maximum(stop, start), score, made["at"][order])


def _hours_of(lo: NDArray[np.datetime64], hi: NDArray[np.datetime64],
              zones: NDArray[np.object_]) -> dict[str, NDArray[Any]]:
    """Each place's whole hours on its zone's clock from ``lo`` to ``hi``: ``place``,
    ``at`` (UTC ``datetime64[ns]``), ``day`` (Monday 0) and ``hour`` of the wall clock."""
    found: list[dict[str, NDArray[Any]]] = []
    for zone in np.unique(zones):
        ours = np.flatnonzero(zones == zone)
        start = local_times(pd.Series(pd.DatetimeIndex(lo[ours]).tz_localize("UTC")),
                            pd.Series(zone, index=range(len(ours)))).dt.floor("h")
        count = ((hi[ours] - lo[ours]) // _HOUR).astype(np.int64) + 2
        owner = np.repeat(np.arange(len(ours)), count)
        step = np.arange(count.sum()) - np.repeat(np.cumsum(count) - count, count)
        wall = pd.DatetimeIndex(start.to_numpy("datetime64[ns]")[owner]
                                + step * np.timedelta64(3600, "s"))
        utc = wall.tz_localize(zone_info(str(zone)), ambiguous=False,
                               nonexistent="shift_forward").tz_convert(None)
        found.append({"place": ours[owner], "at": utc.to_numpy("datetime64[ns]"),
                      "day": wall.day_of_week.to_numpy(), "hour": wall.hour.to_numpy()})
    return {key: np.concatenate([part[key] for part in found]) for key in found[0]}


def _range_best(start: NDArray[np.intp], stop: NDArray[np.intp], score: NDArray[np.float64],
                at: NDArray[np.datetime64]) -> tuple[NDArray[np.datetime64],
                                                     NDArray[np.float64]]:
    """For each range ``start:stop`` of the candidates, the moment of the highest score,
    the earliest of equals, and the score (NaT and -1 for an empty range)."""
    best_at = np.full(len(start), np.datetime64("NaT"), "datetime64[ns]")
    best = np.full(len(start), -1.0)
    lengths = stop - start
    some = np.flatnonzero(lengths > 0)
    if not len(some):
        return best_at, best
    lengths = lengths[some]
    offsets = np.cumsum(lengths) - lengths
    flat = np.repeat(start[some] - offsets, lengths) + np.arange(lengths.sum())
    values = score[flat]
    top = np.maximum.reduceat(values, offsets)
    first = np.minimum.reduceat(np.where(values == np.repeat(top, lengths), flat,
                                         len(score)), offsets)
    best_at[some], best[some] = at[first], top
    return best_at, best

