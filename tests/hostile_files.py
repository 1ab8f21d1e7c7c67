"""Files built to exhaust a reader's memory, made in a fraction of a second, and a way to
run the command line on them under a memory ceiling.

The zip bomb is an XLSX whose sheet XML is a few GiB of one repeated ``<row>``. It is
not compressed by zlib byte by byte (several seconds a GiB): one chunk is deflated
once, ended with a full flush so the next deflated copy does not refer back to it,
and its compressed bytes are repeated. The CRC is that of the real content, so the
archive is valid and every reader inflates the whole sheet.
"""

from __future__ import annotations

import os
import resource
import struct
import subprocess
import sys
import zlib
from pathlib import Path

CEILING = 2 << 30
"""The address space a capped run may take: room for dialkit, pandas and pyarrow to
import and read a small file (they did not start under 1.4-1.5 GiB, where an allocator
reserves an arena the rest then lacks), well below what the hostile files took."""

_XML = b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
_MAIN = b"http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_RELS = b"http://schemas.openxmlformats.org/package/2006/relationships"
_OFFICE = b"http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_PARTS = {
    "[Content_Types].xml": _XML + b'<Types xmlns="http://schemas.openxmlformats.org/package/'
    b'2006/content-types"><Default Extension="rels" ContentType="application/'
    b'vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" '
    b'ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType='
    b'"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
    b'<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/'
    b'vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
    "_rels/.rels": _XML + b'<Relationships xmlns="' + _RELS + b'"><Relationship Id="rId1" '
    b'Type="' + _OFFICE + b'/officeDocument" Target="xl/workbook.xml"/></Relationships>',
    "xl/workbook.xml": _XML + b'<workbook xmlns="' + _MAIN + b'" xmlns:r="' + _OFFICE +
    b'"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>',
    "xl/_rels/workbook.xml.rels": _XML + b'<Relationships xmlns="' + _RELS + b'">'
    b'<Relationship Id="rId1" Type="' + _OFFICE + b'/worksheet" '
    b'Target="worksheets/sheet1.xml"/></Relationships>',
}
_ROW = b'<row><c t="inlineStr"><is><t>+14155550123</t></is></c></row>'


