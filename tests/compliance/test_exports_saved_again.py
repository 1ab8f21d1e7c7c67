"""An export of the calls, opened in a spreadsheet and saved again, audits as the export
did (issue 71: one answer on every path, whatever the file's form).

A compliance officer opens ``calls.csv`` in Excel and saves it: in a German or French
locale "CSV (Trennzeichen-getrennt)" is separated by ``;`` and written in cp1252 (a
``Müller`` in a disposition note is the byte ``0xFC``); "Unicode Text" is UTF-16 with a
byte order mark, separated by tabs, its lines ending in CRLF; LibreOffice offers ``|``.
The audit's reader took commas and UTF-8 only: a ``;`` file was "calls has no column id,
direction, ...", and a UTF-16 one a codec's error. The cells are the export's own, so
the times stay ISO 8601 (a spreadsheet that rewrites them as ``23.11.2026 05:00`` is
refused naming the cell, as before)."""

from __future__ import annotations

import codecs
from pathlib import Path

import pandas as pd
import pytest

from conftest import KEYS
from dialkit import Client
from dialkit.compliance import AuditInputError, run_audit
from dialkit.sandbox import Sandbox

SAVED = {
    "excel-de-csv": (";", "cp1252", "\r\n", b""),
    "excel-unicode-text": ("\t", "utf-16-le", "\r\n", codecs.BOM_UTF16_LE),
    "excel-csv-utf8": (",", "utf-8", "\r\n", codecs.BOM_UTF8),
    "libreoffice-pipe": ("|", "utf-8", "\n", b""),
}


@pytest.fixture(scope="module")
def export(sandbox: Sandbox,
           tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, pd.DataFrame]:
    """The seeded account's calls of one campaign as ``client.frames`` exports them, with a
    disposition note of a name no ASCII spells, and their findings."""
    with Client(KEYS["full"], base_url=sandbox.base_url, rate_limit=None,
                cache_dir=tmp_path_factory.mktemp("cache")) as client:
        calls = client.frames.calls()
    calls = calls[calls["campaign_id"] == calls["campaign_id"].iloc[0]].assign(
        disposition="Müller: rappeler")
    path = tmp_path_factory.mktemp("export") / "calls.csv"
    calls.to_csv(path, index=False)
    return path, findings(path)


def findings(path: Path) -> pd.DataFrame:
    found = run_audit(calls=path).report.findings
    return found[["call_id", "rule", "evidence"]].astype(str).sort_values(
        ["call_id", "rule"], ignore_index=True)


@pytest.mark.parametrize("saved", sorted(SAVED))
def test_an_export_saved_again_by_a_spreadsheet_audits_alike(
        saved: str, export: tuple[Path, pd.DataFrame], tmp_path: Path) -> None:
    path, plain = export
    assert len(plain), "the seeded campaign's calls have findings to compare"
    delimiter, encoding, newline, bom = SAVED[saved]
    text = pd.read_csv(path, dtype=str, keep_default_na=False).to_csv(
        sep=delimiter, index=False, lineterminator=newline)
    again = tmp_path / "calls.csv"
    again.write_bytes(bom + text.encode(encoding))
    assert findings(again).equals(plain)


def test_a_binary_file_is_refused_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "calls.csv"
    path.write_bytes(bytes(range(256)) * 8)
    with pytest.raises(AuditInputError, match=rf"^{path}: this is a binary file, not a CSV or "
                                              r"Excel file$"):
        run_audit(calls=path)
