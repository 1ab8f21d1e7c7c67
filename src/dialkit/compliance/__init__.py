"""Compliance audits of what the account did: calling hours, call frequency, Do-Not-Call,
abandonment, blocked countries and caller ids, with the evidence for each finding.

Example:
    >>> report = dialkit.compliance.audit(**dialkit.compliance.load(client),
    ...                                   blocked_countries=["KP", "IR"])  # doctest: +SKIP
    >>> report.findings.groupby("rule").size()  # doctest: +SKIP
"""

from ._audit import AuditInputError, AuditReport, audit
from ._load import load
from ._localtime import first_zones, local_call_times
from ._plots import plot_summary
from ._rules import PRESETS, RULE_IDS, UK_OFCOM, US_FEDERAL, US_FLORIDA, Rules

__all__ = [
    "AuditInputError",
    "AuditReport",
    "PRESETS",
    "RULE_IDS",
    "Rules",
    "UK_OFCOM",
    "US_FEDERAL",
    "US_FLORIDA",
    "audit",
    "first_zones",
    "load",
    "local_call_times",
    "plot_summary",
]
