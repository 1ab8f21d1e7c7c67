"""What the client's guard and its judge exchange (issues 50 and 63): the settings, the
evidence the client gathers (a number's live DNC answer), the judge's verdicts and the
judge's interface, and how a lead's address state and other numbers are read.

They live below both the client (:mod:`dialkit.client._guard`, which gathers the evidence
over the API) and the compliance layer (:class:`dialkit.compliance.LawJudge`, which judges),
so that neither imports the other's insides: the client imports its judge on first use,
and the judge imports nothing of the client.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Literal, Protocol

from .._places._blocked import blocked_regions
from ..contract import Call, DncCheckResult, Lead, SmsMessage
from ..errors import ContactForbiddenError
from ._base_error import InputError

if TYPE_CHECKING:
    from ..compliance import Rules

Enforced = Literal["law", "law_and_policy", "off"]
ENFORCED: tuple[Enforced, ...] = ("law", "law_and_policy", "off")
"""What the guard can enforce: the law; the law and the account's policy; nothing."""

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
    rules: Rules | None = None
    policy: Rules | None = None
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


@dataclass(frozen=True)
class Verdict:
    """The judge's refusal of one contact (the columns of ``next_allowed``)."""

    rule: str
    basis: str | None
    jurisdiction: str | None
    evidence: str
    next_allowed_at: datetime | None
    next_local_time: str | None = None
    timezone: str | None = None

    def error(self, operation: str, phone: str | None, at: datetime) -> ContactForbiddenError:
        """The error that refuses ``operation``."""
        return ContactForbiddenError(
            operation, phone, at, rule=self.rule, basis=self.basis,
            jurisdiction=self.jurisdiction, evidence=self.evidence,
            next_allowed_at=self.next_allowed_at, next_local_time=self.next_local_time,
            timezone=self.timezone)


@dataclass(frozen=True)
class ResumeJudgment:
    """What the law says of a campaign's diallable leads at its resume.

    Attributes:
        forbidden: How many may not be called at ``at``, of ``diallable``.
        by_rule: Those by the rule that forbids them (``calling_hours``: 120).
        opens_at: The earliest next allowed moment among them (None: none known).
        last_opens_at: The latest (by then every one known has opened once).
    """

    campaign_id: str
    at: datetime
    diallable: int
    forbidden: int
    by_rule: dict[str, int] = field(default_factory=dict)
    opens_at: datetime | None = None
    last_opens_at: datetime | None = None
    first: Verdict | None = None
    """The first forbidden lead's refusal in full."""


@dataclass(frozen=True)
class LiveDnc:
    """A number's live DNC answer and when it was obtained: the service's now at the
    check, not the moment of the contact judged (a callback's is days ahead), so the
    evidence dates each piece as it was obtained."""

    answer: DncCheckResult
    checked_at: datetime


class Judge(Protocol):
    """The law's judge, as the guard asks it (:class:`dialkit.compliance.LawJudge`)."""

    lookback: timedelta
    """How far back a number's calls and texts count (the longest cap's period)."""

    def capped(self, phone: str, state: str | None, contacts: int,
               settings: GuardSettings) -> bool:
        """Whether a cap could count the number's past ``contacts`` (calls and texts; a
        lead's address ``state``'s cap too; False: the hours alone judge)."""

    def contact(self, phone: str, at: datetime, *, state: str | None,
                campaign_id: str | None, calls: Sequence[Call], texts: Sequence[SmsMessage],
                dnc: LiveDnc, settings: GuardSettings) -> Verdict | None:
        """The refusal of a contact to ``phone`` at ``at``, or None where it is allowed:
        ``calls`` and ``texts`` are the number's within :attr:`lookback` (a text is a
        call in law, and the caps count it), ``dnc`` its live answer."""

    def campaign(self, campaign_id: str, leads: Sequence[Lead], at: datetime,
                 settings: GuardSettings) -> ResumeJudgment:
        """What the law of their places says of a campaign's ``leads`` at ``at``."""


def address_state(fields: object) -> str | None:
    """A lead's address state, from its ``custom_fields`` (as the audit reads it)."""
    state = fields.get("state") if isinstance(fields, Mapping) else None
    return state if isinstance(state, str) and state.strip() else None


def other_phones(fields: object) -> object:
    """A lead's other numbers, from its ``custom_fields`` (``other_phones``: E.164 numbers
    in one text or a list, as the audit reads them), as written; None where it names none:
    a person's address state follows each of their numbers (issue 71)."""
    said = fields.get("other_phones") if isinstance(fields, Mapping) else None
    return said if isinstance(said, str | list) and said else None
