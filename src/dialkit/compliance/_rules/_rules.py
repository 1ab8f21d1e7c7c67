"""The rules an audit applies: the law of the place called, and the account's own policy.

A preset is data, not code: the same checks run under every preset. ``US``, ``UK``
and ``CA`` apply law only: each call is judged by the rows of :mod:`._jurisdictions`
of the place called (for a US number, the federal row and its state's, the stricter
deciding). A stricter house rule (a quieter window, a cap on every number) is the
account's policy, added on purpose (:func:`POLICY`, passed as ``audit(policy=...)``),
and its findings say so: every finding of hours and frequency has ``basis`` ``law``
or ``policy``. A call the law forbids is a law finding whatever the policy says.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import time, timedelta

from dialkit._utils._choices import POLICY_NAMES, PRESET_NAMES

from ..._utils._base_error import InputError
from ._emergencies import Emergency, emergencies_of

RULE_IDS = ("calling_hours", "unknown_timezone", "unknown_jurisdiction", "no_law_held",
            "call_frequency",
            "dnc_call", "dnc_lead", "unscreened_lead", "abandonment", "blocked_country",
            "unverified_caller_id", "short_ring", "no_written_consent", "caller_id",
            "unknown_address_state")
"""Every rule's stable id, used in findings, workbook sheets and the CLI."""

SEVERITY = {"calling_hours": "high", "unknown_timezone": "medium",
            "unknown_jurisdiction": "medium", "no_law_held": "high", "call_frequency": "medium",
            "dnc_call": "high", "dnc_lead": "high", "unscreened_lead": "medium",
            "abandonment": "high", "blocked_country": "high", "unverified_caller_id": "medium",
            "short_ring": "high", "no_written_consent": "high", "caller_id": "high",
            "unknown_address_state": "medium"}
"""How serious a finding of each rule is: ``high`` for a call that broke a rule
outright, ``medium`` for one a regulator would ask about."""

BASES = ("law", "policy", "risk")
"""What a finding is: a violation that ``law`` decides (a statute or regulator's rule: a
row of the jurisdiction table, the TSR's abandonment and Do-Not-Call rules) or that
``policy`` does (the account's own rule, named in the finding's ``policy`` column); or a
``risk``: no rule is known to be broken, but a call *may* have broken a law (a campaign
call without written consent to a number the numbering plan cannot tell wireless from
landline: ``no_written_consent``), or a lead is held so that one could be called wrongly
(:data:`RISK_RULES`). Reports count the three apart, risks apart from violations, and
the risks of calls (in calls) apart from those of leads (in leads)."""

RISKS = {"calls": ("call", "that may have broken a law"),
         "leads": ("lead", "that could be called wrongly")}
"""What a risk is, by what it is counted in: a call that *may* have broken a law (its
rule is counted among calls: the data cannot tell whether it did), or a lead that could
be called wrongly (its rule is counted among leads, :data:`RISK_RULES`); the noun and
the words the reports write after a count of it."""

ACCOUNT_RULES = {"blocked_country": "the account's blocked countries",
                 "unverified_caller_id": "the account's verified caller ids"}
"""The rules whose findings are always policy: they hold the account to its own
settings (the countries it blocks, the caller ids it verified), not to a statute."""

RISK_RULES = {"dnc_lead": "a listed number still dialable as a lead",
              "unscreened_lead": "a lead not screened against the DNC lists recently",
              "unknown_address_state": "a lead whose address state cannot be read"}
"""The rules whose findings are risks, not violations: they say a lead *could* be called
wrongly. No law forbids holding a listed or unscreened number, or an address written
wrongly; calling it may."""

FINDING_COLUMNS = ("rule", "severity", "campaign_id", "call_id", "lead_id", "phone", "at",
                   "local_time", "timezone", "evidence", "jurisdiction", "decided_by", "basis",
                   "policy", "citation")
