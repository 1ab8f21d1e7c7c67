"""The demo's notebook pages made for their readers, after nbconvert has written them.

A notebook's tables are pandas' (and the toolkit's) HTML: missing values written
``None``, ``nan`` or ``<NA>``, a 130-character id that makes a table 4,000 px
wide. Each table in an output is passed through the rules of
:mod:`dialkit._shown._pages`: missing values as an empty cell (``–`` in a column
of numbers), long ids cut in the middle with the whole in a tooltip, long
sentences wrapped, ids wrapping after their ``_``, ``-`` and ``/`` and never inside
a word, and the table in a box of its own that scrolls sideways. Text outputs wrap
between words only (JupyterLab's style breaks them anywhere). A
plot has no alt text of its own (nbconvert writes a placeholder): it takes the
first sentence of the text cell above it, which says what the plot shows.

The page loads MathJax for the notebook's own text; the outputs, which hold the
account's data (a campaign named ``$\\frac{1}{0}$``), are marked for MathJax to
skip (:data:`~dialkit._shown._pages.NOT_MATH`), so their text shows as written.
The widgets' saved state is left out: a page draws no widget (the explorer shows as
HTML), and the state held a second copy of its plots and the account's names.
"""

from __future__ import annotations

import html
import re

from bs4 import BeautifulSoup, Tag

from .._shown._pages import (
    BREAKABLE_WORD,
    MISSING_TEXTS,
    NO_NUMBER,
    NOT_MATH,
    TABLE_STYLE,
    breakable,
    cell_text,
    numeric,
)

PLACEHOLDER_ALT = "No description has been provided for this image"
"""What nbconvert writes as a plot's alt text when it has none."""
_PAGE_STYLE = TABLE_STYLE + (
    ".jp-RenderedHTMLCommon .dialkit-scroll table{margin:0}"
    ".jp-RenderedHTMLCommon td.dialkit-prose{text-align:left}"
    # JupyterLab's own rule breaks a text output anywhere (word-break:break-all), and a
    # pandas Series or frame printed as text loses its columns ("calling_hou / rs"):
    # text wraps between words only, and a value printed in columns keeps them and
    # scrolls in its own box
    ".jp-OutputArea-output pre{word-break:normal;overflow-wrap:normal}"
    ".jp-OutputArea-executeResult pre{white-space:pre}")
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
"""The type of the script element in which nbconvert saves the notebook's widgets."""
_SENTENCE = re.compile(r"(.{12,}?[.?!:])(\s|$)", re.DOTALL)
_LONGEST_ALT = 200


def readable(page: str) -> str:
    """``page`` (an exported notebook) with its output tables tidied, its plots
    described and its outputs kept from MathJax; the rest as it was."""
    soup = BeautifulSoup(page, features="html.parser")
    for output in soup.select(".jp-OutputArea-output"):
        output["class"] = " ".join([*(output.get("class") or []), NOT_MATH])
    for state in soup.select(f'script[type="{WIDGET_STATE}"]'):
        state.decompose()
    for table in soup.select(".jp-OutputArea-output table"):
        tidy(table, soup)
    for image in soup.select(".jp-OutputArea-output img"):
        if image.get("alt", PLACEHOLDER_ALT) == PLACEHOLDER_ALT:
            image["alt"] = _described(image)
    style = soup.new_tag("style")
    style.string = _PAGE_STYLE
    (soup.head or soup).append(style)
    return str(soup)


def tidy(table: Tag, soup: BeautifulSoup) -> None:
    """One table by the rules of :mod:`dialkit._shown._pages`, in a scrolling box."""
    if not (table.parent and "dialkit-scroll" in (table.parent.get("class") or [])):
        table.wrap(soup.new_tag("div", attrs={"class": "dialkit-scroll"}))
    for name in table.select("thead th"):
        if name.find(True) is None:  # a column's name, wrapping after its "_"
            _break_ids(name, name.get_text(), 0)
    rows = [row.find_all(["td", "th"], recursive=False) for row in table.select("tbody tr")]
    width = max((len(row) for row in rows), default=0)
    numbers = [numeric(row[n].get_text() for row in rows if n < len(row))
               for n in range(width)]
    for row in rows:
        for n, cell in enumerate(row):
            _tidy_cell(cell, numbers[n])


def _tidy_cell(cell: Tag, number: bool) -> None:
    text = cell.get_text()
    if text.strip() in MISSING_TEXTS:
        cell.string = NO_NUMBER if number else ""
        return
    if cell.find(True) is not None or cell.get("title"):  # markup of its own: as it is
        return
    shown, whole, prose = cell_text(text)
    if whole is not None:
        cell.string, cell["title"] = shown, whole
    if prose:
        cell["class"] = " ".join([*(cell.get("class") or []), "dialkit-prose"])
    elif not number:
        _break_ids(cell, shown)


def _break_ids(cell: Tag, text: str, longer_than: int = BREAKABLE_WORD) -> None:
    """The cell's long ids given a ``<wbr>`` after each ``_``, ``-`` and ``/``, and its
    dates kept whole, as the evidence's tables have them
    (:func:`~dialkit._shown._pages.breakable`)."""
    marked = breakable(text, longer_than)
    if marked != html.escape(text):
        cell.clear()
        cell.append(BeautifulSoup(marked, features="html.parser"))


def _described(image: Tag) -> str:
    """The first sentence of the text cell before the plot's cell (its first paragraph,
    not its heading), or what it is."""
    cell = image.find_parent(class_="jp-Cell")
    while cell is not None:
        cell = cell.find_previous_sibling(class_="jp-Cell")
        if cell is not None and "jp-MarkdownCell" in (cell.get("class") or []):
            words = cell.find("p") or cell
            text = " ".join(words.get_text(" ").replace("¶", "").split())
            found = _SENTENCE.match(text)
            sentence = found.group(1) if found else text
            if sentence:
                return "Plot: " + sentence[:_LONGEST_ALT]
    return "Plot"
