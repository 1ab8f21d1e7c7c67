"""A user's text file, read by one reader (:mod:`dialkit._files._text`, issue 78): as an
editor or a spreadsheet saved it, or refused naming it and what to do, in the caller's
error, never as a raw ``[Errno 2] ...``."""

from __future__ import annotations

import codecs
import errno
from pathlib import Path

import pytest

from dialkit._files._text import read_text, unreadable
from dialkit.errors import ConfigError

TEXT = "caller ids\n+14155550100,Zoë's line\n"
SAVED = {
    "UTF-8": (b"", "utf-8"),
    "UTF-8, with a byte order mark (Excel's CSV UTF-8, Notepad)": (codecs.BOM_UTF8, "utf-8"),
    "UTF-16 (Excel's Unicode text)": (codecs.BOM_UTF16_LE, "utf-16-le"),
    "UTF-16, big-endian": (codecs.BOM_UTF16_BE, "utf-16-be"),
    "cp1252 (an older Windows tool)": (b"", "cp1252"),
}
"""How a file is saved: the byte order mark written, then the text in its encoding."""


@pytest.mark.parametrize(("bom", "encoding"), list(SAVED.values()), ids=list(SAVED))
def test_a_file_reads_as_the_text_it_was_saved_as(tmp_path: Path, bom: bytes,
                                                   encoding: str) -> None:
    path = tmp_path / "ids.txt"
    path.write_bytes(bom + TEXT.encode(encoding))
    assert read_text(path) == TEXT


@pytest.mark.parametrize(("where", "said"), [
    ("gone.txt", "there is no such file: check the path"),
    ("a_file/ids.txt", "there is no such file: check the path"),  # a folder of it is a file
    ("a_folder", "is a folder, where a file is wanted: name a file in it"),
])
def test_a_file_that_cannot_be_opened_is_refused_naming_it_in_the_callers_error(
        tmp_path: Path, where: str, said: str) -> None:
    (tmp_path / "a_file").write_text("not a folder\n", encoding="utf-8")
    (tmp_path / "a_folder").mkdir()
    with pytest.raises(ConfigError) as refused:
        read_text(tmp_path / where, ConfigError)
    assert str(refused.value) == f"{tmp_path / where}: {said}"


def test_a_binary_file_is_refused_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "ids.txt"
    path.write_bytes(bytes(range(256)))
    with pytest.raises(ConfigError, match=rf"^{path}: this is a binary file"):
        read_text(path, ConfigError)


@pytest.mark.parametrize(("error", "said"), [
    (PermissionError(errno.EACCES, "Permission denied"), "cannot be read: you have no "
     "permission to read it: ask its owner for it, or copy it somewhere you may read"),
    (FileNotFoundError("calls.parquet"), "there is no such file: check the path"),  # pyarrow's
    (OSError(errno.EIO, "Input/output error"), "cannot be read: input/output error"),
])
def test_why_a_file_cannot_be_opened_is_said_in_words_never_as_an_errno(
        error: OSError, said: str) -> None:
    """As root (these tests' container) a file's permissions refuse no one: the errors
    the system raises are made here."""
    assert unreadable(error) == said