"""The columns every finding has, whatever its rule. ``jurisdiction`` and ``decided_by``
name the row of the law of the place called that decided (:func:`._place_law.deciders`); they
are missing for the findings no row decides (DNC, caller id, abandonment, ...).
``basis`` says whether law or the account's policy decides the finding, and ``policy``
names the policy (missing for law's findings); ``citation`` names the section of law that
decides a finding of law (missing for policy's). Declared here, with the rules whose
findings they are, because the audit's inputs read them too: a lead's column of one of
these names is not kept (:func:`.._inputs._prepared.prepared_leads`)."""

Window = tuple[time, time]


@dataclass(frozen=True)
class Rules:
    """The parameters of the rules an audit applies: the law's, and the account's policy.

    Attributes:
        name: What the preset is called in reports.
        window: The policy's calling window, recipient local time, for every call (a
            call at the second time is outside); None: no policy window, so a call is
            judged by the law of the place called alone.
        max_calls_per_24h: The policy's cap: outbound calls to one number allowed in
            any 24 hours, the next one a finding; None: only the caps the law sets
            (Florida, Maryland, Oklahoma).
        scrub_age: How old a DNC check may be before a lead counts as unscreened.
        abandonment_limit: The account's own limit (policy) on the share of calls
            answered by a live person a campaign may abandon, for every number; None:
            the law of the place called alone (``dialkit/_law/abandonment.toml``:
            3% per successive 30 days for US numbers, Ofcom's policy of 3% per 24
            hours for UK ones, the CRTC's 5% a month for Canadian ones, doubtful).
        abandonment_window: The successive periods the policy's limit is measured over,
            from the campaign's first call (None: 30 days).
        agent_join_seconds: An answered call no agent joined within this long is
            abandoned (when the call data say when an agent joined).
        proxy_talk_seconds: Without join times, an answered call with no
            disposition that ended within this long is taken as abandoned.
        jurisdictions: The table's countries (``US``, ``GB``, ``CA``) whose
            confirmed rows judge the calls to their numbers, by where the person
            called is. Empty: no law row judges hours (a policy alone).
        states: Whether the US states' rows apply beside the federal one (False:
            the federal rule alone, ``US_FEDERAL``).
        policy: The name of the account's policy that ``window`` and
            ``max_calls_per_24h`` are, for the findings they decide.
        emergencies: The states of emergency declared where the calls went
            (:mod:`._emergencies`), which the rows whose law forbids solicitation during
            one judge; None: none was given, which a report says where such a state's
            numbers were called (an empty tuple: given, none declared). Carried by the
            rules so that every judge of a call reads them: the audit, ``next_allowed``,
            ``upcoming`` and the client's guard (``GuardSettings(rules=...)``).
    """

    name: str
    window: Window | None = None
    max_calls_per_24h: int | None = None
    scrub_age: timedelta = timedelta(days=31)
    abandonment_limit: float | None = None
    abandonment_window: timedelta | None = None
    agent_join_seconds: float = 2.0
    proxy_talk_seconds: float = 5.0
    jurisdictions: tuple[str, ...] = ()
    states: bool = True
    policy: str = ""
    emergencies: tuple[Emergency, ...] | None = None

    def __post_init__(self) -> None:
        if (self.window is not None or self.max_calls_per_24h is not None
                or self.abandonment_limit is not None) and not self.policy:
            object.__setattr__(self, "policy", "own policy")

    def with_policy(self, policy: Rules) -> Rules:
        """These rules with ``policy``'s window and cap added (the stricter of each where
        both set one), reported under the policy's name: ``US.with_policy(HOUSE_RULES)``."""
        if policy.window is None and policy.max_calls_per_24h is None \
                and policy.abandonment_limit is None:
            raise InputError(f"policy {policy.name!r} sets no window and no cap: make it with "
                             "POLICY(name, window=(start, end), max_calls_per_24h=N)")
        window, cap = policy.window, policy.max_calls_per_24h
        if window is not None and self.window is not None:
            window = (max(window[0], self.window[0]), min(window[1], self.window[1]))
        if cap is not None and self.max_calls_per_24h is not None:
            cap = min(cap, self.max_calls_per_24h)
        names = [n for n in (self.policy, policy.policy or policy.name) if n]
        return replace(self, name=f"{self.name} + {policy.name}",
                       window=window if window is not None else self.window,
                       max_calls_per_24h=cap if cap is not None else self.max_calls_per_24h,
                       policy="; ".join(dict.fromkeys(names)),
                       abandonment_limit=policy.abandonment_limit or self.abandonment_limit,
                       abandonment_window=policy.abandonment_window or self.abandonment_window)

    def with_emergencies(self, declared: Iterable[Emergency | tuple[object, ...]]) -> Rules:
        """These rules with the ``declared`` states of emergency (:class:`Emergency`
        values, or tuples ``(area, starts_at, ends_at[, declaration])``, times with their
        zone) added to those they carry: what a row whose law forbids solicitation during
        one judges, wherever these rules judge a call.

        Examples:
            >>> rules = US.with_emergencies([("LA", "2026-09-01T06:00-05:00",
            ...                               "2026-09-10T18:00-05:00")])
            >>> rules.describe()["declared emergencies"]
            'US-LA from 2026-09-01 11:00 UTC to 2026-09-10 23:00 UTC'
        """
        return replace(self, emergencies=(*(self.emergencies or ()),
                                          *emergencies_of(declared)))

    def describe(self) -> dict[str, str]:
        """Each parameter in words, for a report's cover: what the law decides, then what
        the account's policy adds."""
        law = ("the law of the place called (" + ", ".join(self.jurisdictions)
               + " rows of dialkit.compliance.jurisdictions)" if self.jurisdictions
               else "none (a policy alone)")
        if self.jurisdictions and not self.states:
            law = "the federal rule alone (the US row of dialkit.compliance.jurisdictions)"
        words = {"rules": self.name, "law applied": law,
                 **law_words(self.jurisdictions, self.states),
                 "policy": self.policy or "none: every finding is one of law"}
        if self.window is not None:
            start, end = (t.strftime("%H:%M") for t in self.window)
            words["policy: calling window"] = f"{start}-{end} recipient local time, every call"
        if self.max_calls_per_24h is not None:
            words["policy: call frequency"] = (f"at most {self.max_calls_per_24h} outbound "
                                               "calls per number in any 24 hours")
        if self.emergencies is not None:
            words["declared emergencies"] = "; ".join(
                each.words() for each in self.emergencies) or "none (given: none declared)"
        return {**words, "DNC scrub age": f"{self.scrub_age.days} days",
                **abandonment_words(self)}


