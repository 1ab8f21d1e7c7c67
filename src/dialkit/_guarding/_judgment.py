"""The evidence the client's guard gathers (a number's live DNC answer), the judge's
answers (a contact's :class:`Verdict`, a campaign's :class:`ResumeJudgment`) and the
judge's interface (:class:`Judge`), as :class:`dialkit.compliance.LawJudge` answers it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Protocol

from ..contract import Call, DncCheckResult, Lead, SmsMessage
from ..errors import ContactForbiddenError
from ._settings import GuardSettings


@dataclass(frozen=True)
class Verdict:
    """The judge's refusal of one contact (the columns of ``next_allowed``); of
    :attr:`basis` ``risk``, what the law may forbid though nothing given says it does (a
    state's required list no scrub answers for), which the guard sends with a warning
    unless it enforces the policy (``law_and_policy``). Not :attr:`judged`, a contact no
    law of whose place was read (``no_law_held``: a country whose law the rules do not
    hold): a risk in the audit's words, refused all the same unless the settings accept
    its country (``accept_unjudged``), for nothing was judged that could allow it."""

    rule: str
    basis: str | None
    jurisdiction: str | None
    evidence: str
    next_allowed_at: datetime | None
    next_local_time: str | None = None
    timezone: str | None = None
    judged: bool = True

    @property
    def risk(self) -> bool:
        """Whether the verdict names a risk of a contact judged, not a refusal of the law
        (nor a contact not judged, which is refused)."""
        return self.basis == "risk" and self.judged

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

    def read(self, settings: GuardSettings) -> None:
        """Read the frames of ``settings`` (:data:`._settings.FRAMES`) now, as the audit
        reads its inputs of their names, refusing one it would refuse, naming it."""

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
