"""The clocks a lead's address state's rule is judged on: that state's own zones.

A New York number whose lead lives in Texas is called where the person is: Texas's rule
applies (:mod:`._place_law`), and its hours are Texas's clock's, Central and, for El Paso,
Mountain (:func:`.._places._state_zones.state_zones`: where the state's own number would
ring), not New York's. So the (call, zone) pairs a clock judges are the number's zones,
on which the number's rows judge, and, for a call whose address state is not the
number's own, the address state's zones, on which that state's row judges (both where a
zone is both). Where the address state is the number's own, its row judges the number's
zones, as the number's row does.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..._arrays._groups import Bools, Ints
from ..._phones._zones import ZONES, Zoned
from ..._places._state_zones import state_zones
from ._place_law import Objects, _applied, law_rows
from ._rules import Rules


def address_zones(phones: pd.Series, pairs: Zoned, rules: Rules,
                  address: Objects) -> tuple[Zoned, Bools, Bools]:
    """``pairs`` (the numbers' zones) with, for each call whose lead's address state has a
    row of law other than its number's state's, that state's zones the number lacks;
    and per pair whether the number's rows judge it and whether the address row does.
    The pairs stay in row order, each row's number zones first (its findings name the
    first pair outside, else the number's first zone)."""
    _, state, by_address = law_rows(phones, rules, address)
    rows, _ = _applied(rules)
    other = np.flatnonzero((by_address >= 0) & (by_address != state))
    its = np.array([rows[n - 1].subdivision for n in by_address[other]], object)
    extra_row, extra_zone = [np.zeros(0, np.intp)], [np.zeros(0, np.intp)]
    for code in pd.unique(its):  # a few dozen states
        these = other[its == code]
        zones = np.array(state_zones(str(code)), np.intp)
        extra_row.append(np.repeat(these, len(zones)))
        extra_zone.append(np.tile(zones, len(these)))
    row, zone = np.concatenate(extra_row), np.concatenate(extra_zone)
    number_keys = pairs.row * len(ZONES) + pairs.zone
    address_keys = row * len(ZONES) + zone
    elsewhere = np.zeros(len(phones), bool)
    elsewhere[other] = True
    at_address = ~elsewhere[pairs.row] | _among(number_keys, address_keys)
    new = ~_among(address_keys, number_keys)
    order = np.argsort(np.r_[pairs.row, row[new]], kind="stable")
    joined = Zoned(np.r_[pairs.row, row[new]][order], np.r_[pairs.zone, zone[new]][order],
                   pairs.unknown)
    by_number: Bools = np.r_[np.ones(len(pairs.row), bool), np.zeros(new.sum(), bool)][order]
    by_state: Bools = np.r_[at_address, np.ones(new.sum(), bool)][order]
    return joined, by_number, by_state


def _among(keys: Ints, others: Ints) -> Bools:
    """Whether each of ``keys`` is one of ``others``, by a binary search of them sorted:
    ``np.isin`` hashed both, 0.77 CPU s for the 700,000 (opening, zone) pairs that a
    campaign's 100,000 leads' next allowed moments are judged on (:mod:`._when`)."""
    if not len(others):
        return np.zeros(len(keys), bool)
    ordered = np.sort(others)
    found: Bools = ordered[np.searchsorted(ordered, keys).clip(max=len(ordered) - 1)] == keys
    return found
