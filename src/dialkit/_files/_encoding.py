"""The text encoding of a file a user gives (a lead file, an export the audit reads):
named, marked by a byte order mark, or found.

A file appended to by two tools holds UTF-8 lines and cp1252 lines, and no one
encoding reads it: such a file is read line by line, each line in the encoding
that reads it, and the lines that needed the other one are reported. An
encoding named wrongly is refused in words (the line, the byte and what to pass),
never with a codec's wording, and never read into mojibake.
"""

from __future__ import annotations

import codecs
import os
import re
from dataclasses import dataclass

from .._utils._base_error import EncodingError

BOMS = ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF32_LE, "utf-32"),
        (codecs.BOM_UTF32_BE, "utf-32"), (codecs.BOM_UTF16_LE, "utf-16"),
        (codecs.BOM_UTF16_BE, "utf-16"))
"""Byte order marks and the encoding each one names (UTF-32's before UTF-16's: the
little-endian UTF-32 mark starts with the UTF-16 one)."""

SNIFFED = 65_536
"""The bytes of a file looked at before it is read: for a binary file, the delimiter
and the header's line."""
_BOM_NAMES = {"utf-8-sig": "UTF-8", "utf-16": "UTF-16", "utf-32": "UTF-32"}
_HIGH = bytes(range(128, 256))
_NON_ASCII_LINE = re.compile(rb"[^\n]*[\x80-\xff][^\n]*")


@dataclass(frozen=True)
class Decoded:
    """A file's text as UTF-8 bytes, the encoding read, and the lines read in another."""

    utf8: bytes
    encoding: str
    other_lines: tuple[int, ...] = ()
    other: str | None = None


def decode(data: bytes, encoding: str | None) -> Decoded:
    """The file as UTF-8: in ``encoding``, a byte order mark's, UTF-8, or line by line.

    Raises:
        EncodingError: ``encoding`` is unknown, contradicts the file's byte order mark,
            or does not read some byte of it; or the file is binary.
    """
    if encoding is not None:
        return Decoded(_named(data, encoding), encoding)
    for bom, found in BOMS:
        if data.startswith(bom):
            if found == "utf-8-sig":
                return _after_utf8_bom(data[len(bom):])
            return Decoded(_named(data, found, given=False), found)
    if b"\x00" in data[:SNIFFED]:
        raise EncodingError("this is a binary file, not a CSV or Excel file")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return by_line(data)
    return Decoded(data, "utf-8")


def _after_utf8_bom(body: bytes) -> Decoded:
    """A file marked UTF-8: as it is, or line by line when another tool appended
    cp1252 lines to it (the mark kept as its encoding, for the cleaned file's)."""
    if _decodes(body, "utf-8"):
        return Decoded(body, "utf-8-sig")
    mixed = by_line(body)
    return Decoded(mixed.utf8, "utf-8-sig", mixed.other_lines, mixed.other)


def _named(data: bytes, encoding: str, *, given: bool = True) -> bytes:
    """The file read in the encoding its reader named (``given``) or its byte order
    mark names, refused where it cannot be."""
    try:
        codec = codecs.lookup(encoding).name
    except LookupError:
        raise EncodingError(f"encoding={encoding!r} is not an encoding Python knows; leave "
                            "encoding= out to detect it, or name one such as 'cp1252'") from None
    _check_bom(data, encoding, codec)
    if codec.startswith("utf-8"):
        data = data.removeprefix(codecs.BOM_UTF8)
    try:
        text = data.decode(codec)
    except UnicodeDecodeError as exc:
        line = data[:exc.start].decode(codec, errors="replace").count("\n") + 1
        how = ("leave encoding= out to detect it, or name the right one" if given else
               f"the file starts with a {encoding.upper()} byte order mark but is not "
               f"{encoding.upper()} throughout: save it again as UTF-8")
        place = where(data, exc.start, line, in_line=not codec.startswith(("utf-16", "utf-32")))
        raise EncodingError(f"cannot be read as {encoding}: {place} "
                            f"holds {_shown(data[exc.start:exc.end])}, which {encoding} does "
                            f"not read; {how}") from None
    return data if codec == "utf-8" else text.encode("utf-8")


