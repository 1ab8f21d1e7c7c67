"""``dialkit compliance watch``: the findings of the calls in a webhook receiver's store
(what ``dialkit webhooks listen --db`` writes), judged by a
:class:`dialkit.compliance.Monitor` as the audit judges calls: the store's events once, or,
with ``--follow``, each as it lands.

The command only reads and prints: the monitor and what fails it come from
:func:`dialkit.compliance.run_monitor`, the events from
:func:`dialkit.webhooks.events_after`, which a notebook can call alike.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Annotated, Any

import typer

from dialkit._shown._words import counted
from dialkit._utils._choices import AUDIT_INPUTS, FAIL_ON, NOT_JUDGED_EXIT
from dialkit.cli._compliance._options import (
    OFF_THE_ACCOUNT,
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
)
from dialkit.cli._shared import Csv, Json, finite_seconds, offering, printed

if TYPE_CHECKING:  # the command imports them when it runs: a TAB needs none
    import pandas as pd

    from dialkit.compliance import Changes, MonitorRun
    from dialkit.webhooks import NewEvents

_NONE_AFTER = 2**62
"""A cursor past any store's events: a read after it only checks the store can be read."""
STORE = Path("events.sqlite")
"""The store read by default: the one ``dialkit webhooks listen`` writes by default."""
INTERVAL_SECONDS = 1.0
"""How often ``--follow`` reads the store for new events, by default."""
_TIME = ("As for audit: an ISO 8601 date or time with its zone, today, yesterday, or a time "
         "back from now: 30d, 12h.")
"""The forms a bound of the period takes, as for audit."""


def _fact(name: str) -> str:
    """What the input ``name`` tells the audit, as its declaration says it."""
    return next(each.fact for each in AUDIT_INPUTS if each.name == name)


@given_options("Monitor", OFF_THE_ACCOUNT, after="events")
def watch_command(
    events: Annotated[Path, typer.Option(metavar="STORE", help=(
        "The receiver's store, the SQLite file dialkit webhooks listen writes, read only: "
        "the calls ended (call.completed, ai_call.completed) and their dispositions "
        "(disposition.logged) are judged."))] = STORE,
    state: Annotated[Path | None, typer.Option(metavar="FILE", help=(
        "Keep the monitor's state in this SQLite file (created, owner-only, if missing): "
        "run again on it, the command tells no finding it told before. Default: in "
        "memory, each run tells every finding."))] = None,
    follow: Annotated[bool, typer.Option("--follow", help=(
        "Keep reading the store as the receiver adds events, printing each finding as it "
        "lands, until interrupted (Ctrl-C or SIGTERM)."))] = False,
    interval: Annotated[float, typer.Option(metavar="SECONDS", min=0.01,
                                            callback=finite_seconds, help=(
        "With --follow: how often the store is read for new events."))] = INTERVAL_SECONDS,
    blocked_countries: BlockedCountries = "", preset: Preset = "us", policy: Policy = None,
    policy_window: PolicyWindow = None, policy_cap: PolicyCap = None,
    campaign: Annotated[list[str] | None, typer.Option(metavar="ID", help=(
        f"{_fact('campaign_id')} Repeat for several."))] = None,
    since: Annotated[str | None, typer.Option(metavar="TIME", help=(
        f"{_fact('since')} {_TIME}"))] = None,
    until: Annotated[str | None, typer.Option(metavar="TIME", help=(
        f"{_fact('until')} {_TIME}"))] = None,
    fail_on: Annotated[list[str] | None, typer.Option(
        metavar="BASIS", autocompletion=offering(FAIL_ON), help=(
        "Exit 1 when the findings hold what is named, as for audit: law, any or risk "
        "(repeat for several); with --follow, at the first such finding. No call judged "
        "fails it too, unless --allow-empty."))] = None,
    allow_empty: Annotated[bool, typer.Option("--allow-empty", help=(
        "Let --fail-on pass when no call was judged (a quiet period); never when events "
        "were held, not understood."))] = False,
    accept_unjudged: AcceptUnjudged = None, value: Words = None, mapping: Maps = None,
    as_json: Json = False, as_csv: Csv = False, *, given: dict[str, Any],
) -> None:
    """Judge the calls of a webhook receiver's store (what dialkit webhooks listen writes)
    as the audit judges calls, and print each finding a line: those of the events stored,
    or with --follow each as its events land, until interrupted. With --state, a finding
    told before is not told again, and one a later event took back is told as withdrawn.
    Exits 0 whether or not there are findings, unless --fail-on names what was found
    (exit 1); 2 on bad input."""
    from dialkit.compliance import run_monitor

    if follow and (as_json or as_csv):
        fail("--json and --csv print the findings once, as a table: leave out --follow")
    if state is not None and state.resolve() == events.resolve():
        fail(f"--state {state} is the --events store: name a file of its own for the "
             "monitor's state")
    _read(events, _NONE_AFTER)  # a store that cannot be read is refused before the state
    with library_errors():
        run = run_monitor(state, preset=preset, policy=policy, policy_window=policy_window,
                          policy_cap=policy_cap, blocked_countries=blocked_countries,
                          campaign_id=campaign, since=since, until=until,
                          fail_on=fail_on or (), allow_empty=allow_empty,
                          accept_unjudged=accept_unjudged or (), values=value,
                          mapping=mapping, **given)
    with run:
        read = _read(events, run.monitor.read_to(_store(events)))
        if follow:
            _followed(run, events, read, interval)
        else:
            _once(run, read, _store(events), as_json, as_csv)
        _verdict(run, fail_on)


