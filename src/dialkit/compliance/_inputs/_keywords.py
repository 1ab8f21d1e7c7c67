"""The judges' keyword inputs as one typed set (STYLE.md point 19), read by one function.

Each judge of the law (``audit``, ``next_allowed``, ``upcoming``, ``repair``) takes
``**inputs: Unpack[AuditInputs]`` beside its own parameters, and reads them by
:func:`inputs_of`: the set is written once, with one type per input, so the judges cannot
drift apart in a name, a type or a default; which of them a judge reads, and why it does not
read the others, is the input's declaration (:data:`dialkit._utils._choices.AUDIT_INPUTS`).
An input a judge does not read is refused naming that why, never ignored: a caller who
passed ``verified_caller_ids=`` to ``next_allowed`` would believe a rule judged that was not.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from datetime import datetime
from typing import Any, TypedDict

import pandas as pd

from ..._utils._choices import AUDIT_INPUTS
from .._rules._rules import US, Rules
from ._headers import Columns
from ._vocabulary import Values

__all__ = ["AuditInputs", "Bound", "inputs_of", "refusal"]

Bound = datetime | str | None
"""A bound of the period audited (``since``, ``until``), in the forms :func:`load` reads."""


class AuditInputs(TypedDict, total=False):
    """Every keyword input of the judges, by the declaration's names (a test holds the two
    equal); what each means is its declaration's ``fact``, and each judge's docstring."""

    leads: pd.DataFrame | None
    dnc: pd.DataFrame | None
    texts: pd.DataFrame | None
    verified_caller_ids: Collection[str] | None
    consents: pd.DataFrame | None
    reassigned: pd.DataFrame | None
    emergencies: pd.DataFrame | None
    nonprofit: bool
    charity: bool
    newspaper: bool
    contracts: pd.DataFrame | None
    blocked_countries: Collection[str]
    rules: Rules
    policy: Rules | None
    campaign_id: str | Collection[str] | None
    since: Bound
    until: Bound
    as_of: datetime | str | None
    values: Values
    mapping: Columns
    campaigns: Collection[str] | None


DEFAULTS: dict[str, Any] = {"blocked_countries": (), "rules": US, "nonprofit": False,
                            "charity": False, "newspaper": False}
"""Each input's value where it is not given, where that is not None."""
_DECLARED = {each.name: each for each in AUDIT_INPUTS}


def inputs_of(judge: str, given: Mapping[str, object]) -> dict[str, Any]:
    """The inputs ``judge`` reads, each as given or its default; a keyword it does not read
    is refused (:func:`refusal`), as Python refuses a keyword, but saying why."""
    reads = [name for name, each in _DECLARED.items() if judge in each.readers]
    for name in given:
        if name not in reads:
            raise refusal(judge, judge, name, reads)
    return {name: given.get(name, DEFAULTS.get(name)) for name in reads}


def refusal(where: str, judge: str, name: str, reads: Iterable[str]) -> TypeError:
    """The refusal of the keyword ``name`` given to ``where`` (``judge``'s, or a run of it):
    an input ``judge`` does not read, with the declaration's why; else a keyword that is
    none of those it reads, naming them."""
    each = _DECLARED.get(name)
    if each is not None and judge in each.not_read:
        return TypeError(f"{where}() does not read {name}=: {each.not_read[judge]} "
                         "Leave it out.")
    return TypeError(f"{where}() takes no {name}=: pass one of the inputs it reads, "
                     f"{', '.join(f'{read}=' for read in reads)}, or of its own parameters")
