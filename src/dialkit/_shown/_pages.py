"""How a table reads on a page: missing values one way, long ids cut, prose wrapped.

A person reading a table wants an empty cell where nothing is known (``–`` where
a number is expected), never pandas' ``None``, ``nan``, ``<NA>`` or ``NaT``;
a long id cut in the middle (its start and its end are what tell two apart) with
the whole of it in a tooltip; a long sentence wrapped, not cut; and a table too
wide for the page scrolling in its own box rather than stretching the page.
The compliance evidence page builds its tables with :func:`html_table`; the
demo's notebook pages pass their outputs' tables through the same rules
(:func:`cell_text`). Only the standard library and pandas: nothing to import
until a page is drawn.

Text from an account (a campaign's name) is shown as written, never read as markup
or as mathematics: every table escapes it, a page's outputs are marked
:data:`NOT_MATH` for MathJax, and a plot's labels are drawn :func:`as_written`.
"""

from __future__ import annotations

import html
import io
import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

import pandas as pd

if TYPE_CHECKING:
    from matplotlib.figure import Figure
    from matplotlib.text import Text

WIDEST = 60
"""A cell's text at most, in characters: a longer id is cut in the middle, a longer
sentence wraps."""
PROSE_WORDS = 6
"""A long text of this many words or more is a sentence, which wraps; a shorter one is
a name or an id, which is cut."""
NO_NUMBER = "–"
"""What a cell shows where a number is expected and there is none."""
MISSING_TEXTS = frozenset({"None", "nan", "NaN", "<NA>", "NaT"})
"""How pandas and Python write a missing value: never shown to a reader."""
TABLE_STYLE = (
    ".dialkit-scroll{overflow-x:auto;max-width:100%}"
    ".dialkit-scroll table{margin:0}"
    ".dialkit-scroll td,.dialkit-scroll th{white-space:normal;word-break:normal;"
    "overflow-wrap:normal}"
    ".dialkit-scroll td.dialkit-prose{min-width:16em;max-width:36em;text-align:left}"
    ".dialkit-scroll td.dialkit-number{text-align:right;font-variant-numeric:tabular-nums;"
    "white-space:nowrap}")
"""The rules :func:`html_table`'s classes need: a page adds them to its style. A cell
wraps between words, and a long id after its ``_`` and ``-`` (:func:`breakable`),
never inside a word, so a table of findings fits a window of 1,000 px; a number
stays on one line. A table that still does not fit scrolls in its own box."""
BREAKABLE_WORD = 12
"""A word (no spaces) longer than this, an id, may wrap after its ``_``, ``-`` and ``/``
(a column's name after its ``_`` whatever its length: ``local_time``)."""
_BREAK_AFTER = re.compile(r"(?<=[_/-])(?=[^_/-])")
_DATE = re.compile(r"(\d{4}-\d\d-\d\d)")
NOT_MATH = "tex2jax_ignore mathjax_ignore"
"""The classes MathJax (in Jupyter and on an exported notebook's page) skips an element
by: without them, a name such as ``$\\frac{1}{0}$`` in a table is typeset as a
fraction. pandas marks its tables so when ``display.html.use_mathjax`` is off."""
_NUMBER = re.compile(r"-?[\d,]*\.?\d+(e[-+]?\d+)?\s?%?", re.IGNORECASE)


def is_missing(value: object) -> bool:
    """Whether ``value`` is a missing value: ``None``, ``NaN``, ``pd.NA``, ``NaT``."""
    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):  # a list or an array: a value, not a missing one
        return False


def middle_cut(text: str, widest: int = WIDEST) -> str:
    """``text`` at most ``widest`` characters long, cut in the middle with ``…``."""
    if len(text) <= widest:
        return text
    head = widest // 2
    return text[:head] + "…" + text[len(text) - (widest - head - 1):]


def cell_text(text: str) -> tuple[str, str | None, bool]:
    """What a cell of ``text`` shows: the text shown, the whole text for a tooltip when
    it was cut (else ``None``), and whether it is prose to wrap (a long text of
    :data:`PROSE_WORDS` words or more) rather than a name or an id to cut in the middle
    (``Home Insurance Renewal 1 (cmp_…f-610e168398a9)``, a URL)."""
    if len(text) <= WIDEST:
        return text, None, False
    if len(text.split()) >= PROSE_WORDS:
        return text, None, True
    return middle_cut(text), text, False


def break_points(text: str, longer_than: int = BREAKABLE_WORD) -> list[str]:
    """``text`` in the pieces between which a line may wrap besides its spaces: after each
    ``_``, ``-`` and ``/`` of a word longer than ``longer_than`` characters (an id such
    as ``call_0ff99234-b122-...``), so that a table of ids fits a window without a word
    of the text ever broken in the middle. One piece for a text with no long word."""
    pieces = [""]
    for word in re.split(r"(\s+)", text):
        parts = _BREAK_AFTER.split(word) if len(word) > longer_than else [word]
        pieces[-1] += parts[0]
        pieces += parts[1:]
    return pieces


def breakable(text: str, longer_than: int = BREAKABLE_WORD) -> str:
    """``text`` escaped as HTML, with a ``<wbr>`` at each of its :func:`break_points`, and
    each date (``2026-10-16``) kept on one line, which a browser would break after a
    ``-`` of its own accord."""
    marked = "<wbr>".join(html.escape(piece) for piece in break_points(text, longer_than))
    return _DATE.sub(r'<span style="white-space:nowrap">\1</span>', marked)