def _once(run: MonitorRun, read: NewEvents, store: str, as_json: bool, as_csv: bool) -> None:
    """The store's events judged once (those after where the state read it to): each
    finding new to the state printed a line (with --json or --csv, every finding standing,
    as the audit's table), and what was read."""
    with library_errors():
        changes = run.monitor.observe(read.frame, read_to=(store, read.cursor))
    if not printed(run.monitor.findings, as_json=as_json, as_csv=as_csv):
        _told(changes)
    _held(changes)
    _noted(run.monitor.notes, {})
    _summed(run, changes)


def _followed(run: MonitorRun, events: Path, read: NewEvents, interval: float) -> None:
    """The store followed: its events judged, then the events the receiver adds, read
    every ``interval`` seconds, until interrupted or a finding fails --fail-on."""
    notes: dict[str, str] = {}
    first = True
    with _until_stopped():
        while True:
            if first or not read.frame.empty:
                with library_errors():
                    changes = run.monitor.observe(read.frame,
                                                  read_to=(_store(events), read.cursor))
                _told(changes)
                _held(changes)
                notes = _noted(run.monitor.notes, notes)
                if first:
                    _summed(run, changes, following=events)
                first = False
            if run.fail_on and run.found:
                return
            time.sleep(interval)
            read = _read(events, read.cursor)


def _store(events: Path) -> str:
    """The store as the monitor's state names where it read it to: its path and its file's
    inode, so that a store made anew at the same path (its cursor counting from 0 again)
    is read from its start, not from the old one's cursor."""
    return f"{events.resolve()}#{events.stat().st_ino}"


def _read(events: Path, cursor: int) -> NewEvents:
    """The events stored after ``cursor``; a store that cannot be read ends the command,
    naming --events and the file that can."""
    from dialkit.webhooks import StoreError, events_after

    try:
        return events_after(events, cursor)
    except StoreError as error:
        fail(f"--events: {error}: pass the SQLite file `dialkit webhooks listen --db` "
             "stores events in")


def _told(changes: Changes) -> None:
    """The findings an observation added (a line each), changed and withdrawn, in the
    findings' order: a finding told before is not told again."""
    added, withdrawn = _keyed(changes.added), _keyed(changes.withdrawn)
    for key, row in added.items():
        typer.echo(("changed: " if key in withdrawn else "") + _line(row))
    for key, row in withdrawn.items():
        if key not in added:
            typer.echo("withdrawn: " + _line(row))


def _held(changes: Changes) -> None:
    """The events an observation could not read, and why, on standard error."""
    for held in changes.held:
        typer.echo(f"held: event {held.event_id} ({held.kind}): {held.why}", err=True)


