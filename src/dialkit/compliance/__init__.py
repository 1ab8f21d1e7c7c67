"""Compliance audits of what the account did: calling hours, call frequency, Do-Not-Call,
abandonment, blocked countries and caller ids, with the evidence for each finding.

:func:`run_audit`, :func:`run_upcoming` and :func:`run_when` are the ``dialkit
compliance`` commands as calls (options in, the command's answer out), so a notebook or
a scheduled job decides exactly as the shell does (the CLI only parses and
prints); :func:`run_monitor` makes the :class:`Monitor` ``dialkit compliance watch``
judges a receiver's store with.

Examples:
    >>> import dialkit.compliance
    >>> client = dialkit.Client.sandbox()
    >>> report = dialkit.compliance.audit(**dialkit.compliance.load(client),
    ...                                   blocked_countries=["KP", "IR"])
    >>> report.findings.groupby("rule").size().index.tolist()
    [..., 'calling_hours', ...]
    >>> client.close()
"""

from typing import TYPE_CHECKING

from dialkit._places._localtime import first_zones, local_call_times

from .._utils import _lazy
from .._utils._base_error import AuditInputError
from ._ahead._judge import LawJudge
from ._ahead._repair import repair
from ._ahead._upcoming import scheduled, upcoming
from ._ahead._when import next_allowed
from ._entry import audit
from ._inputs._load import load
from ._inputs._read import read_export
from ._report._audit_report import AuditReport
from ._report._plots import plot_abandonment, plot_by_state, plot_summary, plot_upcoming
from ._rules import _jurisdictions as jurisdictions
from ._rules._rules import (
    BASES,
    CA,
    CA_WITH_HOUSE_RULES,
    HOUSE_RULES,
    POLICIES,
    POLICY,
    PRESETS,
    RULE_IDS,
    UK,
    UK_OFCOM,
    UK_WITH_HOUSE_RULES,
    US,
    US_FEDERAL,
    US_WITH_HOUSE_RULES,
    Rules,
)

if TYPE_CHECKING:  # what the commands run, imported on first use: it makes a Client, and
    # the client's guard imports this package for its judge (no cycle, tests/test_layers.py)
    from ._command_monitor import MonitorRun, run_monitor
    from ._command_runs import AuditRun, UpcomingRun, run_audit, run_upcoming, run_when
    from ._live._gauges import Gauges
    from ._live._monitor import Changes, Monitor
    from ._live._view import LiveView

__all__ = [
    "AuditInputError",
    "AuditReport",
    "AuditRun",
    "BASES",
    "CA",
    "CA_WITH_HOUSE_RULES",
    "Changes",
    "Gauges",
    "HOUSE_RULES",
    "LawJudge",
    "LiveView",
    "Monitor",
    "MonitorRun",
    "POLICIES",
    "POLICY",
    "PRESETS",
    "RULE_IDS",
    "Rules",
    "UK",
    "UK_OFCOM",
    "UK_WITH_HOUSE_RULES",
    "US",
    "US_FEDERAL",
    "US_WITH_HOUSE_RULES",
    "UpcomingRun",
    "audit",
    "first_zones",
    "jurisdictions",
    "load",
    "local_call_times",
    "next_allowed",
    "plot_abandonment",
    "plot_by_state",
    "plot_summary",
    "plot_upcoming",
    "read_export",
    "repair",
    "run_audit",
    "run_monitor",
    "run_upcoming",
    "run_when",
    "scheduled",
    "upcoming",
]

__getattr__, __dir__ = _lazy.exports(__name__)