def numeric(texts: Iterable[str]) -> bool:
    """Whether a column of cell texts holds numbers: each one that is not missing reads
    as a number (``1,234``, ``0.5``, ``12 %``), and there is at least one."""
    found = [t for t in (t.strip() for t in texts) if t and t not in MISSING_TEXTS]
    return bool(found) and all(_NUMBER.fullmatch(t) for t in found)


def shown(value: object, *, number: bool) -> str:
    """One value as a cell's text: missing as nothing (``–`` in a column of numbers),
    whole numbers with thousands separators, times as pandas writes them."""
    if is_missing(value):
        return NO_NUMBER if number else ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
        return f"{int(value):,}"
    if isinstance(value, float):
        return f"{value:,.2f}"
    return str(value)


def campaign_label(campaign_id: object, names: Mapping[str, str] | None) -> object:
    """``Spring renewals (cmp_...)``: a campaign as a person reads it, by name and id;
    the id alone where the name is not known (an archived campaign), nothing for none."""
    if not isinstance(campaign_id, str):
        return campaign_id
    name = (names or {}).get(campaign_id)
    return f"{name} ({campaign_id})" if name else campaign_id


def campaign_names(campaigns: pd.DataFrame | None) -> dict[str, str]:
    """Names by id from the campaigns frame (``client.frames.campaigns()``), or none."""
    if campaigns is None or not {"id", "name"} <= set(campaigns.columns):
        return {}
    known = campaigns.dropna(subset=["id", "name"])
    return dict(zip(known["id"].astype(str), known["name"].astype(str), strict=True))


def short_id(campaign: str) -> str:
    """A campaign's id by its start, ``cmp_`` and its UUID's first 8 digits: enough to tell
    an account's campaigns apart on a chart or a label that has no name for one."""
    return campaign[:12]


def as_written(texts: Iterable[Text]) -> None:
    """Draw each of ``texts`` exactly as written (call it once per text): matplotlib reads
    a text between two ``$`` as mathematics (``$\\frac{1}{0}$`` drawn as a fraction, a
    formula it cannot parse fails the whole figure) and, under ``text.usetex``, hands it
    to TeX; a label that holds a campaign's name or another text from an account must be
    neither. Each ``$`` is escaped (``\\$``, which matplotlib draws as ``$``) rather than
    math turned off, since a wrapped title measures its lines as mathematics regardless."""
    for text in texts:
        text.set_text(text.get_text().replace("$", r"\$"))
        text.set_parse_math(True)  # the escape's meaning, whatever text.parse_math says
        text.set_usetex(False)


def html_table(frame: pd.DataFrame, *, index: bool = False,
               texts: Mapping[str, pd.Series] | None = None) -> str:
    """``frame`` as an HTML table in a box of its own that scrolls when too wide, every
    cell by :func:`shown` and :func:`cell_text`; ``texts`` gives a column's cells
    already as text (a rate as a percentage), as they are. Every name and cell is
    escaped (a page that shows the table marks itself :data:`NOT_MATH`)."""
    table = frame.reset_index() if index else frame
    given = texts or {}
    columns = []
    for name in table.columns:
        series = table[name]
        number = pd.api.types.is_numeric_dtype(series.dtype) and not pd.api.types.is_bool_dtype(
            series.dtype)
        cells = (given[name].tolist() if name in given
                 else [shown(v, number=number) for v in series.tolist()])
        columns.append((str(name), cells, number and name not in given))
    head = "".join(f"<th>{breakable(name, 0)}</th>" for name, _, _ in columns)
    rows = "".join("<tr>" + "".join(_cell(cells[n], number) for _, cells, number in columns)
                   + "</tr>" for n in range(len(table)))
    return (f'<div class="dialkit-scroll"><table class="dialkit-table"><thead><tr>{head}'
            f"</tr></thead><tbody>{rows}</tbody></table></div>")


def _cell(text: str, number: bool) -> str:
    seen, whole, prose = cell_text(text)
    classes = " ".join(c for c, on in (("dialkit-number", number), ("dialkit-prose", prose))
                       if on)
    attributes = (f' class="{classes}"' if classes else "") + (
        f' title="{html.escape(whole)}"' if whole else "")
    return f"<td{attributes}>{html.escape(seen) if number else breakable(seen)}</td>"


def svg_of(figure: Figure) -> bytes:
    """A figure as SVG bytes, undated (the same figure gives the same bytes): what a
    notebook's widget shows, sharp at any width and any screen's pixel density."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None})
    return buffer.getvalue()


def hidden_beside_a_widget(css_class: str) -> str:
    """The CSS that hides a view's HTML (of ``css_class``) in an output after one where its
    widget is drawn (JupyterLab, Notebook 7, nbclassic; a page whose widget renderer
    loaded): a notebook view shows its widget, then the same view as HTML for wherever
    no kernel draws the widget, and where one does only the widget is seen."""
    return (f".jp-OutputArea-child:has(.widget-vbox)~.jp-OutputArea-child .{css_class},"
            f".output_area:has(.widget-vbox)~.output_area .{css_class}{{display:none}}")