def abandonment_words(rules: Rules) -> dict[str, str]:
    """The abandonment rule in words: each place's row the rules apply, then the
    account's own limit, if set."""
    from ..._law import _abandonment as table  # read on first use only

    rows = [row.words() for row in table.all() if row.id in rules.jurisdictions]
    words = {"abandonment": "; ".join(rows) or "no law row (a policy alone)"}
    if rules.abandonment_limit is not None:
        span = rules.abandonment_window or timedelta(days=30)
        words["policy: abandonment"] = (f"at most {rules.abandonment_limit:.0%} of calls "
                                        f"answered by a live person per campaign, each "
                                        f"successive {period_words(span)}")
    return words


def period_words(span: timedelta) -> str:
    """A span as a report says it: ``30 days``, ``24 hours``."""
    hours = span.total_seconds() / 3600
    return f"{span.days} days" if hours > 48 and hours % 24 == 0 else f"{hours:g} hours"


def law_words(countries: tuple[str, ...], states: bool = True) -> dict[str, str]:
    """The table's rows a preset applies and those it does not (unconfirmed), for the
    cover: a row two sources did not both confirm is named, never applied as law."""
    if not countries:
        return {}
    from . import _jurisdictions as table  # the table is read on first use only

    rows = [row for row in table.all() if row.country in countries
            and (states or not row.subdivision)]
    named = {status: ", ".join(f"{row.name} ({row.id})" for row in rows
                               if row.confirmed == (status == "applied")) or "none"
             for status in ("applied", "unconfirmed")}
    doubtful = "; ".join(f"{row.name} ({row.id}): {row.doubtful.rstrip('.')}" for row in rows
                         if row.confirmed and row.doubtful)
    return {"jurisdictions applied": named["applied"],
            "unconfirmed (not applied)": named["unconfirmed"],
            **({"doubtful readings (applied)": doubtful} if doubtful else {})}


