"""The rules an audit applies, with the parameters each jurisdiction sets.

A preset is data, not code: the same checks run under every preset. ``US``,
``UK`` and ``CA`` judge each call by the law of the place called, the rows of
:mod:`._jurisdictions` (for a US number, the federal row and its state's, the
stricter deciding); an account's own flat rule is a :func:`POLICY`, the same
window for every call.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import time, timedelta

RULE_IDS = ("calling_hours", "unknown_timezone", "unknown_jurisdiction", "call_frequency",
            "dnc_call", "dnc_lead", "unscreened_lead", "abandonment", "blocked_country",
            "unverified_caller_id")
"""Every rule's stable id, used in findings, workbook sheets and the CLI."""

SEVERITY = {"calling_hours": "high", "unknown_timezone": "medium",
            "unknown_jurisdiction": "medium", "call_frequency": "medium",
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
        jurisdictions: The table's countries (``US``, ``GB``, ``CA``) whose
            confirmed rows judge the calling hours of calls to their numbers, by
            where the person called is (for ``US``: the federal row and the
            state's, the stricter deciding); ``window`` judges every other call.
            Empty: ``window`` judges every call.
    """

    name: str
    window: tuple[time, time] = (time(8), time(21))
    max_calls_per_24h: int = 3
    scrub_age: timedelta = timedelta(days=31)
    abandonment_limit: float = 0.03
    abandonment_window: timedelta = timedelta(days=30)
    agent_join_seconds: float = 2.0
    proxy_talk_seconds: float = 5.0
    jurisdictions: tuple[str, ...] = ()

    def describe(self) -> dict[str, str]:
        """Each parameter in words, for a report's cover."""
        start, end = (t.strftime("%H:%M") for t in self.window)
        window = f"{start}-{end} recipient local time"
        return {
            "rules": self.name,
            "calling window": window if not self.jurisdictions else (
                "the law of the place called (" + ", ".join(self.jurisdictions)
                + f" rows of dialkit.compliance.jurisdictions); other numbers {window}"),
            **law_words(self.jurisdictions),
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


def law_words(countries: tuple[str, ...]) -> dict[str, str]:
    """The table's rows a preset applies and those it does not (unconfirmed), for the
    cover: a row two sources did not both confirm is named, never applied as law."""
    if not countries:
        return {}
    from . import _jurisdictions as table  # the table is read on first use only

    rows = [row for row in table.all() if row.country in countries]
    named = {status: ", ".join(f"{row.name} ({row.id})" for row in rows
                               if row.confirmed == (status == "applied")) or "none"
             for status in ("applied", "unconfirmed")}
    return {"jurisdictions applied": named["applied"],
            "unconfirmed (not applied)": named["unconfirmed"]}


def POLICY(name: str = "own policy", **parameters: object) -> Rules:  # noqa: N802
    """One's own flat rule: the same ``window`` (and caps) for every call, whatever the
    place called, e.g. ``POLICY("09:00-20:00 everywhere", window=(time(9), time(20)))``."""
    return Rules(name, **parameters)  # type: ignore[arg-type]


EVERY_PLACE = ("US", "CA", "GB")
"""The table's countries: each preset judges a call by the law of the place called, so a
call to a Canadian number under ``US`` keeps the CRTC's hours, and to a US one under
``UK`` the federal rule and the state's."""
US = Rules("US federal and state law (TSR, TCPA, state statutes)", jurisdictions=EVERY_PLACE)
UK = Rules("UK (Ofcom persistent misuse policy)", abandonment_window=timedelta(hours=24),
           jurisdictions=EVERY_PLACE)
CA = Rules("Canada (CRTC Unsolicited Telecommunications Rules)", jurisdictions=EVERY_PLACE)
US_FEDERAL = POLICY("US federal (TSR, TCPA)")
"""The federal rule alone, the same for every call (no state's law)."""
UK_OFCOM = UK
PRESETS = {"us": US, "uk": UK, "ca": CA}
"""The presets by the names the CLI takes."""
