"""``dialkit leads clean`` writes the same bytes as before its speed-ups (issue 21).

The expected outputs in ``tests/fixtures/clean/expected`` were written by the code
before issue 21's changes to the clean (8586029), by this file run as a script
(``python tests/leads/test_clean_output.py``): the cleaned CSV, the rejected rows'
CSV and the printed summary of each case, in full for the two files made for this
test (``tricky.csv``: formulas, line breaks, quotes, a verdict-named column,
duplicate phones and ids, limits broken, numbers of other regions with and without
a country; ``mix_1500.csv``: 1,500 rows of the benchmarks' realistic mix), as
SHA-256 digests for the larger sample files. Issue 70 wrote them again, changing only
the hints and notes: a hint never offers a row's number as another country's, and advises
filling a blank country cell or writing the number with its calling code. Issue 80 wrote
the printed summaries again, changing only their note of the columns read: it names the
lead's other phone columns and how to choose another phone.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dialkit.cli import app

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "clean"
EXPECTED = FIXTURES / "expected"
SAMPLES = ROOT / "data_samples"
KEPT_WHOLE = ("tricky", "tricky_gb_raw", "mix")
CASES = {
    "tricky": (FIXTURES / "tricky.csv", ["--blocked-countries", "KP,IR"]),
    "tricky_gb_raw": (FIXTURES / "tricky.csv", ["--region", "GB", "--raw-csv"]),
    "mix": (FIXTURES / "mix_1500.csv", ["--country-column", "Country"]),
    "messy_us": (SAMPLES / "messy_us.csv", ["--blocked-countries", "KP,IR"]),
    "international": (SAMPLES / "international.csv", []),
    "legacy_cp1252": (SAMPLES / "legacy_cp1252.csv", [
        "--region", "FR", "--map", "first_name=Prénom", "--map", "last_name=Nom"]),
    "export_utf16": (SAMPLES / "export_utf16.tsv", []),
    "excel_export": (SAMPLES / "excel_export.xlsx", []),
}


def cleaned(case: str, folder: Path) -> dict[str, bytes]:
    """The case's cleaned CSV, rejected rows' CSV and printed text (the file's path
    replaced by its name)."""
    source, options = CASES[case]
    out, rejects = folder / f"{case}.out.csv", folder / f"{case}.rejects.csv"
    result = CliRunner().invoke(app, ["leads", "clean", str(source), *options,
                                      "--out", str(out), "--rejects", str(rejects)])
    assert result.exit_code == 0, result.output
    return {"out.csv": out.read_bytes(), "rejects.csv": rejects.read_bytes(),
            "txt": result.stdout.replace(str(source), source.name).encode()}


def _digests() -> dict[str, str]:
    digests: dict[str, str] = json.loads((EXPECTED / "digests.json").read_text())
    return digests


@pytest.mark.parametrize("case", list(CASES))
def test_clean_writes_what_it_wrote_before(case: str, tmp_path: Path) -> None:
    for part, data in cleaned(case, tmp_path).items():
        if case in KEPT_WHOLE:
            expected = (EXPECTED / f"{case}.{part}").read_bytes()
            assert data.decode().splitlines() == expected.decode().splitlines(), part
            assert data == expected, part  # line endings and byte order mark too
        else:
            assert hashlib.sha256(data).hexdigest() == _digests()[f"{case}.{part}"], part


def _write_expected(folder: Path) -> None:
    EXPECTED.mkdir(exist_ok=True)
    digests = {}
    for case in CASES:
        for part, data in cleaned(case, folder).items():
            if case in KEPT_WHOLE:
                (EXPECTED / f"{case}.{part}").write_bytes(data)
            else:
                digests[f"{case}.{part}"] = hashlib.sha256(data).hexdigest()
    (EXPECTED / "digests.json").write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as scratch:
        _write_expected(Path(scratch))
    print(f"expected outputs written to {EXPECTED} by {sys.modules['dialkit'].__file__}")
