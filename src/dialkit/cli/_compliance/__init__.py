"""``dialkit compliance audit``, ``upcoming``, ``when`` and ``watch``: the audit of
:mod:`dialkit.compliance` from a shell, on an account or on exported frames; the calls the
account has scheduled, judged before they happen; when numbers may be called; and the
findings of a webhook receiver's store as its events land (:mod:`._watch`).
What the commands share is :mod:`._options`."""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from dialkit._files._outputs_written import refuse_overlaps
from dialkit._utils._base_error import ComplianceRiskWarning, InputError
from dialkit._utils._choices import (
    AUDIT_INPUTS,
    FAIL_ON,
    FILES,
    NOT_JUDGED_EXIT,
    POLICY_NAMES,
    PRESET_NAMES,
)
from dialkit.cli._compliance._options import (
    EXPORT,
    OFF_THE_ACCOUNT,
    AcceptCountries,
    AcceptUnjudged,
    BlockedCountries,
    Maps,
    Policy,
    PolicyCap,
    PolicyWindow,
    Preset,
    Words,
    fail,
    fail_on_told,
    found_said,
    given_options,
    in_words,
    library_errors,
    values_said,
)
from dialkit.cli._compliance._watch import watch_command
from dialkit.cli._shared import Csv, Json, offering, printed

if TYPE_CHECKING:  # the commands import them when they run: a TAB needs none
    import pandas as pd

    from dialkit.compliance import AuditReport

compliance_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None)


def _read_by(given: dict[str, Any], own: dict[str, Path | None]) -> dict[str, Path | None]:
    """What each option of a file a command was given reads (its own, by its flag:
    ``--calls``, and the inputs' ``given``), as :func:`refuse_overlaps` names it: no output
    may replace one."""
    return {f"what {flag} reads": path for flag, path in (
        *own.items(),
        *((each.flag, given[each.name]) for each in AUDIT_INPUTS
          if each.kind in FILES and each.name in given))}


