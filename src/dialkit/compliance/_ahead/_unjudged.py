"""A call to a number whose country's law the rules do not hold, judged before it is made
(issue 98): not allowed, but *not judged*, unless the caller accepts the country.

The presets hold the law of the US (and its territories), Canada and the UK
(:mod:`.._rules._held`). Before issue 98 a call to France, Australia or Germany met no row
of law, so every judge before a call answered it allowed and the guard sent it. Now such a
number reads ``no_law_held`` (basis ``risk``, as the audit reports the call: no rule is
known to be broken, none was read), its ``jurisdiction`` the country, with no next allowed
moment, and its words say what law is held and how to accept the country. The account that
calls such a country on purpose names it in ``accept_unjudged`` (ISO codes or names, read
as ``blocked_countries`` is read); its numbers are then judged by what is held, the policy
and the blocked countries, and still read as not judged by any law.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..._phones._zones import Rows
from ..._places._blocked import blocked_regions
from ..._places._country_names import english_name
from .._checks._unread._no_law import RULE as NO_LAW_HELD
from .._checks._unread._unjudged import ACCEPT
from .._rules._held import held_said, unheld
from .._rules._rules import Rules
from ._when_past import RISK, RISK_JURISDICTION

__all__ = ["ACCEPT", "NONE_ACCEPTED", "NOT_READ", "NO_LAW_HELD", "Accepting", "law_read"]

NOT_READ = ("unknown_timezone", NO_LAW_HELD)
"""The rules whose answer says that no law of the place called was read for the number:
its country's law is not held, or no zone is known to read its clock by."""


@dataclass(frozen=True)
class Accepting:
    """The countries a judge was told to accept unjudged (``countries``, region codes) and
    how its caller names them (``where``: ``next_allowed``, ``GuardSettings``), for the
    words that say how to accept one more."""

    countries: tuple[str, ...] = ()
    where: str = "next_allowed"

    @classmethod
    def read(cls, countries: Collection[object] | str, where: str) -> Accepting:
        """``countries`` as given to ``where``, read as ``blocked_countries`` is read.

        Raises:
            InputError: A value that names no country, or a calling code, naming it.
        """
        return cls(blocked_regions(countries, ACCEPT), where)

    def unheld(self, phones: pd.Series, rules: Rules) -> tuple[Rows, np.ndarray, np.ndarray]:
        """The positions of ``phones`` whose country's law ``rules`` do not hold, each one's
        region, and whether it is accepted (:func:`.._rules._held.unheld`)."""
        rows, regions = unheld(phones, rules)
        return rows, regions, np.isin(regions.astype(str), self.countries)

    def said(self, region: str, rules: Rules) -> str:
        """Why a number of ``region`` is not judged, the law that is held and how to
        accept it."""
        return (f"not judged: dialkit holds no law for {english_name(region)} ({region}), so "
                f"no hours, Do-Not-Call list or cap of its law was read; {held_said(rules)}; "
                f"accept it with {self.where}({ACCEPT}=['{region}'])")


NONE_ACCEPTED = Accepting()
"""No country accepted: every number whose law is not held is ``no_law_held``."""


def law_read(answer: pd.DataFrame, phones: pd.Series, rules: Rules,
             accepting: Accepting) -> pd.DataFrame:
    """``answer`` (:func:`._when.next_allowed`'s, a row per number of ``phones``) with
    ``judged``: False where no law of the place called was read (:data:`NOT_READ`); and
    each number of a country whose law ``rules`` do not hold, unless ``accepting`` accepts
    it, not allowed as ``no_law_held`` whatever the rest said (what is held, the policy,
    judges only part of such a call), with no next allowed moment: none is judged
    allowed."""
    rows, regions, accepted = accepting.unheld(phones, rules)
    read = ~answer["rule"].isin(NOT_READ).to_numpy(bool)
    read[rows] = False
    answer = answer.assign(judged=read)
    refused, regions = answer.index[rows[~accepted]], regions[~accepted].astype(str)
    if not len(refused):
        return answer
    said = {region: accepting.said(region, rules) for region in set(regions)}
    answer.loc[refused, ["allowed", "next_allowed_at"]] = [False, pd.NaT]
    answer.loc[refused, ["rule", "basis"]] = [NO_LAW_HELD, RISK]
    answer.loc[refused, "jurisdiction"] = regions
    answer.loc[refused, "forbidden_by"] = [said[region] for region in regions]
    answer.loc[refused, ["policy", "next_local_time", "timezone", RISK,
                         RISK_JURISDICTION]] = None
    return answer

