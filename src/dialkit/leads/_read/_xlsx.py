"""What an XLSX workbook says about its phone cells that calamine does not: each
cell's number format and whether it holds a formula with no value.

Excel shows ``07700900123`` for the number 7700900123 formatted ``00000000000``,
and a phone column typed that way is stored as numbers: the digits the user saw
come back only by applying the format. calamine (0.9) reads values alone, no
formats and no formulas, and openpyxl is a test dependency only; so the styles
and the sheet's XML are read here with the standard library (``zipfile``, the
small parts by ``ElementTree``, the sheet streamed in chunks through a pattern
that matches the phone columns' cells alone), only when a phone cell is a
number or empty. XLS and ODS files are left as calamine reads them.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field
from typing import IO
from xml.etree.ElementTree import ParseError, fromstring

_MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
_PKG_REL = "{http://schemas.openxmlformats.org/package/2006/relationships}"
_BUILT_IN = {1: "0"}  # of Excel's built-in formats, the only one that is digits alone
_CHUNK = 4 << 20
_FORMULA = re.compile(rb"<(?:\w+:)?f[\s>/]")
_VALUE = re.compile(rb"<(?:\w+:)?v>[^<]")
_STYLE = re.compile(rb'\bs="(\d+)"')
_KIND = re.compile(rb'\bt="(\w+)"')
_QUOTED = re.compile(r'"([^"]*)"|\\(.)|(_.|\*.)|([0#?])|(.)')
_TAGS = re.compile(r"\[[^\]]*\]")  # a condition ([<=9999999]), a colour ([Red])
_CONDITION = re.compile(r"\[(<=|>=|<>|<|>|=)(\d+(?:\.\d+)?)\]")
_NOT_DIGITS = re.compile(r'[.,%Ee/@\[]|(?<!\\)[yYmMdDhHsS]')


@dataclass
class CellFacts:
    """Per sheet cell (0-based row and column): the number format of the wanted
    columns' cells that have one, and the cells holding a formula with no value."""

    formats: dict[tuple[int, int], str] = field(default_factory=dict)
    unevaluated: set[tuple[int, int]] = field(default_factory=set)


def cell_facts(data: bytes, sheet: str, columns: Collection[int], *,
               formats: bool, formulas: bool) -> CellFacts:
    """The facts of ``columns`` (0-based) of ``sheet``: empty when the workbook is not
    XLSX, when neither is asked for, or when its parts cannot be read (calamine has
    read the values; what is missing here only leaves them as calamine read them)."""
    facts = CellFacts()
    if not (formats or formulas) or not columns:
        return facts
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as book:
            path = dict(sheet_members(book)).get(sheet)
            styles = _styles(book) if formats else []
            if path is None or not (any(styles) or formulas and _has_formula(book, path)):
                return facts
            with book.open(path) as xml:
                _scan(xml, set(columns), styles, facts)
    except (zipfile.BadZipFile, KeyError, ParseError, OSError, ValueError):
        return CellFacts()
    return facts


def sheet_members(book: zipfile.ZipFile) -> list[tuple[str, str]]:
    """Each sheet's name and zip member, found as calamine finds them: by the workbook's
    relationships, a target under ``xl/`` unless it starts there, matched without regard
    to case (so that what is read here is what calamine read). Empty for a workbook
    that is not XLSX, or whose parts cannot be read."""
    parts = {name.lower(): name for name in book.namelist()}
    try:
        workbook = fromstring(book.read(parts["xl/workbook.xml"]))
        rels = fromstring(book.read(parts["xl/_rels/workbook.xml.rels"]))
    except (KeyError, ParseError):
        return []
    targets = {r.get("Id"): r.get("Target") or "" for r in rels.iter(f"{_PKG_REL}Relationship")}
    found = []
    for sheet in workbook.iter(f"{_MAIN}sheet"):
        target = targets.get(sheet.get(_REL), "")
        path = target[1:] if target.startswith("/xl/") else (
            target if target.startswith("xl/") else f"xl/{target}")
        if path.lower() in parts:
            found.append((sheet.get("name") or "", parts[path.lower()]))
    return found


def _styles(book: zipfile.ZipFile) -> list[str | None]:
    """Per cell style (a cell's ``s``), its number format when it is one of digits and
    text alone (``00000000000``, ``"+44 "0000 000000``): the formats that change
    how a whole number shows."""
    if "xl/styles.xml" not in book.namelist():
        return []
    root = fromstring(book.read("xl/styles.xml"))
    codes = dict(_BUILT_IN)
    for fmt in root.iter(f"{_MAIN}numFmt"):
        codes[int(fmt.get("numFmtId", "0"))] = fmt.get("formatCode", "")
    xfs = root.find(f"{_MAIN}cellXfs")
    found = [codes.get(int(xf.get("numFmtId", "0"))) for xf in
             (xfs.iter(f"{_MAIN}xf") if xfs is not None else [])]
    return [code if code is not None and _digits_only(code) else None for code in found]


def _digits_only(code: str) -> bool:
    """Whether a format shows a whole number as digits and text alone, in each of its
    sections for positive numbers (Excel's phone format is two, by a condition:
    ``[<=9999999]###-####;(###) ###-####``)."""
    sections = [_TAGS.sub("", section) for section in _sections(code)[:2]]
    for section in sections:
        plain = _QUOTED.sub(lambda m: "" if m[1] is not None or m[2] else m[0], section)
        if _NOT_DIGITS.search(plain) or not re.search(r"[0#?]", plain):
            return False
    return sections[0] not in ("0", "#")