def zip_bomb(path: Path, mib: int) -> Path:
    """An XLSX of a few MB whose sheet inflates to ``mib`` MiB of one phone per row."""
    chunk = _ROW * ((1 << 20) // len(_ROW))
    sheet = [(_XML + b'<worksheet xmlns="' + _MAIN + b'"><sheetData><row><c t="inlineStr">'
              b"<is><t>phone</t></is></c></row>", 1), (chunk, mib),
             (b"</sheetData></worksheet>", 1)]
    members = [(name, [(data, 1)]) for name, data in _PARTS.items()]
    path.write_bytes(_zipped([*members, ("xl/worksheets/sheet1.xml", sheet)]))
    return path


def workbook(path: Path, cells: bytes, *, head: bytes = b"", strings: bytes | None = None,
             prefix: bytes = b"") -> Path:
    """A small XLSX of one sheet whose ``<sheetData>`` holds ``cells`` (``head`` before it:
    a ``<dimension>``), with ``strings`` as its shared strings' part when given, and its
    sheet's elements written with ``prefix`` (``x:``) when given."""
    parts = dict(_PARTS)
    name = prefix.decode().rstrip(":")
    space = b'xmlns:' + name.encode() + b'="' if name else b'xmlns="'
    parts["xl/worksheets/sheet1.xml"] = (
        _XML + b"<" + prefix + b"worksheet " + space + _MAIN + b'">' + head + b"<" + prefix +
        b"sheetData>" + cells + b"</" + prefix + b"sheetData></" + prefix + b"worksheet>")
    if strings is not None:
        parts["xl/sharedStrings.xml"] = strings
        parts["xl/_rels/workbook.xml.rels"] = parts["xl/_rels/workbook.xml.rels"].replace(
            b"</Relationships>", b'<Relationship Id="rId2" Type="' + _OFFICE +
            b'/sharedStrings" Target="sharedStrings.xml"/></Relationships>')
    path.write_bytes(_zipped([(part, [(data, 1)]) for part, data in parts.items()]))
    return path


def cell(ref: str, text: str, *, prefix: str = "") -> bytes:
    """An inline text cell at ``ref`` (``B12``; ``""``: a cell with no reference)."""
    at = f' r="{ref}"' if ref else ""
    return f'<{prefix}c{at} t="inlineStr"><{prefix}is><{prefix}t>{text}</{prefix}t>' \
        f"</{prefix}is></{prefix}c>".encode()


def corner_cell(path: Path) -> Path:
    """5 KB at most: a phone header at ``A1`` and one cell at ``XFD1048576``, the last
    cell of a sheet (calamine's grid of the two took 512 GB and aborted)."""
    return workbook(path, b'<row r="1">' + cell("A1", "phone") + b'</row><row r="1048576">'
                    + cell("XFD1048576", "x") + b"</row>")


def wide_header(path: Path, rows: int = 1500) -> Path:
    """A header cell at ``XFD1`` above ``rows`` rows of one phone (16 KB; 1.6 GiB read)."""
    body = b"".join(b'<row r="%d">' % n + cell(f"A{n}", "+14155550123") + b"</row>"
                    for n in range(2, rows + 2))
    return workbook(path, b'<row r="1">' + cell("A1", "phone") + cell("XFD1", "note")
                    + b"</row>" + body)


def many_strings(path: Path, count: int = 4294967295) -> Path:
    """A sharedStrings part of one string that declares ``count`` of them (calamine
    reserved room for 4,294,967,295, 103 GB, and aborted)."""
    strings = (_XML + b'<sst xmlns="' + _MAIN + b'" count="1" uniqueCount="%d"><si><t>phone'
               b"</t></si></sst>" % count)
    return workbook(path, b'<row r="1"><c r="A1" t="s"><v>0</v></c></row>', strings=strings)


def repeated_ods(path: Path, rows: int, columns: int) -> Path:
    """An ODS file of 1.5 KB: a phone header, then one row of one number that says it
    repeats ``rows`` times, its cell ``columns`` times (calamine expands both: a million
    rows of 90 asked for 2.9 GB and aborted)."""
    office = b"urn:oasis:names:tc:opendocument:xmlns:"
    cell = b'<table:table-cell office:value-type="%s"%s><text:p>%s</text:p></table:table-cell>'
    content = (_XML + b'<office:document-content xmlns:office="' + office + b'office:1.0" '
               b'xmlns:table="' + office + b'table:1.0" xmlns:text="' + office + b'text:1.0">'
               b'<office:body><office:spreadsheet><table:table table:name="Leads">'
               b"<table:table-row>" + cell % (b"string", b"", b"phone") + b"</table:table-row>"
               b'<table:table-row table:number-rows-repeated="%d">' % rows +
               cell % (b"float", b' office:value="1" table:number-columns-repeated="%d"'
                       % columns, b"1") + b"</table:table-row></table:table>"
               b"</office:spreadsheet></office:body></office:document-content>")
    manifest = (_XML + b'<manifest:manifest xmlns:manifest="' + office + b'manifest:1.0">'
                b'<manifest:file-entry manifest:full-path="/" manifest:media-type="application/'
                b'vnd.oasis.opendocument.spreadsheet"/><manifest:file-entry manifest:full-path='
                b'"content.xml" manifest:media-type="text/xml"/></manifest:manifest>')
    path.write_bytes(_zipped([("mimetype", [(b"application/vnd.oasis.opendocument."
                                             b"spreadsheet", 1)]),
                              ("content.xml", [(content, 1)]),
                              ("META-INF/manifest.xml", [(manifest, 1)])]))
    return path


def wide_csv(path: Path, columns: int) -> Path:
    """A CSV whose header line has ``columns`` one-letter columns (2 MB for a million)."""
    path.write_text("phone," + "x," * (columns - 2) + "x\n+14155550123\n")
    return path


def long_line_csv(path: Path, mib: int = 50) -> Path:
    """A CSV with one ``mib`` MiB line among short ones."""
    with path.open("w") as out:
        out.write("phone,name\n+14155550123,Ann\n+14155550124,")
        for _ in range(mib):
            out.write("y" * (1 << 20))
        out.write("\n+14155550125,Bob\n")
    return path


def run_capped(*args: str, env: dict[str, str] | None = None,
               ceiling: int = CEILING) -> subprocess.CompletedProcess[str]:
    """``dialkit *args`` in a process whose address space cannot pass ``ceiling``."""
    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (ceiling, ceiling))

    command = [str(Path(sys.executable).with_name("dialkit")), *args]
    return subprocess.run(command, preexec_fn=cap, capture_output=True, text=True,
                          timeout=60, env={**os.environ, **(env or {})}, check=False)


def _zipped(members: list[tuple[str, list[tuple[bytes, int]]]]) -> bytes:
    """A zip archive of deflated members, each given as (chunk, times repeated) pairs."""
    body, central, offset = [], [], 0
    for name, parts in members:
        data, crc, size = _deflated(parts)
        encoded = name.encode()
        fields = (20, 0, 8, 0, 0, crc, len(data), size, len(encoded))
        local = struct.pack("<IHHHHHIIIHH", 0x04034B50, *fields, 0) + encoded
        central.append(struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, *fields,
                                   0, 0, 0, 0, 0, offset) + encoded)
        body += [local, data]
        offset += len(local) + len(data)
    directory = b"".join(central)
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(central), len(central),
                      len(directory), offset, 0)
    return b"".join(body) + directory + end


def _deflated(parts: list[tuple[bytes, int]]) -> tuple[bytes, int, int]:
    """Raw deflate of the parts, with the CRC-32 and size of what it inflates to."""
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    out, crc, size = [], 0, 0
    for chunk, times in parts:
        out.append(deflate.compress(chunk) + deflate.flush(zlib.Z_FULL_FLUSH))
        if times > 1:  # after a full flush, the same chunk deflates to the same bytes
            out.append((deflate.compress(chunk) + deflate.flush(zlib.Z_FULL_FLUSH))
                       * (times - 1))
        for _ in range(times):
            crc = zlib.crc32(chunk, crc)
        size += len(chunk) * times
    out.append(deflate.flush())
    return b"".join(out), crc, size