@compliance_app.command("audit")
@given_options()
def audit_command(
    calls: Annotated[Path | None, typer.Option(metavar="FILE", help=(
        "The account's calls: an export of client.frames.calls(), CSV or Parquet, or the "
        "folder of a dialkit.frames.export dataset (audited on Dask where it is "
        "installed). Without it, the account's history is audited."))] = None,
    blocked_countries: BlockedCountries = "",
    preset: Annotated[str, typer.Option(metavar="PRESET", autocompletion=offering(
        PRESET_NAMES), help=(
        "The law: us (federal and each state's), uk, ca (each call by the law of the "
        "place called; they differ in abandonment's period) or us-federal (the federal "
        "rule alone)."))] = "us",
    policy: Annotated[str | None, typer.Option(metavar="POLICY", autocompletion=offering(
        POLICY_NAMES), help=(
        "Add the account's own stricter rule, reported as policy: house-rules (08:00-21:00 "
        "for every call, at most 3 calls a day: what the presets once applied)."))] = None,
    policy_window: PolicyWindow = None, policy_cap: PolicyCap = None,
    fail_on: Annotated[list[str] | None, typer.Option(
        metavar="BASIS", autocompletion=offering(FAIL_ON),
        help=(
        "Exit 1 when the audit finds what is named: law (a violation the law decides), "
        "any (any violation, the policy's too) or risk (a call that may have broken a "
        "law, which the data cannot tell, or a lead that could be called wrongly: "
        "listed, unscreened or of an unread address state); repeat the option to stop "
        "on several; law and any also stop on a rule not judged for some calls (exit "
        "3 where nothing else stops). For CI and cron."))] = None,
    accept_unjudged: AcceptUnjudged = None,
    out: Annotated[Path | None, typer.Option(metavar="FINDINGS", help=(
        "Write one row per finding (CSV)."))] = None,
    workbook: Annotated[Path | None, typer.Option(metavar="EVIDENCE", help=(
        "Write the evidence workbook (.xlsx)."))] = None,
    html: Annotated[Path | None, typer.Option(metavar="REPORT", help=(
        "Write the report as one HTML page."))] = None,
    mask_pii: Annotated[bool, typer.Option("--mask-pii", help=(
        "Show phone numbers as +1415*****23 in the files written."))] = False,
    raw_csv: Annotated[bool, typer.Option("--raw-csv", help=(
        "Write the findings' cells as they are, for programs; by default a text cell "
        "starting with = + - @, a tab or a carriage return gets a leading ' (a "
        "spreadsheet shows it as text)."))] = False,
    campaign: Annotated[list[str] | None, typer.Option(metavar="ID", help=(
        "Audit this campaign only (repeat for several)."))] = None,
    since: Annotated[str | None, typer.Option(metavar="TIME", help=(
        "Audit calls placed from then on, each judged against the calls before it: an "
        "ISO 8601 date or time (2026-11-01, "
        "2026-11-01T09:00-05:00; a time needs its zone, a date starts at midnight UTC), "
        "today or yesterday (from midnight UTC), or a time back from now: 30d, 7d, "
        "12h."))] = None,
    until: Annotated[str | None, typer.Option(metavar="TIME", help=(
        "Audit calls placed before then, in the same forms (--until today: up to "
        "midnight UTC)."))] = None,
    as_of: Annotated[str | None, typer.Option("--as-of", metavar="TIME", help=(
        "When the audit looks from, an ISO 8601 date or time with its zone (default now): "
        "the DNC checks' scrub age, and evidence dated after it read the stricter way. "
        "For an export audited later, the day it was exported."))] = None,
    allow_empty: Annotated[bool, typer.Option("--allow-empty", help=(
        "Let --fail-on pass an audit of no call (a quiet period); without it, an audit "
        "of no call fails --fail-on, for it checked nothing. Never one whose calls were "
        "held out for a direction not understood."))] = False,
    value: Words = None, mapping: Maps = None,
    about: Annotated[list[str] | None, typer.Option(metavar="KEY=VALUE", help=(
        "What the workbook's cover and the HTML report say first, as about= in Python: "
        "account=Acme,auditor=J. Smith (repeat the option for a value with a "
        "comma)."))] = None,
    sandbox: Annotated[bool, typer.Option("--sandbox", help=(
        "Audit the local emulator's account instead of DIALKIT_API_KEY's."))] = False,
    as_json: Json = False, as_csv: Csv = False, *, given: dict[str, Any],
) -> None:
    """Audit calls, leads and DNC results against the law of the place called (and a
    policy, if given); print the findings by rule, law's, policy's and the risks apart
    (with --json or --csv: every finding, a row each). Exits 0 whether or not there are
    findings, unless --fail-on names what was found (exit 1), or a rule it stops on was
    not judged for some calls and nothing else stops (exit 3); 2 on bad input."""
    from dialkit.compliance import run_audit

    with _output_errors():  # before anything is read: no output may replace an input
        refuse_overlaps({"--out": out, "--workbook": workbook, "--html": html},
                        _read_by(given, {"--calls": calls}))
    told = _about(about or [])
    with library_errors():
        run = run_audit(calls=calls, sandbox=sandbox, preset=preset, policy=policy,
                        policy_window=policy_window, policy_cap=policy_cap,
                        blocked_countries=blocked_countries, campaign_id=campaign,
                        since=since, until=until, as_of=as_of, fail_on=fail_on or (),
                        allow_empty=allow_empty, accept_unjudged=accept_unjudged or (),
                        values=value, mapping=mapping, **given)
    report, about_report = _in_flags(run.report), {**told, **run.service}
    with _output_errors():
        if out is not None:
            report.to_csv(out, mask_pii=mask_pii, escape_formulas=not raw_csv)
        if workbook is not None:
            report.to_excel(workbook, mask_pii=mask_pii, about=about_report, names=run.names)
        if html is not None:
            report.to_html(html, mask_pii=mask_pii, about=about_report, names=run.names)
    found = report.masked_findings() if mask_pii else report.findings
    said = values_said(report.to_text())
    if not printed(found, as_json=as_json, as_csv=as_csv):
        typer.echo(said)
    if run.unchecked and report.held_out:
        fail_on_told(fail_on, f"{said.splitlines()[0]} (--allow-empty passes a quiet "
                     "period, not calls not understood)")
    elif run.unchecked:
        fail_on_told(fail_on, "0 calls audited, nothing was checked (pass --allow-empty if "
                     "a period without calls is fine)")
    elif run.found:
        fail_on_told(fail_on, found_said(run.found))
    if run.not_judged:
        fail_on_told(fail_on, in_words(run.not_judged_said))
    if run.failed:
        raise typer.Exit(1 if run.unchecked or run.found else NOT_JUDGED_EXIT)