def POLICY(name: str = "own policy", *, window: Window | None = None,  # noqa: N802
           max_calls_per_24h: int | None = None, **parameters: object) -> Rules:
    """The account's own rule: a ``window`` for every call and/or a cap on every number,
    whatever the place called, reported as policy. Pass it to ``audit(policy=...)`` beside
    a law preset, or alone as ``rules=`` (then no law row judges the hours), e.g.
    ``POLICY("09:00-20:00 everywhere", window=(time(9), time(20)))``."""
    if window is None and max_calls_per_24h is None and parameters.get(
            "abandonment_limit") is None:
        raise InputError(f"POLICY({name!r}) sets nothing: pass window=(start, end) and/or "
                         "max_calls_per_24h=N")
    return Rules(name, window=window, max_calls_per_24h=max_calls_per_24h, policy=name,
                 **parameters)  # type: ignore[arg-type]


EVERY_PLACE = ("US", "CA", "GB")
"""The table's countries: each preset judges a call by the law of the place called, so a
call to a Canadian number under ``US`` keeps the CRTC's hours, and to a US one under
``UK`` the federal rule and the state's."""
US = Rules("US federal and state law (TSR, TCPA, state statutes)", jurisdictions=EVERY_PLACE)
"""The law of the place called, for an account calling from the US: the federal rule and
each state's row; abandonment by the place called's row (the TSR's successive 30-day
periods for US numbers)."""
UK = Rules("UK (Ofcom persistent misuse policy)", jurisdictions=EVERY_PLACE)
"""The law of the place called, for an account calling from the UK: as :data:`US` (a UK
number's abandonment is judged by Ofcom's policy, 3% per 24 hours, whatever the preset)."""
CA = Rules("Canada (CRTC Unsolicited Telecommunications Rules)", jurisdictions=EVERY_PLACE)
"""The law of the place called, for an account calling from Canada (the CRTC's rules)."""
US_FEDERAL = Rules("US federal (TSR, TCPA)", jurisdictions=("US",), states=False)
"""The federal rule alone, for US numbers (no state's law); other numbers' hours unjudged."""
UK_OFCOM = UK
"""Another name of :data:`UK`."""
HOUSE_RULES = POLICY("house rules: 08:00-21:00 for every call, at most 3 calls a day",
                     window=(time(8), time(21)), max_calls_per_24h=3)
"""The stricter rule dialkit's presets once applied as if law: the federal
hours for every call, whatever the place's law, and at most 3 calls per number in any
24 hours. Reported as policy: ``audit(rules=US, policy=HOUSE_RULES)``."""
US_WITH_HOUSE_RULES = US.with_policy(HOUSE_RULES)
""":data:`US` as it once judged, its house rules now reported as policy."""
UK_WITH_HOUSE_RULES = UK.with_policy(HOUSE_RULES)
""":data:`UK` as it once judged, its house rules now reported as policy."""
CA_WITH_HOUSE_RULES = CA.with_policy(HOUSE_RULES)
""":data:`CA` as it once judged, its house rules now reported as policy."""
PRESETS = dict(zip(PRESET_NAMES, (US, UK, CA, US_FEDERAL), strict=True))
"""The law presets by the names the CLI takes."""
POLICIES = dict(zip(POLICY_NAMES, (HOUSE_RULES,), strict=True))
"""The named policies by the names the CLI takes (``--policy``)."""


TEXT_RULES = frozenset({"calling_hours", "unknown_timezone", "unknown_jurisdiction", "no_law_held",
                        "call_frequency", "dnc_call", "blocked_country",
                        "no_written_consent"})
"""The rules that judge texts as calls: their findings are counted among the calls and
texts audited."""
