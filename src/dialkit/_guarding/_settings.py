"""What the guard enforces (``Client(guard=...)``), read once when a client is made."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Literal, Protocol

import pandas as pd

from .._places._blocked import blocked_regions
from .._utils._base_error import InputError
from .._utils._choices import AUDIT_INPUTS, SWITCH

Enforced = Literal["law", "law_and_policy", "off"]
ENFORCED: tuple[Enforced, ...] = ("law", "law_and_policy", "off")
"""What the guard can enforce: the law; the law and the account's policy; nothing."""


class RuleSet(Protocol):
    """Rules the guard carries to its judge (``dialkit.compliance.Rules``: ``US``,
    ``HOUSE_RULES``, a ``POLICY(...)``). The guard never reads them, and this layer may not
    name the compliance layer that defines them, so it names only what every
    set of rules has; the judge checks that they are its own ``Rules``."""

    @property
    def name(self) -> str:
        """What the rules are called in a report (``US federal and state law ...``)."""

    def describe(self) -> dict[str, str]:
        """The rules in words, as a report's cover shows them."""


FRAMES = tuple(each.name for each in AUDIT_INPUTS if each.columns and "guard" in each.readers)
"""The settings that are frames, each the audit's input of its name, read by the judge with
the audit's readers: this layer may not import them."""


@dataclass(frozen=True)
class GuardSettings:
    """What the guard enforces (``Client(guard=...)``; text is ``enforce`` alone), and
    what the account knows that the service's answers do not say, given by the audit's
    names and read as the audit reads them (one declaration, every judge: its fields are the
    inputs :data:`~dialkit._utils._choices.AUDIT_INPUTS` says the guard reads, a test holds),
    besides its own (``enforce``, ``accept_unjudged``).

    Attributes:
        enforce: ``law`` (default), ``law_and_policy`` (also ``policy`` and
            ``blocked_countries``), or ``off`` (nothing: one warning per client).
        rules: The law (default ``dialkit.compliance.US``: US, Canadian and UK law).
        policy: The account's own rules (``dialkit.compliance.HOUSE_RULES``);
            ``law_and_policy`` needs one or ``blocked_countries``.
        blocked_countries: The countries the account does not call, read as the audit
            and ``leads.clean`` read them (``["KP", "IR"]``, ``"KP, Iran"``).
        accept_unjudged: The countries whose law ``rules`` do not hold that the account
            calls on purpose, read as ``blocked_countries`` (``["FR"]``, ``"FR, Spain"``).
            A contact to a number of any other country whose law is not held (France,
            Australia, Germany under ``US``, which holds the US's, Canada's and the UK's)
            is refused, ``no_law_held``, whatever ``enforce`` but ``off``: no hours, list
            or cap of its law was read. One of these is judged by what is held (the
            policy and the blocked countries, under ``law_and_policy``; the live DNC
            answer; the caps of the policy), as ``next_allowed(accept_unjudged=...)``
            judges it.
        emergencies: The declared states of emergency (``area``, ``starts_at``,
            ``ends_at``, ``declaration``), as ``audit(emergencies=...)`` takes them: a
            contact to a state whose law forbids solicitation during one is refused
            while it is declared there, its end the next allowed moment.
        dnc: DNC results as ``audit(dnc=...)`` takes them (``phone``, ``listed``,
            ``checked_at``, ``listed_at``, ``list``), judged beside the live check, which
            names no list (read as the national register): a state's scrub (``list``
            ``US-TX``) refuses a number on that state's list, citing its law.
        leads: The account's leads as ``audit(leads=...)`` takes them, read for the
            Do-Not-Call lists alone: a number every lead of which says ``line``
            ``business`` is no residential line, and a contract may name a lead by id.
        consents: The account's consent records (``phone`` or ``lead_id``, ``kind``,
            ``given_at``, ``revoked_at``, optionally ``relationship``), as the audit takes
            them: a record a list's law names lifts that list's rule from a contact (a
            Colorado customer's purchase for 18 months, a request to be called), and the
            hours where a row's words say so, as ``next_allowed`` judges them.
        contracts: The written contracts with the persons called (``phone`` or
            ``lead_id``, ``signed_at``, ``ends_at``), as the audit takes them: one in force
            lifts Canada's DNCL.
        reassigned: The reassigned numbers database's answers, as the audit takes them:
            a ``yes`` voids the contracts of its number signed before it.
        nonprofit: The account is a tax-exempt nonprofit calling for itself: the
            National Do Not Call Registry's rule does not judge its contacts.
        charity: The contacts are a registered charity's appeals for donations: Canada's
            DNCL does not bind them.
        newspaper: The contacts solicit subscriptions to a newspaper of general
            circulation: Canada's DNCL and the state lists whose law names one do not
            bind them.

    The frames are read when the client is made, by the audit's readers (the judge's:
    this layer may not import them), and a frame the audit would refuse is refused then,
    naming it.
    """

    enforce: Enforced = "law"
    rules: RuleSet | None = None
    policy: RuleSet | None = None
    blocked_countries: Collection[str] | str = ()
    accept_unjudged: Collection[str] | str = ()
    emergencies: pd.DataFrame | None = field(default=None, compare=False)
    dnc: pd.DataFrame | None = field(default=None, compare=False)
    leads: pd.DataFrame | None = field(default=None, compare=False)
    consents: pd.DataFrame | None = field(default=None, compare=False)
    contracts: pd.DataFrame | None = field(default=None, compare=False)
    reassigned: pd.DataFrame | None = field(default=None, compare=False)
    nonprofit: bool = False
    charity: bool = False
    newspaper: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "blocked_countries", blocked_regions(self.blocked_countries))
        object.__setattr__(self, "accept_unjudged", blocked_regions(self.accept_unjudged,
                                                                    "accept_unjudged"))
        for each in _SWITCHES:
            each.checked_switch(getattr(self, each.name), "GuardSettings")
        if self.enforce not in ENFORCED:
            raise InputError(f"guard enforce={self.enforce!r} is not one of "
                             f"{', '.join(ENFORCED)}")
        if self.enforce == "law_and_policy" and self.policy is None \
                and not self.blocked_countries:
            raise InputError("guard 'law_and_policy' needs the policy: pass GuardSettings("
                             "'law_and_policy', policy=dialkit.compliance.HOUSE_RULES) or "
                             "blocked_countries=[...]")

    def frames_given(self) -> bool:
        """Whether a frame is given (:data:`FRAMES`), which the judge reads once."""
        return any(getattr(self, name) is not None for name in FRAMES)


_SWITCHES = tuple(each for each in AUDIT_INPUTS if each.kind == SWITCH and "guard" in each.readers)
"""The facts the settings take, each by its audit input's declaration (True or False)."""
