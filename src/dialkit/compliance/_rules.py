"""The rules an audit applies, with the parameters each jurisdiction sets.

A preset is data, not code: the same checks run under every preset, and a
compliance officer whose rules differ (a state's shorter window, another
frequency cap) makes a :class:`Rules` of their own with
``dataclasses.replace(US_FEDERAL, ...)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import time, timedelta

RULE_IDS = ("calling_hours", "unknown_timezone", "call_frequency", "dnc_call", "dnc_lead",
            "unscreened_lead", "abandonment", "blocked_country", "unverified_caller_id")
"""Every rule's stable id, used in findings, workbook sheets and the CLI."""

SEVERITY = {"calling_hours": "high", "unknown_timezone": "medium", "call_frequency": "medium",
            "dnc_call": "high", "dnc_lead": "high", "unscreened_lead": "medium",
            "abandonment": "high", "blocked_country": "high", "unverified_caller_id": "medium"}
"""How serious a finding of each rule is: ``high`` for a call that broke a rule
outright, ``medium`` for one a regulator would ask about."""


@dataclass(frozen=True)
class Rules:
    """The parameters of one jurisdiction's rules.

    Attributes:
        name: What the preset is called in reports.
        window: The recipient-local hours in which outbound calls are allowed,
            from the first to the second (a call at the second is outside).
        max_calls_per_24h: Outbound calls to one number allowed in any 24 hours;
            the next one is a finding.
        scrub_age: How old a DNC check may be before a lead counts as unscreened.
        abandonment_limit: The share of answered calls that may be abandoned.
        abandonment_window: The rolling period the share is measured over.
        agent_join_seconds: An answered call no agent joined within this long is
            abandoned (when the call data say when an agent joined).
        proxy_talk_seconds: Without join times, an answered call with no
            disposition that ended within this long is taken as abandoned.
    """

    name: str
    window: tuple[time, time] = (time(8), time(21))
    max_calls_per_24h: int = 3
    scrub_age: timedelta = timedelta(days=31)
    abandonment_limit: float = 0.03
    abandonment_window: timedelta = timedelta(days=30)
    agent_join_seconds: float = 2.0
    proxy_talk_seconds: float = 5.0

    def describe(self) -> dict[str, str]:
        """Each parameter in words, for a report's cover."""
        start, end = (t.strftime("%H:%M") for t in self.window)
        return {
            "rules": self.name,
            "calling window": f"{start}-{end} recipient local time",
            "call frequency": f"at most {self.max_calls_per_24h} outbound calls per number "
                              "in any 24 hours",
            "DNC scrub age": f"{self.scrub_age.days} days",
            "abandonment": f"at most {self.abandonment_limit:.0%} of answered calls per "
                           f"campaign over {period_words(self.abandonment_window)}",
        }


def period_words(span: timedelta) -> str:
    """A span as a report says it: ``30 days``, ``24 hours``."""
    hours = span.total_seconds() / 3600
    return f"{span.days} days" if hours > 48 and hours % 24 == 0 else f"{hours:g} hours"


US_FEDERAL = Rules("US federal (TSR, TCPA)")
US_FLORIDA = Rules("US Florida (Telephone Solicitation Act)", window=(time(8), time(20)))
UK_OFCOM = Rules("UK (Ofcom persistent misuse policy)", abandonment_window=timedelta(hours=24))
PRESETS = {"us": US_FEDERAL, "us-florida": US_FLORIDA, "uk": UK_OFCOM}
"""The presets by the names the CLI takes."""
