"""The compliance commands' work as library calls: what ``dialkit compliance audit``,
``upcoming`` and ``when`` decide from their options (the law and policy named, the
period, the files or the account, what fails a run), taken as plain Python values, so a
notebook or a scheduler gets the command's answer without a shell (the CLI
parses, calls one of these, prints).

The choices are the options' own: a preset and a policy by name (or as :class:`Rules`),
a policy window as ``"HH:MM-HH:MM"``, a period in :func:`audit`'s words (``30d``,
``yesterday``, an ISO time), ``fail_on`` by the names ``law``, ``any``, ``risk``. Each is
checked before a file is read or the account reached (:mod:`._command_choices`), and
refused as an :class:`~dialkit.errors.InputError` naming the argument.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from .._utils._base_error import AuditInputError
from .._utils._choices import FRAME, RECORDS
from .._utils._moments import duration, utc_moment
from ._command_choices import (
    FRAME_INPUTS,
    RECORD_INPUTS,
    Source,
    as_of_moment,
    check_bounds,
    client_of,
    fail_on_read,
    found_on,
    given_read,
    mapping_read,
    named_by_path,
    of_kind,
    policy_rules,
    preset_rules,
    read_whole_file,
    values_read,
)
from ._rules._rules import Rules

if TYPE_CHECKING:
    import pandas as pd

    from ..client import Client
    from ._report._audit_report import AuditReport

@dataclass(frozen=True)
class AuditRun:
    """What :func:`run_audit` found, and whether the run fails as ``fail_on`` asked.

    Attributes:
        report: The audit.
        service: What the evidence's cover says of the service audited (``{"service":
            ...}`` for an account; empty for files).
        names: The account's campaigns' names by id, for the evidence (``None`` for
            files).
        found: Each basis ``fail_on`` stops on that the audit found, with its count of
            findings, in ``fail_on``'s order.
        unchecked: ``fail_on`` was given and the audit saw no call, without
            ``allow_empty``: it checked nothing, so it fails.
        not_judged: Each rule not judged that ``fail_on`` stops on (``law``, ``any``),
            with its calls not judged, those ``accept_unjudged`` accepts left out: a rule
            that could not read some calls has not passed them.
    """

    report: AuditReport
    service: dict[str, str] = field(default_factory=dict)
    names: dict[str, str] | None = None
    found: dict[str, int] = field(default_factory=dict)
    unchecked: bool = False
    not_judged: dict[str, int] = field(default_factory=dict)

    @property
    def failed(self) -> bool:
        """Whether the run fails ``fail_on``: a basis it names found, nothing checked, or a
        rule not judged."""
        return self.unchecked or bool(self.found) or bool(self.not_judged)

    @property
    def not_judged_said(self) -> str:
        """:attr:`not_judged` in words, as ``--fail-on`` says why it stopped: ``2 rules not
        judged: abandonment (3 calls), ...``."""
        from ._checks._unread._unjudged import failing_said

        return failing_said(self.not_judged)


def run_audit(*, calls: Source | None = None, client: Client | None = None,
              sandbox: bool = False, preset: str | Rules = "us",
              policy: str | Rules | None = None, policy_window: str | None = None,
              policy_cap: int | None = None, blocked_countries: str | Collection[str] = (),
              campaign_id: str | Sequence[str] | None = None, since: str | None = None,
              until: str | None = None, as_of: str | None = None,
              fail_on: Iterable[str] = (), allow_empty: bool = False,
              accept_unjudged: str | Collection[str] = (),
              values: Mapping[str, Mapping[str, str | None]] | Iterable[str] | None = None,
              mapping: Mapping[str, str] | Iterable[str] | None = None,
              **given: Any) -> AuditRun:
    """``dialkit compliance audit`` as one call: the audit of exported files, or of an
    account's history, against the law and policy named, judged against ``fail_on``.

    The command's choices are each taken as the command takes them, so a scheduled job
    can run the same audit the shell runs, and stop on the same findings, without
    building rules, reading files and loading pages itself.

    Args:
        calls: The calls' export (CSV, Parquet, or a ``dialkit.frames.export`` folder);
            with the other frames' exports (``leads``, ``dnc``, ``texts``), the files
            audited. None of them: the account.
        client: The account to audit where no file is given; default ``Client.sandbox()``
            with ``sandbox``, else ``Client()`` (``DIALKIT_API_KEY``), closed after.
        sandbox: Audit the local emulator's account.
        preset: The law: ``us``, ``uk``, ``ca``, ``us-federal`` (:data:`PRESETS`), or
            :class:`Rules`.
        policy: The account's own stricter rule: a name of :data:`POLICIES` or
            :class:`Rules`.
        policy_window: A policy calling window for every call, ``"HH:MM-HH:MM"``.
        policy_cap: A policy cap of calls per number in any 24 hours. With ``policy``,
            the stricter of each.
        blocked_countries: Countries calls must not reach, as :func:`audit` takes them.
        campaign_id: Audit these campaigns only.
        since: Audit calls placed from then on (:func:`audit`'s ``since``).
        until: Audit calls placed before then.
        as_of: When the audit looks from (:func:`audit`'s ``as_of``); default now.
        fail_on: ``law``, ``any`` (every violation, the policy's too) or ``risk``: what
            makes :attr:`AuditRun.failed` true.
        allow_empty: Let an audit of no call pass ``fail_on`` (a quiet period); never
            one whose calls an unknown ``direction`` held out (:attr:`AuditReport.held_out`):
            that is no quiet period but calls not understood.
        accept_unjudged: What may stay not judged without failing ``fail_on``: countries
            (``FR``, ``France``: their calls' rules of the place called, and their
            ``no_law_held`` risks) and rules (``abandonment``: every reason it was not
            judged), a list or one comma-separated text. Accepted, they are still
            reported.
        values: What another tool's words mean (:func:`audit`'s ``values``), or as the
            command takes them, ``COLUMN:WORD=VALUE`` each (``disposition:Sale Made=sale``;
            ``disposition:Dropped=``: no value).
        mapping: Which column of an export holds a column the audit reads
            (:func:`audit`'s ``mapping``), or as the command takes them, ``COLUMN=HEADER``
            each (``to_number=Dialed``, ``dnc.checked_at=Scrub Date``).
        **given: Every other input of :func:`audit`, by its keyword, as its option gives
            it (each declared once, :data:`dialkit._utils._choices.AUDIT_INPUTS`, so an
            input added there is taken here too; docs/compliance.md lists them): an export
            of one of the account's frames (``leads``, ``dnc``, ``texts``), which needs
            ``calls`` (on the account, its own are read); a file of its records
            (``consents``, ``reassigned``); the caller ids or a file of them (one per
            line, or a CSV's first column; ``verified_caller_ids``, by default the
            emulator's for its account); a fact (``nonprofit=True``).

    Returns:
        The :class:`AuditRun`.

    Raises:
        AuditInputError: An argument refused, or a file that cannot be read or used
            (its message starts with the file's path).
        InputError: A period bound or ``as_of`` that is not one.
        TypeError: A keyword that names no input of :func:`audit`.
        ApiError: The account could not be read.
    """
    from ._checks._unread._unjudged import accepted_keys, accepted_risks, failing

    rules = preset_rules(preset)
    named = fail_on_read(fail_on)
    accepting = accepted_keys(accept_unjudged)
    options: dict[str, Any] = {"rules": rules, "blocked_countries": blocked_countries,
                               "policy": policy_rules(policy, policy_window, policy_cap),
                               "values": values_read(values), "mapping": mapping_read(mapping),
                               **given_read(given, "run_audit", "audit")}
    if as_of is not None:
        options["as_of"] = utc_moment(as_of, "as_of")
    period = {"campaign_id": campaign_id or None, "since": since, "until": until}
    files = {"calls": calls, **of_kind(given, FRAME)}
    service: dict[str, str] = {}
    names: dict[str, str] | None = None
    with named_by_path({**files, **of_kind(given, RECORDS)}):
        if any(value is not None for value in files.values()):
            report = _files_audited(files, options, period)
        else:
            report, service, names = _account_audited(client, sandbox, options, period)
    counted = accepted_risks(report.findings, accepting)["basis"].value_counts()
    return AuditRun(report, service, names, found=found_on(counted, named),
                    unchecked=bool(named) and report.empty and (
                        not allow_empty or bool(report.held_out)),
                    not_judged=failing(report.unjudged, named, accepting))


def _files_audited(files: Mapping[str, Source | None], options: dict[str, Any],
                   period: dict[str, Any]) -> AuditReport:
    """The audit of exported files; the period refused before a file is read."""
    from ._entry import audit
    from ._inputs._read import read_source

    if files["calls"] is None:
        needing = [f"{name}=" for name in FRAME_INPUTS]
        raise AuditInputError(f"calls= is needed with {', '.join(needing[:-1])} or "
                              f"{needing[-1]}")
    check_bounds(period)
    frames: dict[str, Any] = {name: read_source(path) for name, path in files.items()
                              if path is not None}
    report: AuditReport = audit(**frames, **options, **period)
    return report


def _account_audited(client: Client | None, sandbox: bool, options: dict[str, Any],
                     period: dict[str, Any],
                     ) -> tuple[AuditReport, dict[str, str], dict[str, str] | None]:
    """The audit of an account's history, what the cover says of the service, and the
    campaigns' names; the period refused before the account is reached."""
    from ._entry import audit
    from ._inputs._load import load, readable_campaign_names

    check_bounds(period)
    with ExitStack() as stack:
        client = client_of(stack, client, sandbox)
        if client.emulator is not None:  # the emulator knows the account's caller ids
            options.setdefault("verified_caller_ids", client.emulator.caller_ids())
        report = audit(**load(client, **period, rules=options["rules"]), **options)
        return report, {"service": client.service_identity}, readable_campaign_names(client)


@dataclass(frozen=True)
class UpcomingRun:
    """What :func:`run_upcoming` found, and the plan that fixes it where asked.

    Attributes:
        found: :func:`upcoming`'s answer: the scheduled calls that would break a rule.
        plan: :func:`repair`'s plan (carried out with ``apply``); ``None`` without ``fix``.
    """

    found: pd.DataFrame
    plan: pd.DataFrame | None = None

    @property
    def refused(self) -> int:
        """How many of the plan's actions the service refused (0 without a plan)."""
        if self.plan is None:
            return 0
        return int(self.plan["status"].str.startswith("failed").sum())


def run_upcoming(client: Client | None = None, *, sandbox: bool = False,
                 campaign_id: str | Sequence[str] | None = None, horizon: str = "7d",
                 preset: str | Rules = "us", policy: str | Rules | None = None,
                 blocked_countries: str | Collection[str] = (), as_of: str | None = None,
                 accept_unjudged: str | Collection[str] = (),
                 calls: Source | None = None, callbacks: Source | None = None,
                 fix: bool = False, strategy: str = "next_allowed", apply: bool = False,
                 prefer: pd.DataFrame | Callable[[Client], pd.DataFrame] | None = None,
                 values: Mapping[str, Mapping[str, str | None]] | Iterable[str] | None = None,
                 mapping: Mapping[str, str] | Iterable[str] | None = None,
                 **given: Any) -> UpcomingRun:
    """``dialkit compliance upcoming`` as one call: the calls the account has scheduled
    that would break a rule within ``horizon``, and with ``fix`` the plan that fixes
    them (carried out with ``apply``), from the options' own values.

    Args:
        client: The account; default ``Client.sandbox()`` with ``sandbox``, else
            ``Client()``, closed after.
        sandbox: Look at the local emulator's account.
        campaign_id: Only these campaigns' scheduled calls.
        horizon: How far ahead to look: ``7d``, ``48h``, ``90min``, ``2w``.
        preset: The law, by name (:data:`PRESETS`) or as :class:`Rules`.
        policy: The account's own stricter rule, by name (:data:`POLICIES`) or as
            :class:`Rules`.
        blocked_countries: Countries calls must not reach, as :func:`audit` takes them.
        as_of: When to look from (default now), an ISO 8601 date or time with its zone:
            for an export, when it was exported.
        accept_unjudged: The countries whose law the preset does not hold that the account
            calls on purpose, as :func:`upcoming` takes them.
        calls: The calls' export (CSV, Parquet or a ``dialkit.frames.export`` folder);
            with ``leads`` and ``callbacks`` (``client.frames.callbacks(campaign_id,
            status="pending")``), and optionally ``dnc`` and ``texts``, the files judged
            instead of the account, as :func:`run_audit` judges exports.
        callbacks: The pending callbacks' export, with ``calls``.
        fix: Plan the fix too (:func:`repair`), on the account, told what ``upcoming``
            was told (:data:`._ahead._repair.REPAIR_TOLD`): a callback is moved to no
            moment inside a declared emergency given, and cancelled only where the list
            its number is on binds the call.
        strategy: With ``fix``: ``next_allowed`` or ``best`` (the hour most often
            answered; needs ``prefer``).
        apply: With ``fix``: carry the plan out.
        prefer: ``dialkit.analytics.answer_rates(client.frames.calls())`` for ``best``,
            or a function that makes it from the client, called only once the arguments
            were checked and the scheduled calls found (the command's way: a refused
            argument costs no read of the account's calls).
        values: What another tool's words mean, as :func:`run_audit` takes them.
        mapping: Which column of an export holds a column the judge reads, as
            :func:`run_audit` takes it.
        **given: Every other input :func:`upcoming` takes of the audit's, by its keyword,
            as its option gives it (the declaration's, :data:`AUDIT_INPUTS`: those it
            says ``upcoming`` takes): the exports of ``leads``, ``dnc`` and ``texts``
            (with ``calls``), the files of ``consents``, ``reassigned``, ``contracts``
            and ``emergencies``, and the facts (``nonprofit=True``, ...).

    Returns:
        The :class:`UpcomingRun`.

    Raises:
        AuditInputError: An argument refused (``apply`` or another ``strategy`` without
            ``fix``, an unknown ``strategy``, preset or policy; of exports, one of
            ``calls``, ``leads`` and ``callbacks`` missing, or ``fix``), or a file that
            cannot be read or used (named by its path).
        InputError: A ``horizon`` that is no length of time, an ``as_of`` that is no
            time, a fact neither True nor False.
        TypeError: A keyword that names no input :func:`upcoming` takes.
        ApiError: The account could not be read, or refused.
    """
    from ._ahead._repair import REPAIR_TOLD, repair
    from ._ahead._upcoming import upcoming
    from ._inputs._headers import read_as_note, readable

    if (apply or strategy != "next_allowed") and not fix:
        raise AuditInputError("apply= and strategy= go with fix=: add fix=True")
    if strategy not in ("next_allowed", "best"):
        raise AuditInputError(f"strategy={strategy!r}: pass next_allowed or best")
    rules, added = preset_rules(preset), policy_rules(policy, None, None)
    choices = {"horizon": duration(horizon, "horizon"), "rules": rules, "policy": added,
               "blocked_countries": blocked_countries, "as_of": as_of_moment(as_of),
               "campaign_id": campaign_id or None, "accept_unjudged": accept_unjudged}
    files = {"calls": calls, "callbacks": callbacks, **of_kind(given, FRAME)}
    exported = _exports(files, fix=fix)
    choices.update(given_read(given, "run_upcoming", "upcoming"))
    with named_by_path({**files, **of_kind(given, RECORDS)}), ExitStack() as stack:
        frames = {name: read_whole_file(path) for name, path in files.items()
                  if path is not None and name != "callbacks"}
        read, said = readable({**frames, **{name: choices[name] for name in RECORD_INPUTS
                                            if name in choices}},
                              mapping_read(mapping), values_read(values))
        choices.update({name: read[name] for name in RECORD_INPUTS if name in choices})
        if exported:
            found = upcoming({**{name: read[name] for name in frames},
                              "callbacks": read_whole_file(files["callbacks"])}, **choices)
            found.attrs["notes"] = read_as_note(said)
            return UpcomingRun(found)
        client = client_of(stack, client, sandbox)
        found = upcoming(client, **choices)
        found.attrs["notes"] = read_as_note(said)
        if not fix:
            return UpcomingRun(found)
        chosen: Literal["next_allowed", "best"] = "best" if strategy == "best" else "next_allowed"
        rates = prefer(client) if callable(prefer) else prefer
        told = {name: value for name, value in choices.items() if name in REPAIR_TOLD}
        return UpcomingRun(found, repair(found, client, strategy=chosen, dry_run=not apply,
                                         prefer=rates, policy=added, rules=rules, **told))


def _exports(files: Mapping[str, Source | None], *, fix: bool) -> bool:
    """Whether :func:`run_upcoming` judges exported files (any given) rather than the
    account; refused where they cannot be: without the calls, the leads (whose next
    attempts are scheduled calls) or the pending callbacks, or with ``fix`` (a plan moves
    the account's callbacks as they stand now, not as an export saw them)."""
    if all(path is None for path in files.values()):
        return False
    missing = [f"{name}=" for name in ("calls", "leads", "callbacks") if files.get(name) is None]
    if missing:
        named = " and ".join([", ".join(missing[:-1]), missing[-1]] if missing[1:] else missing)
        raise AuditInputError(f"{named} {'is' if len(missing) == 1 else 'are'} "
                              "needed to judge exported files: the scheduled calls are the "
                              "pending callbacks (callbacks=) and the leads' next attempts "
                              "(leads=), judged beside the calls made (calls=)")
    if fix:
        raise AuditInputError("fix= judges the account, not exported files: leave out "
                              "calls= and the files exported with it")
    return True


def run_when(numbers: Sequence[str], *, at: str | None = None, tz: str | None = None,
             preset: str | Rules = "us", policy: str | Rules | None = None,
             calls: Source | None = None, campaign_id: str | None = None,
             leads: Source | None = None,
             values: Mapping[str, Mapping[str, str | None]] | Iterable[str] | None = None,
             mapping: Mapping[str, str] | Iterable[str] | None = None,
             accept_unjudged: str | Collection[str] = (),
             **given: Any) -> pd.DataFrame:
    """``dialkit compliance when`` as one call: whether each number may be called ``at``
    (default now) and, if not, the next moment it may (:func:`next_allowed`).

    Args:
        numbers: Numbers in E.164; several are numbered from 1 in a refusal's message
            (``phones_or_leads[2]``: the second given).
        at: The moment asked about, ISO 8601 with its zone, or read in ``tz``.
        tz: The zone ``at`` is read in where it has none.
        preset: The law, by name (:data:`PRESETS`) or as :class:`Rules`.
        policy: The account's own stricter rule, by name or as :class:`Rules`.
        calls: The account's calls' export (CSV, Parquet or a ``dialkit.frames.export``
            folder): a cap the call would break forbids it until the cap frees the number.
        campaign_id: The campaign the call would be of, for caps counted per subject.
        leads: The account's leads' export: the leads of ``numbers`` are asked
            about as :func:`next_allowed` asks about leads (their address state, their
            line, the person their other numbers link them to, a consent or contract
            naming them by id), every lead where no number is given; a number no lead
            holds is asked about alone. Their answers come first, each with its
            ``lead_id``.
        values: What another tool's words mean, as :func:`run_audit` takes them.
        mapping: Which column of an export holds a column the judge reads, as
            :func:`run_audit` takes it; ``attrs["notes"]`` of the answer says what was
            read as what.
        accept_unjudged: The countries whose law the preset does not hold that the
            account calls on purpose, as :func:`next_allowed` takes them (``"FR, ES"``).
        **given: Every other input :func:`next_allowed` takes of the audit's, by its
            keyword, as its option gives it (the declaration's, :data:`AUDIT_INPUTS`:
            those it says ``next_allowed`` takes): the exports of ``dnc`` and ``texts``,
            the files of ``reassigned``, ``contracts`` and ``emergencies``, and the facts
            (``nonprofit=True``, ``charity=True``, ``newspaper=True``).

    Returns:
        :func:`next_allowed`'s answer, a row per number.

    Raises:
        AuditInputError: A preset or policy refused, or a file that cannot be read or
            used (named by its path).
        InputError: A moment or number that cannot be read, a fact neither True nor
            False.
        TypeError: A keyword that names no input :func:`next_allowed` takes.
    """
    import pandas as pd

    from ._ahead._when import next_allowed
    from ._inputs._headers import read_as_note, readable

    rules, added = preset_rules(preset), policy_rules(policy, None, None)
    moment = None if at is None else utc_moment(at, "at", tz=tz)
    inputs = given_read(given, "run_when", "next_allowed")
    files = {"calls": calls, "leads": leads, **of_kind(given, FRAME)}
    with named_by_path({**files, **of_kind(given, RECORDS)}):
        exported = {name: read_whole_file(path) for name, path in files.items() if path is not None}
        framed = {name: frame for name, frame in inputs.items() if name in RECORD_INPUTS}
        read, said = readable({**exported, **framed}, mapping_read(mapping), values_read(values))
        of_leads, alone = _asked_of(numbers, read.pop("leads", None))
        answers = [next_allowed(asked, moment, rules=rules, policy=added,
                                campaign_id=campaign_id, accept_unjudged=accept_unjudged,
                                **{**inputs, **read})
                   for asked in (of_leads, alone) if asked is not None]
    if not answers:
        raise AuditInputError(f"{leads}: holds no lead: give numbers, or a file of leads")
    answer = answers[0] if len(answers) == 1 else pd.concat(answers, ignore_index=True)
    answer.attrs["notes"] = read_as_note(said)
    return answer


def _asked_of(numbers: Sequence[str], leads: pd.DataFrame | None) -> tuple[Any, Any]:
    """What ``when`` asks :func:`next_allowed` about: the ``leads`` holding ``numbers``
    (every lead, with no numbers; None: no such lead), and the numbers no lead holds, one
    alone or a series numbered from 1 as given (None: none)."""
    import pandas as pd

    if leads is not None and "phone" not in leads:
        raise AuditInputError("leads has no column phone: pass client.frames.leads() or "
                              "an export with its columns", frame="leads")
    held = set() if leads is None else set(leads["phone"].astype(object))
    if leads is not None and numbers:
        leads = leads[leads["phone"].astype(object).isin(set(numbers)).to_numpy(bool)]
    alone = [number for number in numbers if number not in held]
    asked = None if not alone else alone[0] if len(alone) == 1 else pd.Series(
        alone, index=range(1, len(alone) + 1), dtype=object)
    return (leads if leads is not None and len(leads) else None), asked
