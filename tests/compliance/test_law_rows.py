"""Every table of law is read and checked by one reader (:mod:`dialkit._law._rows`).

The jurisdictions', abandonment, caller-id and Do-Not-Call tables each hold rows of law,
and each row of law has the same six columns: its ``citation``, two public ``sources``,
the date it was ``reviewed``, whether it was ``confirmed``, its ``doubts`` and the
statute's words quoted in ``text``. A row that breaks one is refused naming the file,
the row and the column, whichever table it is in.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from dialkit._law import _abandonment, _caller_id, _dnc_lists
from dialkit._law import _jurisdictions as jurisdictions
from dialkit._law import _rows as law
from dialkit.compliance._rules._checked_states import load_checked

TABLES = [("jurisdictions.toml", "jurisdiction"), ("abandonment.toml", "abandonment"),
          ("caller_id.toml", "caller_id"), ("dnc_lists.toml", "list"),
          ("dnc_lists.toml", "consent"), ("dnc_lists.toml", "relationship")]
"""Each packaged table of law and the name of its rows."""


def _first_row(file: str, table: str) -> dict[str, Any]:
    data, _ = law.read(None, file)
    return dict(data[table][0])


@pytest.mark.parametrize(("file", "table"), TABLES)
def test_every_row_of_every_table_has_the_columns_of_law(file: str, table: str) -> None:
    data, where = law.read(None, file)
    for raw, at in law.rows(data, table, where):
        columns = law.law_columns(raw, at)
        assert set(columns) == set(law.LAW_COLUMNS)
        assert len(columns["sources"]) >= 2 and columns["citation"].strip(), at


def test_the_tables_read_the_same_rows_as_before() -> None:
    """What each table's module publishes is what its file's rows say."""
    assert [row.id for row in _abandonment.all()] == ["US", "GB", "CA"]
    assert [row.id for row in _caller_id.all()] == ["US", "GB", "CA"]
    assert _abandonment.get("US").ring_seconds == 15
    assert _dnc_lists.consent_rule("US-wireless").citation
    assert jurisdictions.get("US").text and jurisdictions.get("US").doubts


# Each change breaks one column of law of a row; the message names the row and the column.
@pytest.mark.parametrize(("column", "value", "message"), [
    ("citation", None, r"citation is missing$"),
    ("citation", "  ", r"citation is missing \(empty\)"),
    ("sources", ["https://www.ecfr.gov/"], r"sources must be two or more http\(s\) addresses"),
    ("sources", ["https://a.example", "ftp://b.example"], r"sources must be two or more"),
    ("reviewed", "2026-11-23", r"reviewed must be a date \(reviewed = 2026-11-23\)"),
    ("confirmed", "yes", r"confirmed must be a bool, not 'yes'"),
    ("confirmed", None, r"confirmed is missing"),
    ("doubts", None, r"doubts is missing"),
    ("text", None, r"text is missing"),
    ("text", "", r"text is missing \(empty\)"),
])
@pytest.mark.parametrize(("file", "table"), TABLES)
def test_a_row_missing_a_column_of_law_is_refused_naming_it(
        file: str, table: str, column: str, value: Any, message: str) -> None:
    raw = _first_row(file, table)
    if value is None:
        del raw[column]
    else:
        raw[column] = value
    with pytest.raises(law.LawDataError, match=rf"^{file}, row 1 \('[^']+'\): {message}"):
        law.law_columns(raw, f"{file}, row 1 ({raw['id']!r})")


def _broken_dnc(old: str, new: str) -> str:
    text = resources.files("dialkit._law").joinpath("dnc_lists.toml").read_text("utf-8")
    assert text.count(old) == 1, old
    return text.replace(old, new)


@pytest.mark.parametrize(("old", "new", "message"), [
    ('id = "US-company"', 'id = "US-national"', r"row 2 \('US-national'\): id must be US-company"),
    ('country = "GB"\nlist = "company"', 'country = "GB"\nlist = "company"\ngrace = 28',
     r"row 4 \('GB-company'\): unknown column\(s\) \['grace'\]; the columns are"),
    ('id = "CA-company"\ncountry = "CA"', 'id = "GB-company"\ncountry = "GB"',
     r"row 6 \('GB-company'\): id 'GB-company' is repeated"),
    ('id = "CA-company"', 'id = "CA-company', r"^dnc_lists.toml is not valid TOML"),
])
def test_a_broken_dnc_table_is_refused_naming_the_row(old: str, new: str,
                                                     message: str) -> None:
    with pytest.raises(law.LawDataError, match=message):
        _dnc_lists.load(_broken_dnc(old, new))


def test_a_file_without_rows_or_not_toml_or_missing_is_named(tmp_path: Path) -> None:
    empty = tmp_path / "empty.toml"
    empty.write_text('title = "no rows"\n', encoding="utf-8")
    with pytest.raises(law.LawDataError, match=r"empty.toml has no \[\[jurisdiction\]\] rows"):
        jurisdictions.load(empty)
    broken = tmp_path / "broken.toml"
    broken.write_text("[[checked]\n", encoding="utf-8")
    with pytest.raises(law.LawDataError, match=r"broken.toml is not valid TOML"):
        load_checked(broken)
    gone = r"none\.toml: there is no such file: check the path$"
    with pytest.raises(jurisdictions.JurisdictionDataError, match=gone):
        law.read(tmp_path / "none.toml", "jurisdictions.toml")