def _keyed(findings: pd.DataFrame) -> dict[tuple[str | None, ...], Mapping[str, Any]]:
    """Each finding's row by what tells it from another: its rule, call (or text), lead,
    and what decided it (a row announced before, read back from JSON, keyed alike)."""
    import pandas as pd

    return {tuple(None if pd.isna(row.get(column)) else str(row[column])
                  for column in ("rule", "call_id", "lead_id", "decided_by")): row
            for row in findings.to_dict("records")}


def _line(row: Mapping[str, Any]) -> str:
    """A finding as one line: when, the rule, law or policy or risk, what it is of and the
    audit's evidence: ``2026-06-02 01:30 UTC  calling_hours  law  call call_1 (cmp_1):
    called Mon 21:30 America/New_York ...``."""
    import pandas as pd

    at = "" if pd.isna(row.get("at")) else f"{pd.Timestamp(row['at']):%Y-%m-%d %H:%M} UTC  "
    if pd.isna(row.get("call_id")):
        of = f"lead {row.get('lead_id')}"
    else:
        of = f"{'call' if pd.isna(row.get('channel')) else row['channel']} {row['call_id']}"
    campaign = "" if pd.isna(row.get("campaign_id")) else f" ({row['campaign_id']})"
    return f"{at}{row['rule']}  {row['basis']}  {of}{campaign}: {row['evidence']}"


def _noted(notes: Mapping[str, str], before: Mapping[str, str]) -> dict[str, str]:
    """The audit's notes (a rule not run, and why) in the command's words, on standard
    error, each as it first says what it says; the notes now."""
    for rule, note in notes.items():
        if before.get(rule) != note:
            typer.echo(f"note: {rule}: {in_words(note)}", err=True)
    return dict(notes)


def _summed(run: MonitorRun, changes: Changes, following: Path | None = None) -> None:
    """What an observation read and what stands, on standard error (the findings' lines
    alone are on standard output)."""
    monitor = run.monitor
    at = "" if monitor.as_of is None else f" as of {monitor.as_of:%Y-%m-%d %H:%M} UTC"
    said = (f"{counted(changes.events, 'event')} read ({changes.repeated} seen before), "
            f"{counted(len(monitor.calls), 'call')} judged{at}: "
            f"{counted(len(monitor.findings), 'finding')} standing, {len(changes.added)} "
            f"told, {len(changes.withdrawn)} withdrawn")
    if following is not None:
        said += f"; watching {following} (Ctrl-C stops)"
    typer.echo(said, err=True)


def _verdict(run: MonitorRun, fail_on: list[str] | None) -> None:
    """Exit 1 where the findings fail --fail-on, or nothing was judged, 3 where only a
    rule not judged does, as the audit's run does, saying why on standard error."""
    if run.unchecked and not run.monitor.held.empty:
        fail_on_told(fail_on, f"no call judged, {counted(len(run.monitor.held), 'event')} "
                     "held (--allow-empty passes a quiet period, not events not understood)")
    elif run.unchecked:
        fail_on_told(fail_on, "0 calls judged, nothing was checked (pass --allow-empty if "
                     "a period without calls is fine)")
    elif run.found:
        fail_on_told(fail_on, found_said(run.found))
    not_judged = run.not_judged
    if not_judged:
        fail_on_told(fail_on, in_words(run.not_judged_said))
    if run.unchecked or run.found:
        raise typer.Exit(1)
    if not_judged:
        raise typer.Exit(NOT_JUDGED_EXIT)


@contextmanager
def _until_stopped() -> Iterator[None]:
    """Ctrl-C (SIGINT), or SIGTERM where the command runs on the main thread, ends
    ``--follow`` at once; the monitor's state is as its last observation committed it (each
    is one transaction)."""
    main = threading.current_thread() is threading.main_thread()
    before = signal.getsignal(signal.SIGTERM) if main else None
    if main:
        signal.signal(signal.SIGTERM, _interrupted)
    try:
        yield
    except KeyboardInterrupt:
        typer.echo("stopped", err=True)
    finally:
        if main and before is not None:
            signal.signal(signal.SIGTERM, before)


def _interrupted(number: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt
