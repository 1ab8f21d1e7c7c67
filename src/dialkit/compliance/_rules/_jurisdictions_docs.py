"""The generated parts of docs/jurisdictions.md and docs/compliance.md: the jurisdiction
table and the Do-Not-Call lists' table as markdown.

Kept apart from the table's loader (:mod:`dialkit._law._jurisdictions`) because it is only
needed to write and to check the docs pages; ``_jurisdictions.markdown()`` calls
it. docs/jurisdictions.md shows every row (windows, holidays, cap, citation, status),
each row's scope, sources and doubts, and the US states checked without a row;
docs/compliance.md, where an officer reads what the audit applies, the same rows in
one compact table (:func:`compact`) that links there for the rest.
"""

from __future__ import annotations

from dialkit._law import _dnc_lists as dnc_lists
from dialkit._law import _jurisdictions as jurisdictions
from dialkit._law._jurisdictions import Jurisdiction, Window, cap_text, window_text
from dialkit.compliance._rules._checked_states import CheckedState, checked

__all__ = ["compact", "markdown"]

FINDING_TEXT = {"federal": "federal rule applies", "open": "**open**"}
COVERED = {"all": "all calls", "campaign": "campaign calls only"}
"""A row's ``applies_to`` in the table's words."""


def markdown() -> str:
    """The table, each row's details and the checked states, as the docs page shows them."""
    lines = _table(jurisdictions.all())
    for row in jurisdictions.all():
        lines += _details(row)
    lines += _checked(checked())
    lines += _lists(dnc_lists.all())
    return "\n".join(lines) + "\n"


def compact() -> str:
    """The table as docs/compliance.md shows it: a line per row with its windows by day,
    holidays, cap, citation and two sources, and review date; an unconfirmed row is
    marked as not applied; then how many states were checked without a row, naming
    those still open."""
    lines = ["| Jurisdiction | Mon-Fri | Sat | Sun | Holidays | Cap per person and subject "
             "| Source "
             "| Reviewed |", "|---|---|---|---|---|---|---|---|"]
    for row in jurisdictions.all():
        named = f"{row.name} ({row.id})" if row.subdivision else row.name
        if not row.confirmed:
            named += ", **unconfirmed: not applied**"
        cap = (f"{row.max_calls} per {row.cap_period.total_seconds() / 3600:g} h"
               if row.max_calls is not None and row.cap_period is not None else "none")
        links = ", ".join(f"[{n}]({url})" for n, url in enumerate(row.sources[:2], start=1))
        lines.append(
            f"| {named} | {_hours(row, row.weekday)} | {_hours(row, row.saturday)} "
            f"| {_hours(row, row.sunday)} | {_holidays(row)} | {cap} | {row.citation} "
            f"({links}) | {row.reviewed.isoformat()} |")
    states = checked()
    still_open = [state.name for state in states if state.finding == "open"]
    district = any(state.id == "US-DC" for state in states)
    others = f"{len(states) - district} US states" + (" and DC" if district else "")
    lines += ["", f"The other {others} were checked and have no row: "
              f"the federal rule applies to {len(states) - len(still_open)}; open, so not "
              "applied: " + (", ".join(still_open) or "none") + "."]
    return "\n".join(lines) + "\n"


def _holidays(row: Jurisdiction) -> str:
    """A row's holiday rule: ``no calls (13 days)``, ``no calls Mon-Fri (13 days)``, or
    ``as the weekday``."""
    days = len(row.holidays) + len(row.named_days)
    if not days:
        return "as the weekday"
    weekdays = " Mon-Fri" if row.holiday_weekdays_only else ""
    return f"{_hours(row, row.holiday)}{weekdays} ({days} days)"


