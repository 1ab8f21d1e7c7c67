"""What an audit hands on, as one value: :class:`AuditReport`, its findings and what was
audited, and each way it is written out (CSV, the evidence workbook, one HTML page, plain
text), each output made by this stage's own modules (:mod:`._evidence`, :mod:`._text`).

The report is the last stage of an audit: the run (:func:`.._run.report`) makes it of
the checks' findings and the inputs' counts, and nothing here reads the run back.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import overload

import pandas as pd

from ..._files._outputs_written import written
from ..._shown._words import counted
from ...frames import write_csv
from .._checks._unread._unjudged import rules_said, unjudged_frame, verdicts_said, with_verdicts
from .._inputs._population import by_rule, summarised
from .._inputs._vocabulary import held_out, summed_counts, values_said
from .._rules._rules import BASES, RULE_IDS, Rules
from ._evidence import PAGE_STYLE, Names, masked, page, write_workbook
from ._text import EMPTY, bases_text, period_said, risk_counts, totals_text


@dataclass(frozen=True)
class AuditReport:
    """What an audit found.

    Attributes:
        findings: One row per finding: ``rule``, ``severity``, ``campaign_id``,
            ``call_id`` (a text's message id), ``channel`` (``call`` or ``text``;
            missing for a lead's finding), ``lead_id``, ``phone``, ``at`` (UTC), ``local_time``,
            ``timezone``, ``evidence`` (in words), ``jurisdiction`` and ``decided_by``
            (the law's row that decided), ``basis`` (``law`` or ``policy``: a
            violation; ``risk``: a call that may have broken a law, or a lead that
            could be called wrongly: :attr:`risks`) and
            ``policy`` (the policy's name), and each rule's own columns.
        abandoned: Every abandoned call (of the period asked, where one was), with its
            campaign's period and that period's figures (``window_*``), counted over
            every call given from the campaign's first.
        rules: The rules applied.
        ran: The rules that ran.
        population: Per campaign, what was audited: ``calls`` (outbound, of the period
            asked where one was), ``answered`` (of those) and ``leads``; ``texts`` where
            texts were given.
        sources: Each input frame in words: rows, period, where it came from
            and when it was fetched (from the frame's ``attrs``, as
            :func:`load` sets them).
        notes: Each rule that did not run and why; how abandonment was told.
        period: The period of calls asked for (``since=``, ``until=``), in words
            (``since 30d (2026-10-26 21:40 UTC)``); None where every call given was
            audited.
        unread: Each value of the calls' named columns not understood (``column``,
            ``value``, ``rows``), never read as a default: its rows were held out of the
            rules it would decide, and the notes name it (``values=`` maps it).
    """

    findings: pd.DataFrame
    abandoned: pd.DataFrame
    rules: Rules
    ran: tuple[str, ...]
    population: pd.DataFrame
    sources: Mapping[str, str]
    notes: Mapping[str, str] = field(default_factory=dict)
    period: str | None = None
    unread: pd.DataFrame = field(default_factory=lambda: summed_counts([]))
    """Each value of the calls' named columns not understood (:mod:`.._inputs._vocabulary`):
    ``column``, ``value``, ``rows``; its rows were held out of the rules it would decide."""
    unjudged: pd.DataFrame = field(default_factory=unjudged_frame)
    """What each rule could not judge (:mod:`.._checks._unread._unjudged`): ``rule``,
    ``calls``, ``why``, ``give`` (what to give so it can) and ``country`` (whose law is not
    held; None for a value not understood or a fact missing). A rule with a row here is
    *not judged*, never passed, unless it broke: :attr:`totals`' ``verdict``."""
    spoken: Callable[[str], str] = field(default=str, compare=False, repr=False)
    """How what the report says of the library's arguments (``values={...}``) is said to
    its reader: as it is, in Python; the command line's words where the command wrote it
    (``--value ...``), on its text, its workbook's cover and its page alike."""

    @property
    def calls_audited(self) -> int:
        """How many outbound calls were audited: none (an empty period, a campaign with no
        calls) and every rule of calls "passes" with nothing to check, which
        :attr:`empty` and every output of the report say."""
        return int(self.population["calls"].sum())

    @property
    def held_out(self) -> int:
        """How many calls were not audited at all for a ``direction`` not understood
        (:attr:`unread`): an audit of no call where the file held some is no quiet period,
        and fails ``fail_on`` whatever ``allow_empty`` says."""
        return held_out(self.unread)

    @property
    def texts_audited(self) -> int:
        """How many texts were audited as calls (``texts=``), apart from the calls."""
        return int(self.population["texts"].sum()) if "texts" in self.population else 0

    @property
    def empty(self) -> bool:
        """Whether no call (and no text) was audited (:attr:`calls_audited` is 0): a
        report to read as "nothing was checked", not as "nothing was wrong"."""
        return self.calls_audited == 0 and self.texts_audited == 0

    @property
    def summary(self) -> pd.DataFrame:
        """Per rule that ran and campaign: ``findings`` (of which ``law``, ``policy`` and
        ``risk``), what they are counted among (``audited`` of ``unit``: outbound calls,
        answered calls or leads) and ``rate``."""
        return summarised(self.findings, self.population, self.ran)

    @property
    def totals(self) -> pd.DataFrame:
        """The summary over every campaign, one row per rule that ran: ``findings`` (of
        which ``law``, ``policy`` and ``risk``), ``audited``, ``unit``, ``rate``,
        ``passed``, ``not_judged`` (the calls it could not judge: :attr:`unjudged`) and
        ``verdict`` (``broken``, ``not judged``, ``risks``, ``unchecked`` or ``passed``:
        a rule passed only where every call it applies to was read and none broke it)."""
        return with_verdicts(by_rule(self.summary), self.unjudged)

    @property
    def passed(self) -> pd.Series:
        """Per rule that ran: whether it found nothing and judged every call it applies
        to (a rule not judged for some calls has not passed)."""
        found = set(self.findings["rule"])
        unread = set(self.unjudged["rule"])
        return pd.Series({rule: rule not in found and rule not in unread
                          for rule in self.ran}, name="passed")

    @property
    def unjudged_said(self) -> list[str]:
        """Each row of :attr:`unjudged` in words, its rule first, in the reader's words
        (``rule: not judged for 3 calls: disposition 'Abandoned' not understood; map it:
        ...``)."""
        return [f"{rule}: " + self.spoken(text) for rule, text in rules_said(self.unjudged)]

    def to_csv(self, path: str | os.PathLike[str], *, mask_pii: bool = False,
               escape_formulas: bool = True) -> None:
        """Every finding as one CSV row (times in UTC).

        Ids and numbers come from the account's data and can hold a formula; by default
        a text cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
        return is written with a leading ``'`` so that a spreadsheet shows it as text
        (a whole E.164 number is left as it is; a masked one is text, and escaped).
        ``escape_formulas=False`` writes the values as they are, for programs.
        """
        write_csv(masked(self.findings, mask_pii), path, escape_formulas=escape_formulas)

    def to_excel(self, path: str | os.PathLike[str], *, mask_pii: bool = False,
                 about: Mapping[str, str] | None = None, names: Names = None) -> None:
        """The evidence workbook: a cover (what was audited: ``about``, e.g. the account
        and auditor, then how many calls were audited, the period asked for beside the
        data's own, the rules and their parameters and how abandonment was told), the
        summary, and one sheet per rule with every finding, headers frozen and filtered;
        ``mask_pii`` shows phone numbers as ``+1415*****23``; ``names`` (the campaigns,
        ``client.frames.campaigns()``, or their names by id) shows each campaign as
        ``Spring renewals (cmp_...)``."""
        write_workbook(self, path, mask_pii=mask_pii, about=about or {}, names=names)

    @overload
    def to_html(self, path: None = None, *, mask_pii: bool = ...,
                about: Mapping[str, str] | None = ..., names: Names = ...) -> str: ...
    @overload
    def to_html(self, path: str | os.PathLike[str], *, mask_pii: bool = ...,
                about: Mapping[str, str] | None = ..., names: Names = ...) -> None: ...
    def to_html(self, path: str | os.PathLike[str] | None = None, *, mask_pii: bool = False,
                about: Mapping[str, str] | None = None, names: Names = None) -> str | None:
        """One self-contained page: what was audited, the summary, a chart and the
        findings of each rule, campaigns by name and id when ``names`` are given (as
        :meth:`to_excel`); returned, or written to ``path`` and nothing returned, as
        pandas' ``to_html(buf)`` does (a notebook cell ending with it showed 150,000
        characters of HTML)."""
        body = page(self, mask_pii=mask_pii, about=about or {}, names=names)
        text = ("<!doctype html><meta charset='utf-8'><title>Compliance audit</title>"
                f"<style>{PAGE_STYLE}</style>{body}")
        if path is None:
            return text
        with written(path, "path") as partial:
            partial.write_text(text, encoding="utf-8")
        return None

    @property
    def by_basis(self) -> pd.Series:
        """How many findings law decides, how many the account's policy does (the
        violations), and how many are risks (a call that may have broken a law, a lead that
        could be called wrongly: no rule is known broken; :attr:`risks` counts them by what
        they are), by each finding's ``basis``: a count of findings, each in one."""
        counts = self.findings["basis"].value_counts()
        return pd.Series({basis: int(counts.get(basis, 0)) for basis in BASES},
                         name="findings")

    @property
    def risks(self) -> pd.Series:
        """The risks (:attr:`by_basis`' ``risk``) by what they are, each counted in its own
        unit: ``calls`` that may have broken a law (the data cannot tell: a campaign call
        without written consent to a number that may be wireless; the first call to a
        number of a state whose own Do-Not-Call list is required and was not given, one a
        number) and ``leads`` that could be called wrongly (listed, unscreened, an
        address state unread)."""
        return risk_counts(self.findings)

    def masked_findings(self) -> pd.DataFrame:
        """The findings with every phone number masked to its last digits, as the evidence
        written with ``mask_pii=True`` shows them: findings to share or print without the
        numbers (``dialkit compliance audit --mask-pii``)."""
        return masked(self.findings, True)

    def to_text(self) -> str:
        """The audit in plain text: how many findings, of law, of policy and risks, then
        the period asked for (``since=``, ``until=``) with its dates, then per rule the
        findings (law's, policy's, risks), among how many calls or leads, the rate and the
        verdict, then each note (a rule that did not run and why), a line each.

        Examples:
            >>> calls = pd.DataFrame({
            ...     "id": ["call_1"], "direction": "outbound", "from_number": "+14155550100",
            ...     "to_number": "+12125550123", "created_at": pd.Timestamp("2026-06-01T15:00Z"),
            ...     "answered_at": pd.NaT, "ended_at": pd.Timestamp("2026-06-01T15:00:30Z"),
            ...     "campaign_id": "cmp_1",
            ...     "disposition": None})
            >>> from dialkit.compliance import audit
            >>> print(audit(calls).to_text())  # doctest: +ELLIPSIS +NORMALIZE_WHITESPACE
            0 findings: 0 of law, 0 of policy, 0 risks (US federal and state law (TSR,
            TCPA, state statutes))
            verdicts: 0 rules broken, 1 with nothing to check, 8 passed
                      findings law policy risk audited of rate not judged verdict
            rule
            calling_hours        0 0 0 0 1 outbound calls 0.00% passed
            ...
            unverified_caller_id: not run: pass verified_caller_ids=
            ...
        """
        notes = (f"{rule}: {note}" for rule, note in self.notes.items())
        totals = self.totals
        return "\n".join([*([self.empty_said] if self.empty else []),
                          f"{bases_text(self.by_basis, self.risks)} ({self.rules.name})",
                          *period_said(self.period), verdicts_said(totals),
                          totals_text(totals), *self.unjudged_said, *notes])

    @property
    def empty_said(self) -> str:
        """What a report of no call says first, in its text, on the workbook's cover and
        at the top of its page: which values held its calls out, where some did, not the
        period asked for (:data:`EMPTY`)."""
        return EMPTY if not self.held_out else self.spoken(values_said(self.unread))

    def _repr_html_(self) -> str:
        return page(self, mask_pii=False, about={}, shown=5)

    def __repr__(self) -> str:
        counts = self.findings["rule"].value_counts()
        shown = ", ".join(f"{rule} {counts[rule]}" for rule in RULE_IDS if rule in counts)
        law, policy, risk = self.by_basis
        empty = f" {EMPTY.split(':')[0]}:" if self.empty else ""
        unread = self.unjudged["rule"].nunique()
        return (f"<AuditReport {self.rules.name}:{empty} "
                f"{counted(len(self.findings), 'finding')} ({law} law, {policy} policy, "
                f"{risk} risk): {shown or 'none'}"
                + (f"; {counted(unread, 'rule')} not judged for some calls" if unread else "")
                + ">")