def _in_flags(report: AuditReport) -> AuditReport:
    """``report`` with its notes in the command's words (``pass --texts FILE``, where the
    library says ``pass texts= (client.frames.sms_reports())``), for what it prints and
    every file it writes: the workbook's cover and the HTML page once told a shell user
    which Python arguments to pass."""
    from dataclasses import replace

    return replace(report, notes={rule: in_words(note) for rule, note in report.notes.items()},
                   spoken=in_words)



def _about(given: list[str]) -> dict[str, str]:
    """``--about account=Acme,auditor=J. Smith`` as the cover's items, in order: a comma
    starts a new item only before a ``KEY=``, so a value may hold one."""
    items: dict[str, str] = {}
    for text in given:
        for item in re.split(r",\s*(?=[^,=]+=)", text):
            key, sep, value = item.partition("=")
            if not sep or not key.strip():
                fail(f"--about {text!r}: pass KEY=VALUE items, comma-separated, e.g. "
                      "account=Acme,auditor=J. Smith")
            items[key.strip()] = value.strip()
    return items



@contextmanager
def _output_errors() -> Iterator[None]:
    """An output refused (it would replace an input) or that could not be written (a
    full disk) ends the command with ``error: ...`` naming it, exit status 2; nothing of
    it is left (:func:`dialkit._files._outputs_written.written`)."""
    try:
        yield
    except InputError as error:
        fail(str(error))
    except OSError as error:
        fail(f"{error.filename}: {error.strerror}")



@compliance_app.command("upcoming")
@given_options("upcoming")
def upcoming_command(
    callbacks: Annotated[Path | None, typer.Option(metavar="FILE", help=(
        "The pending callbacks (client.frames.callbacks(campaign_id, status='pending')): "
        f"{EXPORT}. With --calls and --leads, the exports are judged instead of the "
        "account."))] = None,
    calls: Annotated[Path | None, typer.Option(metavar="FILE", help=(
        f"The account's calls (client.frames.calls()): {EXPORT}. With --leads and "
        "--callbacks, the exports are judged instead of the account (the leads' next "
        "attempts and the callbacks, beside the calls made)."))] = None,
    campaign: Annotated[list[str] | None, typer.Option(metavar="ID", help=(
        "Only this campaign's scheduled calls (repeat for several)."))] = None,
    horizon: Annotated[str, typer.Option(metavar="SPAN", help=(
        "How far ahead to look, a number and its unit: 7d, 48h, 90min, 2w."))] = "7d",
    as_of: Annotated[str | None, typer.Option("--as-of", metavar="TIME", help=(
        "When to look from, an ISO 8601 date or time with its zone (default now): for "
        "exports, when they were exported."))] = None,
    blocked_countries: BlockedCountries = "", accept_unjudged: AcceptCountries = None,
    preset: Preset = "us", policy: Policy = None,
    out: Annotated[Path | None, typer.Option(metavar="FINDINGS", help=(
        "Write one row per finding (CSV)."))] = None,
    sandbox: Annotated[bool, typer.Option("--sandbox", help=(
        "Look at the local emulator's account instead of DIALKIT_API_KEY's."))] = False,
    as_json: Json = False, as_csv: Csv = False,
    fix: Annotated[bool, typer.Option("--fix", help=(
        "Print the plan that fixes them: move, cancel or leave alone each."))] = False,
    apply: Annotated[bool, typer.Option("--apply", help=(
        "With --fix: carry the plan out, each action once however often it is run."))
    ] = False,
    strategy: Annotated[str, typer.Option(metavar="STRATEGY", help=(
        "With --fix: next_allowed (the first lawful moment) or best (the lawful hour "
        "most often answered)."))] = "next_allowed", value: Words = None,
    mapping: Maps = None, *, given: dict[str, Any],
) -> None:
    """Judge the calls the account has scheduled (pending callbacks, leads' next attempts)
    before they happen, as the audit judges calls made (or those of exports: --calls,
    --leads, --callbacks); print those that would break a rule, soonest first, or with
    --fix the plan that fixes them. Exits 0 either way (1 if --apply had an action
    refused); 2 on bad input."""
    from dialkit.compliance import run_upcoming
    from dialkit.frames import write_csv

    with _output_errors():  # before anything is read: no output may replace an input
        refuse_overlaps({"--out": out},
                        _read_by(given, {"--calls": calls, "--callbacks": callbacks}))
    with library_errors():
        run = run_upcoming(sandbox=sandbox, campaign_id=campaign, horizon=horizon,
                           as_of=as_of, blocked_countries=blocked_countries,
                           accept_unjudged=accept_unjudged or (), preset=preset,
                           policy=policy, calls=calls, callbacks=callbacks, fix=fix,
                           strategy=strategy, apply=apply, values=value, mapping=mapping,
                           prefer=_answer_rates if strategy == "best" else None, **given)
    _noted(run.found)
    if run.plan is not None:
        return _fixed(run.plan, run.refused, apply, as_json, as_csv)
    found = run.found.assign(evidence=run.found["evidence"].map(in_words))  # a no_law_held
    if out is not None:  # row says how to accept its country: in the command's flags
        with _output_errors():
            write_csv(found, out, option="--out")
    if printed(found, as_json=as_json, as_csv=as_csv):
        return
    typer.echo(f"{len(found)} scheduled calls would break a rule in the next {horizon} "
               f"({(found['basis'] == 'law').sum()} of law)")
    for row in found.itertuples():
        typer.echo(f"  in {_span(row.due_in)}  {_acted_on(row)}  {row.rule}  {row.basis}: "
                   f"{row.evidence}")