def _sections(code: str) -> list[str]:
    """A format's sections: the text between ``;`` outside quotes."""
    sections, quoted, start = [], False, 0
    for n, char in enumerate(code):
        if char == '"':
            quoted = not quoted
        elif char == ";" and not quoted:
            sections.append(code[start:n])
            start = n + 1
    return [*sections, code[start:]]


def _section(code: str, value: float) -> str | None:
    """The section that shows ``value``: the first, unless a condition sends it to the
    second (``[<=9999999]``)."""
    sections = _sections(code)
    for section in sections[:2]:
        condition = _CONDITION.search(section)
        if condition is None or _holds(condition[1], float(condition[2]), value):
            return _TAGS.sub("", section)
    return None


def _holds(operator: str, bound: float, value: float) -> bool:
    return {"<": value < bound, "<=": value <= bound, ">": value > bound,
            ">=": value >= bound, "=": value == bound, "<>": value != bound}[operator]


def _has_formula(book: zipfile.ZipFile, path: str) -> bool:
    """Whether the sheet holds a formula at all: a scan of its bytes for ``<f``, a
    fraction of the time the XML parse takes (a vendor sheet with empty phone cells
    seldom holds formulas)."""
    with book.open(path) as xml:
        return any(_FORMULA.search(piece) for piece in pieces(xml, b"<"))


def pieces(xml: IO[bytes], end: bytes, *, after: bool = False,
           size: int = _CHUNK) -> Iterator[bytes]:
    """A part's bytes in pieces of about ``size``, so that a whole part is never held:
    each cut at its last ``end`` (before it, or ``after`` it), and what follows carried
    on to the next, so that no tag (no row) is cut in two; the last piece the rest."""
    carry = b""
    while chunk := xml.read(size):
        buffer = carry + chunk
        at = buffer.rfind(end)
        cut = 0 if at < 0 else at + len(end) * after  # none: carried whole
        yield buffer[:cut]
        carry = buffer[cut:]
    yield carry


def _scan(xml: IO[bytes], columns: set[int], styles: list[str | None],
          facts: CellFacts) -> None:
    """Read the sheet's cells of ``columns`` from its bytes as they stream by, by a
    pattern that only those cells match: an XML parse of every cell took 37 µs a row
    (3.7 s for 100,000), the pattern a tenth. Cells are found by their ``r``, which
    Excel, LibreOffice, xlsxwriter and openpyxl all write (a cell without one is left
    as calamine read it)."""
    letters = b"|".join(_letters(column).encode() for column in sorted(columns))
    cells = re.compile(rb'<(?:\w+:)?c\s([^>]*?\br="(' + letters + rb')(\d+)"[^>]*?)'
                       rb"(?:/>|>(.*?)</(?:\w+:)?c>)", re.S)
    for piece in pieces(xml, b"row>", after=True):  # whole rows
        for found in cells.finditer(piece):
            _cell(found, styles, facts)


def _cell(found: re.Match[bytes], styles: list[str | None], facts: CellFacts) -> None:
    attributes, inner = found[1], found[4] or b""
    row, column = reference(found[2], found[3])
    place = (row - 1, column - 1)
    if _FORMULA.search(inner) and not _VALUE.search(inner):
        facts.unevaluated.add(place)
    style = _STYLE.search(attributes)
    kind = _KIND.search(attributes)
    code = styles[int(style[1])] if style and int(style[1]) < len(styles) else None
    if code is not None and (kind is None or kind[1] == b"n"):
        facts.formats[place] = code


def _letters(column: int) -> str:
    """A 0-based column as Excel names it: 0 → ``A``, 27 → ``AB``."""
    name = ""
    column += 1
    while column:
        column, rest = divmod(column - 1, 26)
        name = chr(65 + rest) + name
    return name


def reference(letters: bytes, digits: bytes) -> tuple[int, int]:
    """``(b"AB", b"12")`` as 1-based (row, column): (12, 28); of a reference longer than
    any sheet's, its first 5 letters and 11 digits."""
    column = 0
    for letter in letters[:5]:
        column = column * 26 + letter - 64
    return int(digits[:11]), column


def shown(value: float, code: str) -> str | None:
    """A whole number as a digits-and-text format shows it (``00000000000``:
    7700900123 → ``07700900123``), or ``None`` for a number it does not fit."""
    if not float(value).is_integer() or value < 0:
        return None
    digits = str(int(value))
    section = _section(code, value)
    if section is None:
        return None
    parts = [("", m[4]) if m[4] else (m[1] if m[1] is not None else m[2] or m[5] or "", "")
             for m in _QUOTED.finditer(section) if not m[3]]
    slots = [n for n, (_, placeholder) in enumerate(parts) if placeholder]
    if not slots:
        return None
    out = [literal for literal, _ in parts]
    rest = digits
    for n in reversed(slots):  # digits fill the placeholders from the right, as Excel's
        out[n] = rest[-1] if rest else {"0": "0", "#": "", "?": " "}[parts[n][1]]
        rest = rest[:-1]
    out[slots[0]] = rest + out[slots[0]]
    return "".join(out)
