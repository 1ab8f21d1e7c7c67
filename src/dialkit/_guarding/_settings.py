"""What the guard enforces (``Client(guard=...)``), read once when a client is made."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Literal, Protocol

from .._places._blocked import blocked_regions
from .._utils._base_error import InputError

Enforced = Literal["law", "law_and_policy", "off"]
ENFORCED: tuple[Enforced, ...] = ("law", "law_and_policy", "off")
"""What the guard can enforce: the law; the law and the account's policy; nothing."""


class RuleSet(Protocol):
    """Rules the guard carries to its judge (``dialkit.compliance.Rules``: ``US``,
    ``HOUSE_RULES``, a ``POLICY(...)``). The guard never reads them, and this layer may not
    name the compliance layer that defines them (issue 72), so it names only what every
    set of rules has; the judge checks that they are its own ``Rules``."""

    @property
    def name(self) -> str:
        """What the rules are called in a report (``US federal and state law ...``)."""

    def describe(self) -> dict[str, str]:
        """The rules in words, as a report's cover shows them."""


@dataclass(frozen=True)
class GuardSettings:
    """What the guard enforces (``Client(guard=...)``; text is ``enforce`` alone).

    Attributes:
        enforce: ``law`` (default), ``law_and_policy`` (also ``policy`` and
            ``blocked_countries``), or ``off`` (nothing: one warning per client).
        rules: The law (default ``dialkit.compliance.US``: US, Canadian and UK law).
        policy: The account's own rules (``dialkit.compliance.HOUSE_RULES``);
            ``law_and_policy`` needs one or ``blocked_countries``.
        blocked_countries: The countries the account does not call, read as the audit
            and ``leads.clean`` read them (``["KP", "IR"]``, ``"KP, Iran"``).
    """

    enforce: Enforced = "law"
    rules: RuleSet | None = None
    policy: RuleSet | None = None
    blocked_countries: Collection[str] | str = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "blocked_countries", blocked_regions(self.blocked_countries))
        if self.enforce not in ENFORCED:
            raise InputError(f"guard enforce={self.enforce!r} is not one of "
                             f"{', '.join(ENFORCED)}")
        if self.enforce == "law_and_policy" and self.policy is None \
                and not self.blocked_countries:
            raise InputError("guard 'law_and_policy' needs the policy: pass GuardSettings("
                             "'law_and_policy', policy=dialkit.compliance.HOUSE_RULES) or "
                             "blocked_countries=[...]")