def _answer_rates(client: Any) -> Any:
    """``upcoming --strategy best``'s preference: the account's answer rates by hour."""
    from dialkit.analytics import answer_rates

    return answer_rates(client.frames.calls())


def _fixed(plan: Any, refused: int, apply: bool, as_json: bool, as_csv: bool) -> None:
    """``upcoming --fix``: the plan of :func:`dialkit.compliance.repair`, printed (exit 1
    if the service refused an action it carried out)."""
    if not printed(plan, as_json=as_json, as_csv=as_csv):
        counts = plan["action"].value_counts()
        typer.echo(f"{len(plan)} scheduled calls to fix: {counts['reschedule']} to move, "
                   f"{counts['cancel']} to cancel, {counts['leave']} to leave alone"
                   + (f"; carried out, {refused} refused" if apply else
                      " (a dry run: --apply carries it out)"))
        for row in plan.itertuples():
            typer.echo(f"  {_planned(row)}  [{row.status}]")
    if refused:
        raise typer.Exit(1)


def _planned(row: Any) -> str:
    """One plan row as a sentence: what is done to what, and why or to when."""
    if row.action == "reschedule":
        return (f"move {_acted_on(row)} from {row.at:%Y-%m-%d %H:%M} UTC to "
                f"{row.new_at:%Y-%m-%d %H:%M} UTC ({row.new_local_time[11:16]} "
                f"{row.timezone})")
    return f"{row.action} {_acted_on(row)}: {row.reason}"


def _acted_on(row: Any) -> str:
    """What a user acts on for a scheduled call: the callback (to reschedule or cancel it)
    and its lead, or the lead whose next attempt it is."""
    if row.kind == "callback":  # a plan's row (upcoming --fix) names it callback_id
        callback = row.callback_id if hasattr(row, "callback_id") else row.call_id
        return f"callback {callback} of lead {row.lead_id}"
    return f"next attempt of lead {row.lead_id}"


