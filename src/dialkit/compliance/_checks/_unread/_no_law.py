"""A call to a number of a country whose law the rules hold no row of: a risk of law.

The presets judge the US (and its territories), Canada and the UK by the law of the place
called. A call anywhere else (a French mobile at 22:30 on a Saturday, an Australian one on
a Sunday) was judged by nothing, and every rule passed it without a word (issue 98). It is
now one finding a call, a risk (the data and the rules cannot tell whether it broke the
law of its country), naming the country and the law dialkit holds; and each rule of the
place called is *not judged* for it (:mod:`._unjudged`). Under a policy alone (no law
applied) it does not run: the account asked for its own rule only.
"""

from __future__ import annotations

import pandas as pd

from ...._places._country_names import english_name
from ..._rules._held import held_said, unheld
from ..._rules._rules import Rules
from .._findings import findings

RULE = "no_law_held"


def no_law_held(calls: pd.DataFrame, rules: Rules) -> pd.DataFrame:
    """The calls (the audit's columns: ``phone``, ``at``) to a number of a country whose
    law ``rules`` holds no row of, one risk each, ``jurisdiction`` the country's code."""
    at, regions = unheld(calls["phone"], rules)
    hits = calls.iloc[at].assign(jurisdiction=regions, decided_by="number", basis="risk",
                                 policy=None, citation=None)
    held = held_said(rules)
    said = {region: f"called a number of {english_name(region)} ({region}), whose law dialkit "
            f"holds no row of: no rule of hours, caps, Do-Not-Call lists, abandonment, ring "
            f"time or caller id judged it ({held})" for region in set(regions)}
    evidence = pd.Series([said[region] for region in regions], index=hits.index, dtype=object)
    return findings(RULE, hits, evidence)

