"""What the client's guard and its judge exchange: the settings
(:mod:`._settings`), the evidence the client gathers and the judge's answers and
interface (:mod:`._judgment`), and a lead's fields as both read them (:mod:`._lead_fields`).

A layer of its own, between the contract and the client (docs/design.md, "Layers"): it
needs the contract's models, so it cannot sit with the shared helpers below the contract,
and both the client (:mod:`dialkit.client._guard`, which gathers the evidence over the API)
and the compliance layer (:class:`dialkit.compliance.LawJudge`, which judges) import it,
so neither names the other's insides. It names nothing above itself, not even for the
type checker: the rules it carries are :class:`._settings.RuleSet`, which
``dialkit.compliance.Rules`` is.
"""

from ._judgment import Judge, LiveDnc, ResumeJudgment, Verdict
from ._lead_fields import address_state, other_phones
from ._settings import Enforced, GuardSettings, RuleSet

__all__ = [
    "Enforced",
    "GuardSettings",
    "Judge",
    "LiveDnc",
    "ResumeJudgment",
    "RuleSet",
    "Verdict",
    "address_state",
    "other_phones",
]
