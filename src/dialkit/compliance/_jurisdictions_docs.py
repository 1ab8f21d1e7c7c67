"""The generated part of docs/jurisdictions.md: the jurisdiction table as markdown.

Kept apart from the table's loader (:mod:`dialkit._places._jurisdictions`) because it is only
needed to write and to check the docs page; ``_jurisdictions.markdown()`` calls
it. The page shows every row (windows, holidays, cap, citation, status), each
row's scope, sources and doubts, and the US states checked without a row.
"""

from __future__ import annotations

from dialkit._places import _jurisdictions as jurisdictions
from dialkit._places._jurisdictions import Jurisdiction, cap_text, window_text
from dialkit.compliance._checked_states import CheckedState, checked

__all__ = ["markdown"]

FINDING_TEXT = {"federal": "federal rule applies", "open": "**open**"}


def markdown() -> str:
    """The table, each row's details and the checked states, as the docs page shows them."""
    lines = _table(jurisdictions.all())
    for row in jurisdictions.all():
        lines += _details(row)
    lines += _checked(checked())
    return "\n".join(lines) + "\n"


def _table(rows: tuple[Jurisdiction, ...]) -> list[str]:
    lines = ["| Id | Jurisdiction | Mon-Fri | Sat | Sun | Named holidays | Cap per number "
             "| DNC scrub | Citation | Reviewed | Status |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for row in rows:
        scrub = f"{row.dnc_scrub_age.days} days" if row.dnc_scrub_age else "federal"
        holiday = (f"{window_text(row.holiday)} ({len(row.holidays)} days)"
                   if row.holidays else "as the weekday")
        status = "confirmed" if row.confirmed else "**unconfirmed**"
        lines.append(
            f"| {row.id} | {row.name} | {window_text(row.weekday)} | {window_text(row.saturday)} "
            f"| {window_text(row.sunday)} | {holiday} | {cap_text(row)} | {scrub} "
            f"| {row.citation} | {row.reviewed.isoformat()} | {status} |")
    return lines


def _details(row: Jurisdiction) -> list[str]:
    lines = ["", f"### {row.id}: {row.name} ({row.status})", ""]
    if row.scope:
        lines.append(f"- Applies to: {row.scope}")
    if row.holidays:
        lines.append(f"- No calls{' (observed days too)' if row.observed else ''} on: "
                     + "; ".join(row.holidays) + ".")
    if row.holiday_categories != jurisdictions.DEFAULT_CATEGORIES:
        lines.append("- Holidays looked up in the holidays package's categories: "
                     + ", ".join(row.holiday_categories) + ".")
    if row.unlisted_holidays:
        lines.append("- Banned too, but not in the holidays package's calendar, so not applied: "
                     + "; ".join(row.unlisted_holidays) + ".")
    lines.append(f"- Sources: {_links(row.sources)}")
    if row.doubts:
        lines.append(f"- Doubts: {row.doubts}")
    return lines


def _checked(states: tuple[CheckedState, ...]) -> list[str]:
    lines = ["", "## US states checked without a row", "",
             "Each state below was researched and has no row: no rule stricter than the "
             "federal one was found for telemarketing calls in general (**federal rule "
             "applies**), or the sources disagree or name no statute (**open**: not applied, "
             "to be researched). Rules that cover only prerecorded or autodialled calls are "
             "named in the note.", "",
             "| Id | State | Finding | Note | Sources checked | Reviewed |",
             "|---|---|---|---|---|---|"]
    for state in sorted(states, key=lambda state: state.id):
        lines.append(f"| {state.id} | {state.name} | {FINDING_TEXT[state.finding]} "
                     f"| {state.note} | {_links(state.sources)} | {state.reviewed.isoformat()} |")
    return lines


def _links(urls: tuple[str, ...]) -> str:
    return ", ".join(f"<{url}>" for url in urls)