def _check_bom(data: bytes, encoding: str, codec: str) -> None:
    """Refuse an encoding other than the one the file's byte order mark names (a
    UTF-8 file read as cp1252 gets a header ``ï»¿First Name`` and mojibake)."""
    for bom, found in BOMS:
        if data.startswith(bom):
            if not codec.startswith(found[:5]):  # utf-8, -16 or -32, with or without -sig/-le
                raise EncodingError(
                    f"starts with a {_BOM_NAMES[found]} byte order mark, so it is "
                    f"{_BOM_NAMES[found]}, but encoding={encoding!r} was given; leave "
                    f"encoding= out (or pass encoding={found!r})")
            return


def by_line(data: bytes) -> Decoded:
    """A file that is not UTF-8 as a whole: each line in UTF-8 when it reads so, else in
    cp1252 (latin-1 for the bytes cp1252 leaves undefined).

    A line that reads as UTF-8 is UTF-8: cp1252 text almost never does (``é`` alone
    is an invalid UTF-8 byte). A file with no such line beyond ASCII is a cp1252
    file. Not a statistical guess: on short Western lists charset-normalizer picked
    Baltic and Central European code pages for cp1252 files (``Zoë`` read as ``Zoļ``);
    files in other code pages name theirs with ``encoding=``.
    """
    if _decodes(data, "cp1252") and not _utf8_beyond_ascii(data):
        return Decoded(data.decode("cp1252").encode("utf-8"), "cp1252")  # at C speed
    pieces: list[bytes] = []
    other: list[int] = []
    utf8_seen = False
    last, line = 0, 1
    for found in _NON_ASCII_LINE.finditer(data):  # ASCII lines read alike in both: kept
        line += data.count(b"\n", last, found.start())
        pieces.append(data[last:found.start()])
        if _decodes(found[0], "utf-8"):
            pieces.append(found[0])
            utf8_seen = True
        else:
            pieces.append(_legacy(found[0]).encode("utf-8"))
            other.append(line)
        last = found.end()
    pieces.append(data[last:])
    legacy = "cp1252" if _decodes(data, "cp1252") else "latin-1"
    if not utf8_seen:
        return Decoded(b"".join(pieces), legacy)
    return Decoded(b"".join(pieces), "utf-8", tuple(other), legacy)


SCANNED = 1 << 24
"""Bytes of a file :func:`cp1252_throughout` decodes at a time (cut after a line)."""


def cp1252_throughout(path: str | os.PathLike[str]) -> bool:
    """Whether :func:`decode` reads the file on disk as a cp1252 file: every byte reads
    in cp1252 and no line beyond ASCII reads as UTF-8 (:func:`by_line`'s first case),
    found a part at a time, each cut after a line, so that a 2 GB file need not be held
    (so it can be read as it is streamed, in cp1252)."""
    carry = b""
    with open(path, "rb") as file:
        for block in iter(lambda: file.read(SCANNED), b""):
            data = carry + block
            cut = data.rfind(b"\n") + 1
            part, carry = data[:cut], data[cut:]
            if not _decodes(part, "cp1252") or _utf8_beyond_ascii(part):
                return False
    return _decodes(carry, "cp1252") and not _utf8_beyond_ascii(carry)


def _utf8_beyond_ascii(data: bytes) -> bool:
    """Whether some bytes beyond ASCII read as UTF-8: fewer bytes fail to decode than
    there are such bytes (counted in C, a tenth of a second for 50 MB)."""
    invalid = len(data) - len(data.decode("utf-8", "surrogateescape").encode("utf-8", "ignore"))
    return invalid < len(data) - len(data.translate(None, _HIGH))


def _decodes(data: bytes, encoding: str) -> bool:
    """Whether every byte of ``data`` reads in ``encoding``."""
    try:
        data.decode(encoding)
    except UnicodeDecodeError:
        return False
    return True


def _legacy(line: bytes) -> str:
    try:
        return line.decode("cp1252")
    except UnicodeDecodeError:
        return line.decode("latin-1")


def where(data: bytes, offset: int, line: int, *, in_line: bool = True) -> str:
    """Where a byte is, in words: ``line 3, byte 40 of the file (byte 12 of the line)``
    (``in_line``: the byte of the line too, for an encoding whose line end is the
    byte ``\\n``, not UTF-16's two)."""
    if not in_line:
        return f"line {line}, byte {offset + 1:,} of the file"
    start = data.rfind(b"\n", 0, offset) + 1
    return f"line {line}, byte {offset + 1:,} of the file (byte {offset - start + 1} of the line)"


def _shown(raw: bytes) -> str:
    shown = " ".join(f"0x{b:02X}" for b in raw[:4])
    return f"the byte {shown}" if len(raw) == 1 else f"the bytes {shown}"
