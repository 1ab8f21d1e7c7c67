"""``dialkit compliance watch``'s monitor as a call: the audit's inputs read from the
command's choices (files, names, facts) as :func:`~._command_runs.run_audit` reads them,
the :class:`Monitor` they make, and whether what it has found fails ``fail_on`` as the
audit's run would, so that a notebook or a scheduled job follows a receiver's store and
stops on what the shell stops on.

The events themselves are read by the caller (``dialkit.webhooks.events_after``): the
compliance layer imports nothing of the webhooks one (docs/design.md, "Layers").
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Any

from .._files._outputs_written import why_not_written
from .._utils._base_error import AuditInputError, InputError, MonitorStateError
from .._utils._choices import FRAME, RECORDS
from ._checks._unread._unjudged import accepted_keys, accepted_risks, failing, failing_said
from ._command_choices import (
    Source,
    check_bounds,
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
from ._live._monitor import Monitor
from ._rules._rules import Rules


@dataclass(frozen=True)
class MonitorRun:
    """What :func:`run_monitor` made: the monitor, and whether what it has found so far
    fails ``fail_on`` (asked at any moment: the findings change as events land). A context
    manager that closes the monitor.

    Attributes:
        monitor: The :class:`Monitor`: ``observe`` the events with it.
        fail_on: The names ``fail_on`` was given (``law``, ``any``, ``risk``).
        allow_empty: Whether a monitor that has judged no call passes ``fail_on``.
        texts: Whether texts were given, which are judged as calls: a monitor with
            them has judged something before any call.
        accepting: What may stay not judged (``accept_unjudged``, read: countries' codes
            and rules' ids).
    """

    monitor: Monitor
    fail_on: tuple[str, ...] = ()
    allow_empty: bool = False
    texts: bool = False
    accepting: frozenset[str] = frozenset()

    @property
    def found(self) -> dict[str, int]:
        """Each basis ``fail_on`` stops on that the findings now hold, with its count of
        findings, in ``fail_on``'s order (as :attr:`AuditRun.found`); an accepted
        country's ``no_law_held`` risks left out."""
        findings = accepted_risks(self.monitor.findings, self.accepting)
        return found_on(findings["basis"].value_counts(), self.fail_on)

    @property
    def not_judged(self) -> dict[str, int]:
        """Each rule not judged for some calls now that ``fail_on`` stops on, with its
        calls, those accepted left out (as :attr:`AuditRun.not_judged`)."""
        return failing(self.monitor.unjudged, self.fail_on, self.accepting)

    @property
    def unchecked(self) -> bool:
        """``fail_on`` was given and the monitor has judged no call (nor text), without
        ``allow_empty``: it checked nothing, so it fails, as an audit of no call does. Events
        held (not understood) make no quiet period: then ``allow_empty`` passes nothing."""
        judged = not self.monitor.calls.empty or self.texts
        return bool(self.fail_on) and not judged and (
            not self.allow_empty or not self.monitor.held.empty)

    @property
    def failed(self) -> bool:
        """Whether the run fails ``fail_on`` now: a basis it names found, nothing
        checked, or a rule not judged."""
        return self.unchecked or bool(self.found) or bool(self.not_judged)

    @property
    def not_judged_said(self) -> str:
        """:attr:`not_judged` in words (as :attr:`AuditRun.not_judged_said`)."""
        return failing_said(self.not_judged)

    def close(self) -> None:
        """Close the monitor (its state file)."""
        self.monitor.close()

    def __enter__(self) -> MonitorRun:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


def run_monitor(state: str | os.PathLike[str] | None = None, *, preset: str | Rules = "us",
                policy: str | Rules | None = None, policy_window: str | None = None,
                policy_cap: int | None = None, blocked_countries: str | Collection[str] = (),
                campaign_id: str | Sequence[str] | None = None, since: str | None = None,
                until: str | None = None, fail_on: Iterable[str] = (),
                allow_empty: bool = False, accept_unjudged: str | Collection[str] = (),
                values: Mapping[str, Mapping[str, str | None]] | Iterable[str] | None = None,
                mapping: Mapping[str, str] | Iterable[str] | None = None,
                **given: Any) -> MonitorRun:
    """The :class:`Monitor` ``dialkit compliance watch`` judges with, made from the
    command's choices as plain values (each read as :func:`run_audit` reads it), and what
    fails it: observe a receiver's store with ``run.monitor`` and ask ``run.failed``.

    Args:
        state: The monitor's SQLite state file (``None``: in memory), as :class:`Monitor`
            takes it.
        preset: The law: ``us``, ``uk``, ``ca``, ``us-federal`` (:data:`PRESETS`), or
            :class:`Rules`.
        policy: The account's own stricter rule: a name of :data:`POLICIES` or
            :class:`Rules`.
        policy_window: A policy calling window for every call, ``"HH:MM-HH:MM"``.
        policy_cap: A policy cap of calls per number in any 24 hours.
        blocked_countries: Countries calls must not reach, as :func:`audit` takes them.
        campaign_id: Judge these campaigns' calls only.
        since: Report the calls placed from then on (:func:`audit`'s ``since``).
        until: Report the calls placed before then.
        fail_on: ``law``, ``any`` or ``risk``: what makes :attr:`MonitorRun.failed` true.
        allow_empty: Let a monitor that has judged no call pass ``fail_on``.
        accept_unjudged: What may stay not judged without failing ``fail_on``, as
            :func:`run_audit` takes it.
        values: What another tool's words mean, as :func:`run_audit` takes them.
        mapping: Which column of an export holds a column the audit reads, as
            :func:`run_audit` takes it.
        **given: Every other input the monitor takes of the audit's, by its keyword, as its
            option gives it (the declaration's, :data:`dialkit._utils._choices.AUDIT_INPUTS`:
            every one but ``as_of``): the exports of ``leads``, ``dnc`` and ``texts``
            (paths), the files of ``consents``, ``reassigned``, ``contracts`` and
            ``emergencies``, ``verified_caller_ids`` (the ids or a file of them), and the
            facts (``nonprofit=True``, ``charity=True``, ``newspaper=True``).

    Returns:
        The :class:`MonitorRun`; close it (or its monitor) when done.

    Raises:
        AuditInputError: An argument refused, a file that cannot be read or used (its
            message starts with the file's path), or a ``state`` that is no monitor's
            state of this dialkit, or no file (its message starts ``state=``).
        InputError: A period bound that is not one, a fact neither True nor False.
        TypeError: A keyword that names no input the monitor takes.

    Examples:
        >>> from dialkit.compliance import run_monitor
        >>> with run_monitor(fail_on=["law"]) as run:
        ...     _ = run.monitor.observe({
        ...         "id": "evt_1", "type": "call.completed",
        ...         "created_at": "2026-06-02T01:31:00Z",
        ...         "data": {"call_id": "call_1", "direction": "outbound",
        ...                  "status": "no_answer", "from": "+14155550100",
        ...                  "to": "+12125550123", "campaign_id": "cmp_1",
        ...                  "started_at": "2026-06-02T01:30:00Z"}})
        ...     run.found, run.failed  # 21:30 in New York
        ({'law': 1}, True)
    """
    rules = preset_rules(preset)
    named = fail_on_read(fail_on)
    accepting = accepted_keys(accept_unjudged)
    inputs: dict[str, Any] = {
        "rules": rules, "blocked_countries": blocked_countries,
        "policy": policy_rules(policy, policy_window, policy_cap),
        "values": values_read(values), "mapping": mapping_read(mapping),
        **given_read(given, "run_monitor", "Monitor")}
    period = {"campaign_id": campaign_id or None, "since": since, "until": until}
    check_bounds(period)
    files: dict[str, Source] = of_kind(given, FRAME)
    with named_by_path({**files, **of_kind(given, RECORDS)}):
        inputs.update({name: read_whole_file(path) for name, path in files.items()})
        monitor = _opened(state, {**inputs, **period})
    texts = inputs.get("texts")
    return MonitorRun(monitor, named, allow_empty, texts=texts is not None and len(texts) > 0,
                      accepting=accepting)


def _opened(state: str | os.PathLike[str] | None, inputs: dict[str, Any]) -> Monitor:
    """The monitor of ``inputs`` on ``state``; a state file it cannot use (another kind
    of file, a folder, a path in no folder) refused as a choice of the run's, naming it
    (``state=``)."""
    try:
        return Monitor(None if state is None else os.fspath(state), **inputs)
    except MonitorStateError as error:
        raise AuditInputError(f"state= {error}") from None
    except InputError:  # a link at its name, refused as such: it names the path
        raise
    except OSError as error:
        cause, hint = why_not_written(error)
        raise AuditInputError(f"state= {state}: {cause}: {hint or 'name another path'}"
                              ) from None
