"""Whose law the rules hold: the countries of the jurisdiction table the rules apply
(``Rules.jurisdictions``: the US, Canada, the UK under every preset) and the territories
their law covers (a Puerto Rico number is judged by the US rows), and which numbers are of
none of them.

A call to a number of any other country (France, Australia, Germany) is judged by no row
of hours, caps, lists, abandonment, ring time or caller id: before issue 98 every such rule
"passed" it without a word. Every judge asks here which numbers are not held, so that such
a call is a risk of law (``no_law_held``), its rules are *not judged* for it, and the
judges before a call do not answer it as allowed.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..._phones._zones import Rows
from ..._places._areas import territories
from ..._places._states import places
from ._rules import Rules


def held_regions(rules: Rules) -> frozenset[str]:
    """The regions (``phonenumbers``' codes) whose numbers the law ``rules`` applies judges:
    its countries and their territories; none under a policy alone (no law applied)."""
    countries = set(rules.jurisdictions)
    return frozenset(countries | {region for region, country in territories().items()
                                  if country in countries})


def unheld(phones: pd.Series, rules: Rules) -> tuple[Rows, np.ndarray]:
    """The positions of ``phones`` whose number is of a known country whose law ``rules``
    does not hold, and each one's region (``FR``). None under a policy alone (the user
    asked for no law), nor for a number of no known region (its time zone is unknown
    too: ``unknown_timezone`` tells it), such as an international freephone number
    (``phonenumbers``' non-geographic ``001``)."""
    if not rules.jurisdictions or not len(phones):
        return np.zeros(0, np.intp), np.zeros(0, object)
    where = places(phones)
    held = held_regions(rules)
    codes, distinct = pd.factorize(where.region)  # a few dozen regions: each asked once
    foreign = np.array([code.isalpha() and code not in held for code in distinct] + [False],
                       bool)[np.append(codes, -1)]  # the last: no region, or no number
    mine = np.flatnonzero(foreign[where.number])
    return mine, where.region[where.number[mine]]


def held_said(rules: Rules) -> str:
    """The law ``rules`` holds, in words, for a finding's evidence and a refusal's reason,
    under ``US``: dialkit holds the law of US, CA, GB (and PR, VI, GU, MP, AS as the
    US's)."""
    countries = list(rules.jurisdictions)
    owned = [region for region, country in territories().items() if country in countries]
    return ("dialkit holds the law of " + ", ".join(countries)
            + (f" (and {', '.join(owned)} as the {territories()[owned[0]]}'s)" if owned
               else ""))