@compliance_app.command("when")
@given_options("next_allowed", OFF_THE_ACCOUNT)
def when_command(
    numbers: Annotated[list[str] | None, typer.Argument(metavar="[NUMBER]...", help=(
        "Numbers in E.164: +14155550123 (with --leads: default every lead)."))] = None,
    at: Annotated[str | None, typer.Option(metavar="TIME", help=(
        "The moment asked about, an ISO 8601 date or time with its zone "
        "(2026-11-22T19:00-05:00, or Z for UTC), or read in --tz; default now."))] = None,
    tz: Annotated[str | None, typer.Option(metavar="ZONE", help=(
        "The zone --at is read in where it has none: America/New_York. Without it, a "
        "time without a zone is refused."))] = None,
    calls: Annotated[Path | None, typer.Option(metavar="FILE", help=(
        f"The account's calls (client.frames.calls()): {EXPORT}. A call a cap would "
        "count too many is not allowed until the cap frees the number."))] = None,
    campaign: Annotated[str | None, typer.Option(metavar="ID", help=(
        "The campaign the call would be of, for caps counted per subject (default: the "
        "number's latest call's)."))] = None,
    leads: Annotated[Path | None, typer.Option(metavar="FILE", help=(
        f"The account's leads (client.frames.leads()): {EXPORT}. The leads of the "
        "numbers are asked about as the audit reads them: their address state, line, "
        "the person their other numbers link them to, the consents and contracts naming "
        "them."))] = None,
    preset: Preset = "us", policy: Policy = None, value: Words = None, mapping: Maps = None,
    accept_unjudged: AcceptCountries = None,
    as_json: Json = False, as_csv: Csv = False, *, given: dict[str, Any],
) -> None:
    """Whether each number may be called now (or --at TIME) by the law of the place called
    (and, given them, by the account's calls, texts, DNC results and what lifts a list)
    and, if not, the next moment it may, in UTC and on the recipient's clock; every zone
    of the number is named where it has several. A number of a country whose law the
    preset does not hold is not judged, unless --accept-unjudged names its country."""
    import pandas as pd

    from dialkit.compliance import run_when

    if not numbers and leads is None:
        raise typer.BadParameter("give numbers to ask about, or --leads FILE",
                                 param_hint="NUMBER")
    with library_errors(), warnings.catch_warnings():
        warnings.simplefilter("ignore", ComplianceRiskWarning)  # each line says its risk
        answers = run_when(numbers or [], at=at, tz=tz, preset=preset, policy=policy,
                           calls=calls, campaign_id=campaign, leads=leads, values=value,
                           mapping=mapping, accept_unjudged=accept_unjudged or (), **given)
    _noted(answers)
    if printed(answers, as_json=as_json, as_csv=as_csv):
        return
    for row in answers.itertuples():
        unread = not row.judged and pd.isna(row.next_allowed_at)  # judged in no zone
        zones = "" if unread or pd.isna(row.timezones) or "," not in row.timezones else (
            f"; judged in each of its zones: {row.timezones}")
        asked = row.phone if pd.isna(getattr(row, "lead_id", None)) else (
            f"{row.phone} (lead {row.lead_id})")
        if row.allowed:
            risk = "" if pd.isna(row.risk) else f"; a risk: {row.risk}"
            unread = "" if row.judged else ", by no law read: its country is accepted unjudged"
            typer.echo(f"{asked}: allowed{unread} ({row.next_local_time[:16]} {row.timezone}"
                       f"{zones}{risk})")
        elif pd.isna(row.next_allowed_at):  # a country not judged says how to accept it
            typer.echo(f"{asked}: not allowed ({in_words(row.forbidden_by)}); no allowed "
                       f"moment is known{zones}")
        else:
            typer.echo(f"{asked}: not allowed ({row.forbidden_by}); next allowed "
                       f"{row.next_allowed_at:%Y-%m-%d %H:%M} UTC, {row.next_local_time[:16]} "
                       f"{row.timezone}{zones}")


def _noted(answer: pd.DataFrame) -> None:
    """The notes of a judge's answer (``attrs["notes"]``: what was read as what), on
    standard error in the command's words, so that ``--json`` and ``--csv`` stay data."""
    for note in answer.attrs.get("notes", {}).values():
        typer.echo(f"note: {in_words(note)}", err=True)


def _span(left: pd.Timedelta) -> str:
    """A time left as a person says it: ``2 d 3 h``, ``45 min``."""
    minutes = max(int(left.total_seconds() // 60), 0)
    days, hours, mins = minutes // 1440, minutes % 1440 // 60, minutes % 60
    return f"{days} d {hours} h" if days else f"{hours} h {mins} min" if hours else f"{mins} min"


compliance_app.command("watch")(watch_command)
