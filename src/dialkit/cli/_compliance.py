"""``dialkit compliance audit``, ``upcoming`` and ``when``: the audit of
:mod:`dialkit.compliance` from a shell, on an account or on exported frames; the calls the
account has scheduled, judged before they happen; and when numbers may be called."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, TypeVar

import typer

from dialkit._files._outputs_written import refuse_overlaps
from dialkit._shown._words import counted
from dialkit._utils._base_error import InputError
from dialkit._utils._choices import POLICY_NAMES, PRESET_NAMES, VIOLATIONS
from dialkit.cli._completion import offering
from dialkit.cli._flags import ACCOUNT_FLAGS, SANDBOX_FLAGS, cli_text
from dialkit.cli._output import Csv, Json, printed

if TYPE_CHECKING:  # the commands import them when they run: a TAB needs none (issue 48)
    import pandas as pd

    from dialkit.compliance import AuditReport, Rules
    from dialkit.errors import ApiError

AUDIT_FLAGS = {**ACCOUNT_FLAGS, **SANDBOX_FLAGS,
               "verified_caller_ids=": "--verified-caller-ids FILE",
               "blocked_countries holds": "--blocked-countries holds", "leads=": "--leads FILE",
               "dnc= (client.frames.dnc of the numbers)": "--dnc FILE",
               "consents= (the account's consent records)": "--consents FILE",
               "pass consents=": "pass --consents FILE", "pass leads= too": "pass --leads FILE too",
               "since=": "--since", "until=": "--until", "at=": "--at", "horizon=": "--horizon",
               "tz=": "--tz", "phones_or_leads": "NUMBER"}
"""The compliance commands' flags for the arguments the library's messages name."""

_T = TypeVar("_T")
compliance_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None)

Frame = Annotated[Path | None, typer.Option(metavar="FILE", help=(
    "An export of the frame, CSV or Parquet, with the columns of client.frames; or the "
    "folder of a dialkit.frames.export dataset (audited on Dask where it is installed)."))]


@compliance_app.command("audit")
def audit_command(
    calls: Frame = None, leads: Frame = None, dnc: Frame = None,
    verified_caller_ids: Annotated[Path | None, typer.Option(metavar="FILE", help=(
        "The account's verified caller ids, one per line (or a CSV's first column)."))] = None,
    consents: Annotated[Path | None, typer.Option(metavar="FILE", help=(
        "The account's consent records, CSV or Parquet: phone or lead_id, kind (written, "
        "ebr, oral), given_at, revoked_at. They exempt calls to listed numbers as each "
        "list's law says; a revocation is an opt-out."))] = None,
    reassigned: Annotated[Path | None, typer.Option(metavar="FILE", help=(
        "The reassigned numbers database's answers, CSV or Parquet: phone, asked_at, "
        "answer (yes, no, no_data); a yes voids the number's earlier consents."))] = None,
    blocked_countries: Annotated[str, typer.Option(metavar="CODES", help=(
        "Countries calls must not reach, codes or names, comma-separated: KP,IR."))] = "",
    preset: Annotated[str, typer.Option(metavar="PRESET", autocompletion=offering(
        PRESET_NAMES), help=(
        "The law: us (federal and each state's), uk, ca (each call by the law of the "
        "place called; they differ in abandonment's period) or us-federal (the federal "
        "rule alone)."))] = "us",
    policy: Annotated[str | None, typer.Option(metavar="POLICY", autocompletion=offering(
        POLICY_NAMES), help=(
        "Add the account's own stricter rule, reported as policy: house-rules (08:00-21:00 "
        "for every call, at most 3 calls a day: the presets before issue 37)."))] = None,
    policy_window: Annotated[str | None, typer.Option(metavar="HH:MM-HH:MM", help=(
        "Add a policy calling window for every call, recipient local time."))] = None,
    policy_cap: Annotated[int | None, typer.Option(metavar="N", min=1, help=(
        "Add a policy cap: at most N outbound calls per number in any 24 hours."))] = None,
    fail_on: Annotated[list[str] | None, typer.Option(  # FAIL_ON, below: read at a TAB
        metavar="BASIS", autocompletion=lambda incomplete: offering(FAIL_ON)(incomplete),
        help=(
        "Exit 1 when the audit finds what is named: law (a violation the law decides), "
        "any (any violation, the policy's too) or risk (a lead that could be called "
        "wrongly: listed or unscreened, which no law forbids holding); repeat the "
        "option to stop on several. For CI and cron."))] = None,
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
    allow_empty: Annotated[bool, typer.Option("--allow-empty", help=(
        "Let --fail-on pass an audit of no call (a quiet period); without it, an audit "
        "of no call fails --fail-on, for it checked nothing."))] = False,
    about: Annotated[list[str] | None, typer.Option(metavar="KEY=VALUE", help=(
        "What the workbook's cover and the HTML report say first, as about= in Python: "
        "account=Acme,auditor=J. Smith (repeat the option for a value with a "
        "comma)."))] = None,
    sandbox: Annotated[bool, typer.Option("--sandbox", help=(
        "Audit the local emulator's account instead of DIALKIT_API_KEY's."))] = False,
    as_json: Json = False, as_csv: Csv = False,
) -> None:
    """Audit calls, leads and DNC results against the law of the place called (and a
    policy, if given); print the findings by rule, law's, policy's and the risks apart
    (with --json or --csv: every finding, a row each). Exits 0 whether or not there are
    findings, unless --fail-on names what was found (exit 1); 2 on bad input."""
    from dialkit.compliance import PRESETS
    from dialkit.compliance._report._evidence import masked

    if preset not in PRESETS:
        _fail(f"--preset {preset!r}: pass one of {', '.join(PRESETS)}")
    for named in fail_on or ():
        if named not in FAIL_ON:
            _fail(f"--fail-on {named!r}: pass law, any or risk")
    with _output_errors():  # before anything is read: no output may replace an input
        refuse_overlaps({"--out": out, "--workbook": workbook, "--html": html}, {
            f"what {flag} reads": path for flag, path in (
                ("--calls", calls), ("--leads", leads), ("--dnc", dnc),
                ("--verified-caller-ids", verified_caller_ids), ("--consents", consents),
                ("--reassigned", reassigned))})
    options: dict[str, Any] = {"rules": PRESETS[preset], "blocked_countries": blocked_countries,
                               "policy": _policy(policy, policy_window, policy_cap)}
    if verified_caller_ids is not None:
        options["verified_caller_ids"] = _numbers(verified_caller_ids)
    evidence = {"consents": consents, "reassigned": reassigned}
    options.update({name: _evidence(path, name) for name, path in evidence.items() if path})
    told = _about(about or [])
    period = {"campaign_id": campaign or None, "since": since, "until": until}
    report, service, names = _audited(calls, leads, dnc, sandbox, options, period,
                                      {"consents": consents, "reassigned": reassigned})
    about_report = {**told, **service}
    with _output_errors():
        if out is not None:
            report.to_csv(out, mask_pii=mask_pii, escape_formulas=not raw_csv)
        if workbook is not None:
            report.to_excel(workbook, mask_pii=mask_pii, about=about_report, names=names)
        if html is not None:
            report.to_html(html, mask_pii=mask_pii, about=about_report, names=names)
    if not printed(masked(report.findings, mask_pii), as_json=as_json, as_csv=as_csv):
        typer.echo(cli_text(report.to_text(), AUDIT_FLAGS))
    if fail_on and report.empty and not allow_empty:
        typer.echo(f"--fail-on {' '.join(dict.fromkeys(fail_on))}: 0 calls audited, nothing "
                   "was checked (pass --allow-empty if a period without calls is fine)",
                   err=True)
        raise typer.Exit(1)
    _fail_on(fail_on or [], report.by_basis)


def _about(given: list[str]) -> dict[str, str]:
    """``--about account=Acme,auditor=J. Smith`` as the cover's items, in order: a comma
    starts a new item only before a ``KEY=``, so a value may hold one."""
    items: dict[str, str] = {}
    for text in given:
        for item in re.split(r",\s*(?=[^,=]+=)", text):
            key, sep, value = item.partition("=")
            if not sep or not key.strip():
                _fail(f"--about {text!r}: pass KEY=VALUE items, comma-separated, e.g. "
                      "account=Acme,auditor=J. Smith")
            items[key.strip()] = value.strip()
    return items


FAIL_ON = {"law": ("law",), "any": VIOLATIONS, "risk": ("risk",)}
"""The bases each ``--fail-on`` value stops on: a risk is no violation, so only ``risk``
stops on one."""


def _fail_on(named: list[str], by_basis: pd.Series) -> None:
    """Exit 1, saying what was found, when the audit found a basis ``--fail-on`` named."""
    bases = dict.fromkeys(basis for name in named for basis in FAIL_ON[name])
    found = {basis: int(by_basis[basis]) for basis in bases if by_basis[basis]}
    if found:
        typer.echo(f"--fail-on {' '.join(dict.fromkeys(named))}: " + ", ".join(
            counted(n, "risk") if basis == "risk" else f"{counted(n, 'finding')} of {basis}"
            for basis, n in found.items()), err=True)
        raise typer.Exit(1)


def _policy(name: str | None, window: str | None, cap: int | None) -> Rules | None:
    """The policy the flags name: a named one, or one made of --policy-window and
    --policy-cap (both kinds together: the stricter of each)."""
    from dialkit.compliance import POLICIES, POLICY

    named = None
    if name is not None:
        if name not in POLICIES:
            _fail(f"--policy {name!r}: pass one of {', '.join(POLICIES)}")
        named = POLICIES[name]
    if window is None and cap is None:
        return named
    made = POLICY("command line: " + ", ".join(
        ([f"window {window}"] if window else []) + ([f"at most {cap} calls a day"] if cap else [])),
        window=_window(window) if window else None, max_calls_per_24h=cap)
    return made if named is None else named.with_policy(made)


def _window(text: str) -> tuple[time, time]:
    match = re.fullmatch(r"(\d\d):(\d\d)-(\d\d):(\d\d)", text)
    try:
        if match is None:
            raise ValueError
        h1, m1, h2, m2 = (int(part) for part in match.groups())
        start, end = time(h1, m1), time(h2, m2)
        if start >= end:
            raise ValueError
    except ValueError:
        _fail(f"--policy-window {text!r}: pass the allowed hours as HH:MM-HH:MM, e.g. "
              "09:00-20:00")
    return start, end


def _evidence(path: Path, name: str) -> Any:
    """A file of consent records or reassigned answers, read as ``--dnc`` is; one that
    cannot be read ends the command naming it."""
    from dialkit.compliance._inputs._read import read_source

    try:
        return read_source(path)
    except (OSError, InputError) as error:
        _fail(f"{path}: {error}")


def _audited(calls: Path | None, leads: Path | None, dnc: Path | None, sandbox: bool,
             options: dict[str, Any], period: dict[str, Any], evidence: dict[str, Path | None],
             ) -> tuple[AuditReport, dict[str, str], dict[str, str] | None]:
    """The audit of the files or of the account, what the cover says of the service, and
    the campaigns' names by id (the account's; none for files)."""
    from dialkit._shown._pages import readable_campaign_names
    from dialkit.client import Client
    from dialkit.compliance import AuditInputError, audit, load
    from dialkit.compliance._inputs._read import read_source
    from dialkit.errors import ApiError

    files = {"calls": calls, "leads": leads, "dnc": dnc}
    named = {**files, **evidence}  # the files an AuditInputError's frame names
    try:
        if any(files.values()):
            if calls is None:
                _fail("--calls FILE is needed with --leads or --dnc")
            _bounds(period)  # refused before a file is read
            given = {name: path for name, path in files.items() if path is not None}
            frames: dict[str, Any] = {name: read_source(path) for name, path in given.items()}
            return audit(**frames, **options, **period), {}, None
        _bounds(period)  # refused before the account is reached
        with Client.sandbox() if sandbox else Client() as client:
            if client.emulator is not None:  # the emulator knows the account's caller ids
                options.setdefault("verified_caller_ids", client.emulator.caller_ids())
            return (audit(**load(client, **period, rules=options["rules"]), **options),
                    {"service": client.service_identity}, readable_campaign_names(client))
    except AuditInputError as error:
        path = named.get(error.frame) if error.frame else None
        _fail(f"{path}: {error}" if path else str(error))
    except ApiError as error:
        _refused(error)
    except InputError as error:
        _fail(str(error))


def _bounds(period: dict[str, Any]) -> None:
    """``--since`` and ``--until`` read as ``load`` and ``audit`` read them (30d,
    yesterday, an ISO time); a bad one ends the command before anything is read. The
    audit reads the whole history of the calls and reports the period's
    (:func:`dialkit.compliance.audit`'s ``since`` and ``until``)."""
    from dialkit._utils._moments import period_bound

    for name in ("since", "until"):
        if period[name] is not None:
            _option(period_bound, period[name], name)


def _option(read: Callable[[str, str], _T], text: str, name: str) -> _T:
    """An option's ``text`` read as the library reads its argument ``name``
    (:mod:`dialkit._utils._moments`: a time, a length of time), refused in the option's words
    (``--horizon '30': give a unit, ...``) before the account is reached."""
    try:
        return read(text, name)
    except InputError as error:
        _fail(str(error))


def _numbers(path: Path) -> list[str]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        _fail(f"{path}: cannot be read ({error})")
    return [line.split(",")[0].strip() for line in lines if line.strip().startswith("+")]


def _fail(message: str) -> NoReturn:
    typer.echo(f"error: {cli_text(message, AUDIT_FLAGS)}", err=True)
    raise typer.Exit(2)


def _refused(error: ApiError) -> NoReturn:
    """The service refused, or gave no answer in time: exit status 1, as docs/cli.md
    says, not the 2 of bad input."""
    typer.echo(f"error: {cli_text(str(error), AUDIT_FLAGS)}", err=True)
    raise typer.Exit(1)


@contextmanager
def _output_errors() -> Iterator[None]:
    """An output refused (it would replace an input) or that could not be written (a
    full disk) ends the command with ``error: ...`` naming it, exit status 2; nothing of
    it is left (:func:`dialkit._files._outputs_written.written`)."""
    try:
        yield
    except InputError as error:
        _fail(str(error))
    except OSError as error:
        _fail(f"{error.filename}: {error.strerror}")


Preset = Annotated[str, typer.Option(metavar="PRESET", autocompletion=offering(PRESET_NAMES),
                                     help=(
    "The law: us, uk, ca or us-federal, as for audit."))]
Policy = Annotated[str | None, typer.Option(metavar="POLICY", autocompletion=offering(
    POLICY_NAMES), help=(
    "Add the account's own stricter rule, reported as policy: house-rules."))]


@compliance_app.command("upcoming")
def upcoming_command(
    campaign: Annotated[list[str] | None, typer.Option(metavar="ID", help=(
        "Only this campaign's scheduled calls (repeat for several)."))] = None,
    horizon: Annotated[str, typer.Option(metavar="SPAN", help=(
        "How far ahead to look, a number and its unit: 7d, 48h, 90min, 2w."))] = "7d",
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
        "most often answered)."))] = "next_allowed",
) -> None:
    """Judge the calls the account has scheduled (pending callbacks, leads' next attempts)
    before they happen, as the audit judges calls made; print those that would break a
    rule, soonest first, or with --fix the plan that fixes them. Exits 0 either way (1 if
    --apply had an action refused); 2 on bad input."""
    if (apply or strategy != "next_allowed") and not fix:
        _fail("--apply and --strategy go with --fix: add --fix")
    if strategy not in ("next_allowed", "best"):
        _fail(f"--strategy {strategy!r}: pass next_allowed or best")
    from dialkit._utils._moments import duration
    from dialkit.client import Client
    from dialkit.compliance import upcoming
    from dialkit.errors import ApiError
    from dialkit.frames import write_csv

    rules, added = _rules(preset, policy)
    span = _option(duration, horizon, "horizon")
    try:
        with Client.sandbox() if sandbox else Client() as client:
            found = upcoming(client, campaign_id=campaign or None, horizon=span, rules=rules,
                             policy=added)
            if fix:
                return _fixed(found, client, strategy, apply, rules, added, as_json, as_csv)
    except ApiError as error:
        _refused(error)
    except InputError as error:
        _fail(str(error))
    if out is not None:
        with _output_errors():
            write_csv(found, out, option="--out")
    if printed(found, as_json=as_json, as_csv=as_csv):
        return
    typer.echo(f"{len(found)} scheduled calls would break a rule in the next {horizon} "
               f"({(found['basis'] == 'law').sum()} of law)")
    for row in found.itertuples():
        typer.echo(f"  in {_span(row.due_in)}  {_acted_on(row)}  {row.rule}  {row.basis}: "
                   f"{row.evidence}")