def _table(rows: tuple[Jurisdiction, ...]) -> list[str]:
    lines = ["| Id | Jurisdiction | Mon-Fri | Sat | Sun | Named holidays | Observed days "
             "| Calls covered | Cap per person | During a declared emergency | DNC scrub "
             "| Citation | Reviewed | Status |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for row in rows:
        scrub = f"{row.dnc_scrub_age.days} days" if row.dnc_scrub_age else "federal"
        status = ("confirmed" if row.confirmed else "**unconfirmed**") + (
            ", doubtful reading" if row.doubtful else "")
        lines.append(
            f"| {row.id} | {row.name} | {_hours(row, row.weekday)} | {_hours(row, row.saturday)} "
            f"| {_hours(row, row.sunday)} | {_holidays(row)} | {_observed(row)} "
            f"| {COVERED[row.applies_to]} | {cap_text(row)} | {_emergency(row)} | {scrub} "
            f"| {row.citation} | {row.reviewed.isoformat()} | {status} |")
    return lines


def _details(row: Jurisdiction) -> list[str]:
    lines = ["", f"### {row.id}: {row.name} ({row.status})", ""]
    if row.scope:
        lines.append(f"- Applies to: {row.scope}")
    if row.text:
        lines.append(f"- The law's words: {row.text}")
    if row.applies_to != "all":
        lines.append("- Calls covered: campaign calls only (placed by the dialer, with a "
                     "campaign_id); an agent's click-to-call is not judged by this row.")
    lines += _end_hours_emergency(row)
    if row.consent_lifts_hours:
        lines.append("- Consent lifts it: its words bind calls made without the person's "
                     "prior consent, so a call with a written or oral consent record standing "
                     "at it (consents=) is not judged by this row's hours and day bans.")
    if row.holidays or row.named_days:
        weekdays = " that fall Monday to Friday" if row.holiday_weekdays_only else ""
        named = [f"{day.name} ({day.rule}{_years(day.years)}, <{day.source}>)"
                 for day in row.named_days]
        lines.append(f"- {window_text(row.holiday).capitalize()} on the holidays"
                     f"{weekdays}: " + "; ".join([*row.holidays, *named]) + ".")
        lines.append(f"- Observed days: {_observed(row)}.")
    lines += [f"- {name} is a holiday of this row from {since.isoformat()}, the day its "
              "text took effect." for name, since in row.holiday_since]
    if row.cites:
        lines.append("- Findings cite: " + "; ".join(
            f"{KINDS[kind]}: {cite}" for kind, cite in row.cites) + ".")
    if row.holiday_categories != jurisdictions.DEFAULT_CATEGORIES:
        lines.append("- Holidays looked up in the holidays package's categories: "
                     + ", ".join(row.holiday_categories) + ".")
    lines.append(f"- Sources: {_links(row.sources)}")
    if row.doubtful:
        lines.append(f"- Doubtful reading (applied, and named on the report's cover): "
                     f"{row.doubtful}")
    if row.doubts:
        lines.append(f"- Doubts: {row.doubts}")
    return lines


def _end_hours_emergency(row: Jurisdiction) -> list[str]:
    """A row's details of its window's end, hours and emergencies: a window's end taken
    in, federal hours, an emergency ban."""
    said = []
    if row.end_included:
        said.append("- Window ends: a call at the end itself is allowed (20:00:00 sharp where "
                    "the window ends at 20:00): its words forbid calls only after it; a "
                    "call a moment later is outside.")
    if row.federal_hours:
        said.append("- Hours: its words set the federal window, which the federal row "
                    "judges; the row is here for its other rules.")
    if row.emergency_ban:
        said.append("- During a declared state of emergency: no calls to the state while "
                    "an emergency given to the audit (emergencies=) is declared there; "
                    f"findings cite {row.cite('emergency')}.")
    return said


def _hours(row: Jurisdiction, window: Window | None) -> str:
    """A row's window of a day as the tables say it (:func:`window_text`), ``federal``
    where its words set the federal hours the federal row judges."""
    return "federal" if row.federal_hours and window == jurisdictions.WHOLE_DAY else (
        window_text(window, row.end_included))


def _emergency(row: Jurisdiction) -> str:
    """What a row forbids during a declared state of emergency, in the table's words."""
    return "no calls" if row.emergency_ban else "-"


KINDS = {"hours": "calling hours", "days": "Sunday and holiday bans", "cap": "frequency cap",
         "emergency": "emergency bans"}


def _observed(row: Jurisdiction) -> str:
    """A row's observed-day rule in words, with the holidays another statute moves."""
    if not (row.holidays or row.named_days):
        return "-"
    return "; ".join([f"{row.observed_rule.words()}", *(
        f"{name}: {rule.words()}" for name, rule in row.observed_rules)])


def _years(years: str) -> str:
    return "" if years == "every" else f", {years} years"


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


def _lists(rows: tuple[dnc_lists.DncList, ...]) -> list[str]:
    """The Do-Not-Call lists' table (``dnc_lists.toml``): each list, what its DNC results'
    ``list`` says, its grace, how often a state's list is taken, what exempts a call and
    what lifts the list, its citation and status; then each row's words, sources and
    doubts."""
    lines = ["", "## Do-Not-Call lists", "",
             "Each list a call to a listed number is judged by (`src/dialkit/_law/"
             "dnc_lists.toml`; [compliance.md](compliance.md) says how the DNC results name "
             "them). A state's own list is given as DNC rows whose `list` is its id.", "",
             "| Id | List | DNC results' `list` | Grace | Taken | Exempted by "
             "| Lifted by | Business lines | Citation | Reviewed | Status |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for row in rows:
        taken = (row.scrub + (" (**required**)" if row.required else "")) if row.state else "-"
        lines.append(
            f"| {row.id} | {row.name} | `{row.results_name}` | {_grace(row)} | {taken} "
            f"| {_exempting(row)} "
            f"| {', '.join(row.exempt_facts) or '-'} "
            f"| {'not judged' if row.residential_only else 'judged'} | {row.citation} "
            f"| {row.reviewed.isoformat()} | {_status(row)} |")
    for row in rows:
        lines += ["", f"### {row.id}: {row.name} ({_status(row)})", "",
                  f"- The law's words: {row.text}", f"- Sources: {_links(row.sources)}"]
        if row.doubts:
            lines.append(f"- Doubts: {row.doubts}")
    return lines


def _exempting(row: dnc_lists.DncList) -> str:
    """What exempts a call from a list, an ``ebr`` with how long each relationship lasts
    under each law that bounds it (``ebr (540 days after a purchase, 90 days after an
    inquiry; ...)``)."""
    said = []
    for kind in row.exempt_by:
        if kind == "ebr":
            laws = dnc_lists.relationships(row.relationships)
            kind += " (" + "; ".join(f"{_lasting(law.purchase, 'a purchase')}, "
                                     f"{_lasting(law.inquiry, 'an inquiry')}"
                                     for law in laws) + ")"
        said.append(kind)
    unread = (f"; its words on exemptions unread ({row.unread}): a record any list names "
              "makes the call a risk" if row.unread else "")
    return (", ".join(said) or "nothing") + unread


def _lasting(period: dnc_lists.Period, after: str) -> str:
    """How long a relationship lasts after ``after``: ``18 months after a purchase``, ``an
    inquiry not counted``, ``a purchase while it lasts``."""
    return f"{period} after {after}" if period.count else f"{after} {period}"


def _grace(row: dnc_lists.DncList) -> str:
    """A list's grace in words: a safe harbor, the law's days, or none."""
    if row.grace_needs_check:
        return f"{row.grace.days} days, with a check before the listing"
    return f"{row.grace.days} days" if row.grace else "none"


def _status(row: dnc_lists.DncList) -> str:
    return "confirmed" if row.confirmed else "**unconfirmed**"