def _fixed(found: Any, client: Any, strategy: str, apply: bool, rules: Any, policy: Any,
           as_json: bool, as_csv: bool) -> None:
    """``upcoming --fix``: the plan of :func:`dialkit.compliance.repair`, printed, and with
    ``--apply`` carried out (exit 1 if the service refused an action)."""
    from dialkit.analytics import answer_rates
    from dialkit.compliance import repair

    prefer = answer_rates(client.frames.calls()) if strategy == "best" else None
    plan = repair(found, client, strategy=strategy, dry_run=not apply,  # type: ignore[arg-type]
                  prefer=prefer, rules=rules, policy=policy)
    failed = plan["status"].str.startswith("failed")
    if not printed(plan, as_json=as_json, as_csv=as_csv):
        counts = plan["action"].value_counts()
        typer.echo(f"{len(plan)} scheduled calls to fix: {counts['reschedule']} to move, "
                   f"{counts['cancel']} to cancel, {counts['leave']} to leave alone"
                   + (f"; carried out, {failed.sum()} refused" if apply else
                      " (a dry run: --apply carries it out)"))
        for row in plan.itertuples():
            typer.echo(f"  {_planned(row)}  [{row.status}]")
    if failed.any():
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
def when_command(
    numbers: Annotated[list[str], typer.Argument(metavar="NUMBER...", help=(
        "Numbers in E.164: +14155550123."))],
    at: Annotated[str | None, typer.Option(metavar="TIME", help=(
        "The moment asked about, an ISO 8601 date or time with its zone "
        "(2026-11-22T19:00-05:00, or Z for UTC), or read in --tz; default now."))] = None,
    tz: Annotated[str | None, typer.Option(metavar="ZONE", help=(
        "The zone --at is read in where it has none: America/New_York. Without it, a "
        "time without a zone is refused."))] = None,
    preset: Preset = "us", policy: Policy = None,
    as_json: Json = False, as_csv: Csv = False,
) -> None:
    """Whether each number may be called now (or --at TIME) by the law of the place called
    and, if not, the next moment it may, in UTC and on the recipient's clock; every zone
    of the number is named where it has several."""
    import pandas as pd

    from dialkit._utils._moments import utc_moment
    from dialkit.compliance import next_allowed

    rules, added = _rules(preset, policy)
    moment = None if at is None else _option(
        lambda text, name: utc_moment(text, name, tz=tz), at, "at")
    try:
        answers = next_allowed(numbers[0] if len(numbers) == 1 else pd.Series(  # NUMBER[2]:
            numbers, index=range(1, len(numbers) + 1), dtype=object),  # the second given
            moment, rules=rules, policy=added)
    except InputError as error:
        _fail(str(error))
    if printed(answers, as_json=as_json, as_csv=as_csv):
        return
    for row in answers.itertuples():
        zones = "" if pd.isna(row.timezones) or "," not in row.timezones else (
            f"; judged in each of its zones: {row.timezones}")
        if row.allowed:
            typer.echo(f"{row.phone}: allowed ({row.next_local_time[:16]} {row.timezone}"
                       f"{zones})")
        elif pd.isna(row.next_allowed_at):
            typer.echo(f"{row.phone}: not allowed ({row.forbidden_by}); no allowed moment "
                       f"is known{zones}")
        else:
            typer.echo(f"{row.phone}: not allowed ({row.forbidden_by}); next allowed "
                       f"{row.next_allowed_at:%Y-%m-%d %H:%M} UTC, {row.next_local_time[:16]} "
                       f"{row.timezone}{zones}")


def _rules(preset: str, policy: str | None) -> tuple[Rules, Rules | None]:
    from dialkit.compliance import PRESETS

    if preset not in PRESETS:
        _fail(f"--preset {preset!r}: pass one of {', '.join(PRESETS)}")
    return PRESETS[preset], _policy(policy, None, None)


def _span(left: pd.Timedelta) -> str:
    """A time left as a person says it: ``2 d 3 h``, ``45 min``."""
    minutes = max(int(left.total_seconds() // 60), 0)
    days, hours, mins = minutes // 1440, minutes % 1440 // 60, minutes % 60
    return f"{days} d {hours} h" if days else f"{hours} h {mins} min" if hours else f"{mins} min"
