"""Quirks that lead files others published taught the clean (issue 97), each on a small
file this module writes itself.

The published files (a prefecture's list of hospitals and a city's list of tourist
offices in Shift_JIS, Austria's federal authorities with ``'+43...`` cells, Brazil's
health insurers in cp1252 with ``;``, a dialer's export whose rows are one field wider
than its header, VICIdial's and Newfies-Dialer's uploads without a header line) are not
the project's: they live outside it, and ``test_corpus.py`` reads them only where they
are present. So that the project's own suite holds each quirk without them, every file
here has one published file's shape and quirk, and rows made up for it: invented names,
and libphonenumber's example numbers (in the US, 555-01xx). Which number a cell holds is
libphonenumber's word, asked here, never dialkit's.

The other quirks are held where their tests write their own files: Excel for Mac's lone
CR line ends (``test_files_as_saved.py``) and ``Phone 1``/``Phone 2``
(``test_lead_phone_columns.py``). ``test_files_as_saved.py`` also holds one row wider
than its header among good ones, and comma-separated uploads without a header; here
they are as the published files have them: every row of an export one field wider, and
``|``-separated dialer uploads of 27 and 13 columns.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pandas as pd
import phonenumbers
import pytest
from phonenumbers import PhoneNumberFormat, PhoneNumberType
from test_phone_cells import e164
from typer.testing import CliRunner

from dialkit.cli import app
from dialkit.leads import CleanResult, clean

runner = CliRunner()


def example(region: str, kind: int) -> str:
    """libphonenumber's example number of ``kind`` in ``region``, as E.164."""
    number = phonenumbers.example_number_for_type(region, kind)
    assert number is not None and phonenumbers.is_valid_number(number), (region, kind)
    return phonenumbers.format_number(number, PhoneNumberFormat.E164)


def national(e164: str) -> str:
    """An E.164 number as its country writes it (``03-1234-5678``)."""
    return phonenumbers.format_number(phonenumbers.parse(e164), PhoneNumberFormat.NATIONAL)


def digits(text: str) -> str:
    return "".join(c for c in text if c.isdigit())


def cells(column: pd.Series) -> list[object]:
    """A column's values, missing ones as ``None``."""
    return [None if pd.isna(value) else value for value in column.tolist()]


def records(rows: list[list[str]], *, delimiter: str = ",", end: str = "\r\n") -> str:
    """Rows as spreadsheets write them: a cell quoted only where it holds the delimiter,
    a quote or a line break."""
    text = io.StringIO()
    csv.writer(text, delimiter=delimiter, lineterminator=end).writerows(rows)
    return text.getvalue()


def verdicts(result: CleanResult) -> list[tuple[str, object]]:
    """Each row's status and reason."""
    return list(zip(result.frame["status"].astype(str), cells(result.frame["reason"]),
                    strict=True))


# Shift_JIS under title rows -----------------------------------------------------------------

JP = {kind: example("JP", kind) for kind in (
    PhoneNumberType.FIXED_LINE, PhoneNumberType.UAN, PhoneNumberType.VOIP,
    PhoneNumberType.TOLL_FREE, PhoneNumberType.PERSONAL_NUMBER)}


def full_width_dashes(e164: str) -> str:
    """A number as Japanese Excel users type it: dashes full width (cp932's 0x817C)."""
    return national(e164).replace("-", "\uff0d")


HOSPITALS = [  # a prefecture's list of disaster hospitals, as its office publishes it
    ["", "", "架空県災害拠点病院一覧", "", "", "", ""],
    ["", "", "", "", "", "令和6年4月1日現在", ""],
    ["医療圏", "", "施設名", "所在地", "電話番号", "病床数", "三次\n救急"],
    ["中央部", "", "見本記念病院", "架空区見本町1-2",
     full_width_dashes(JP[PhoneNumberType.FIXED_LINE]), "320", "○"],
    ["", "", "例示総合病院", "架空区例示町３", full_width_dashes(JP[PhoneNumberType.UAN]),
     "482", ""],
    ["西部", "", "架空大学病院", "架空市例示1－4－17",
     full_width_dashes(JP[PhoneNumberType.VOIP]), "535", "○"],
    ["合計", "", "3施設", "", "", "1,337", "2"],
    ["★印は架空の注記です。", "", "", "", "", "", ""],
]
"""Two title records of commas (the title in the third cell, the date in the sixth), a
header whose second name is blank and whose last holds a line break (an LF in the CRLF
file, as Excel keeps it), phones with full-width dashes, then a total and a footnote."""

TOURISM = [  # a city's list of sights, in the government's open-data template
    ["# 架空市 観光施設一覧"],
    ["市区町村コード", "NO", "名称", "住所", "説明", "連絡先名称", "連絡先電話番号",
     "連絡先内線番号", "URL"],
    ["999999", "1", "見本の町並み", "架空県架空市見本1", "江戸時代の町並み。\r\n随時見学可能。",
     "架空市観光課", national(JP[PhoneNumberType.FIXED_LINE]), "", ""],
    ["999999", "2", "例示資料館", "架空県架空市例示2", "月曜休館", "例示資料館",
     national(JP[PhoneNumberType.TOLL_FREE]).replace("-", "\u2010"), "12", ""],
    ["999999", "3", "架空公園", "架空県架空市公園3", "", "", "", "", ""],
    ["999999", "4", "見本温泉", "架空県架空市温泉4", "日帰り入浴可", "見本温泉",
     national(JP[PhoneNumberType.PERSONAL_NUMBER]), "", "https://example.jp/"],
]
"""A ``#`` title of one cell above the header, a description of two lines (CRLF inside
the quoted cell), a number written with U+2010 hyphens (cp932's 0x815D), a sight
without a phone."""

SHIFT_JIS = {
    # layout: (records, header line, phone column, name column, the frame's first columns)
    "hospitals": (HOSPITALS, 3, "電話番号", "施設名",
                  ["医療圏", "column 2", "施設名", "所在地", "電話番号", "病床数", "三次\n救急"]),
    "tourism": (TOURISM, 2, "連絡先電話番号", "名称", TOURISM[1]),
}


@pytest.mark.parametrize("encoding", ["cp932", "shift_jis"])
@pytest.mark.parametrize("layout", list(SHIFT_JIS))
def test_a_shift_jis_list_under_title_rows_is_read_in_the_code_page_named(
        layout: str, encoding: str, tmp_path: Path) -> None:
    """Saved by Japanese Windows (cp932, which Python's ``shift_jis`` reads too, a
    full-width dash as U+2212): the header found below the titles, every row after it
    kept, each number read as libphonenumber reads its cell."""
    rows, header_line, phone, name, columns = SHIFT_JIS[layout]
    path = tmp_path / "list.csv"
    path.write_bytes(records(rows).encode("cp932"))
    result = clean(path, region="JP", encoding=encoding)
    data = rows[header_line:]
    written = [row[columns.index(phone)].encode("cp932").decode(encoding) for row in data]
    expected = [e164(cell, "JP") for cell in written]
    assert [e164 is not None for e164 in expected] == [cell != "" for cell in written]
    assert result.file.header_row == header_line
    assert list(result.frame.columns[:len(columns)]) == columns
    assert result.frame["row"].tolist() == list(range(1, len(data) + 1))
    assert cells(result.frame[name]) == [row[columns.index(name)] or None for row in data]
    assert cells(result.frame[phone]) == [cell or None for cell in written]
    assert cells(result.frame["phone_e164"]) == expected
    assert verdicts(result) == [("accepted", None) if e164 else ("invalid", "missing_phone")
                                for e164 in expected]
    assert f"text read as {encoding} (not UTF-8)" in result.notes
    assert f"header on line {header_line}" in result.notes
    assert f"columns read as: {phone} → phone" in result.notes


def test_the_command_reads_a_shift_jis_list_in_the_code_page_named(tmp_path: Path) -> None:
    path = tmp_path / "hospitals.csv"
    path.write_bytes(records(HOSPITALS).encode("cp932"))
    out = tmp_path / "out.csv"
    said = runner.invoke(app, ["leads", "clean", str(path), "--region", "JP",
                               "--encoding", "cp932", "--out", str(out)])
    assert said.exit_code == 0, said.output
    assert f"{path}: 5 rows, 3 accepted, 2 rejected" in said.output
    assert "note: text read as cp932 (not UTF-8)" in said.output
    assert "note: header on line 3" in said.output
    written = pd.read_csv(out, dtype=str, keep_default_na=False)
    assert written["施設名"].tolist()[:3] == ["見本記念病院", "例示総合病院", "架空大学病院"]
    numbers = [JP[kind] for kind in (PhoneNumberType.FIXED_LINE, PhoneNumberType.UAN,
                                     PhoneNumberType.VOIP)]
    assert written["phone_e164"].tolist() == [*numbers, "", ""]


# '+431... cells ---------------------------------------------------------------------------

AT = {kind: example("AT", kind) for kind in (
    PhoneNumberType.FIXED_LINE, PhoneNumberType.MOBILE, PhoneNumberType.SHARED_COST,
    PhoneNumberType.TOLL_FREE, PhoneNumberType.VOIP)}
AUTHORITIES = [  # Id, Name, Typ, Adresse, PLZ, E-Mail, Tel, Fax, Stand
    ["1", "Bundesamt für Beispiele, Muster und Proben", "Bundesamt", "Musterplatz 1", "1010",
     "post@beispiel.example", AT[PhoneNumberType.FIXED_LINE],
     "'" + AT[PhoneNumberType.TOLL_FREE], "16.10.2021"],
    ["2", "Amt für Proben", "Bundesamt", "Probegasse 5", "1010", "amt@proben.example",
     "'" + AT[PhoneNumberType.MOBILE], "'" + AT[PhoneNumberType.VOIP], "16.10.2021"],
    ["3", "Beispielbehörde", "Behörde", "Testweg 8", "1020", "office@test.example",
     "'" + AT[PhoneNumberType.SHARED_COST], "", "16.10.2021"],
    ["4", "Musterstelle im Bundesamt", "Stelle", "Musterplatz 1", "1010",
     "stelle@beispiel.example", "'" + AT[PhoneNumberType.FIXED_LINE], "", "16.10.2021"],
    ["5", "Prüfstelle für Tests", "Stelle", "Testweg 9", "1020", "pruef@test.example", "",
     "", "16.10.2021"],
]
"""Authorities as a directory lists them: most numbers written ``'+43...`` (the quote a
spreadsheet takes as "this cell is text", kept by the export), some without it; a fax
column of the same; one office on its agency's switchboard; one without a number."""


def authorities(path: Path) -> Path:
    """The directory as its publisher wrote it: the header quoted, the id bare, every
    other filled cell quoted, an empty one not; LF line ends."""
    header = ["Id", "Name", "Typ", "Adresse", "PLZ", "E-Mail", "Tel", "Fax", "Stand"]
    lines = [",".join(f'"{name}"' for name in header)]
    lines += [",".join([row[0], *(f'"{cell}"' if cell else "" for cell in row[1:])])
              for row in AUTHORITIES]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("region", ["AT", "US"])
def test_a_number_written_with_a_leading_quote_is_read_as_the_number(
        region: str, tmp_path: Path) -> None:
    """``'+431...`` is the number ``+431...``, whatever region= says (its ``+43`` names
    the country), and the same number as the cell without the quote; the cell keeps its
    text; the fax is never dialled."""
    result = clean(authorities(tmp_path / "behoerden.csv"), region=region)
    expected = [e164(row[6], region) for row in AUTHORITIES]
    assert expected[:4] == [AT[PhoneNumberType.FIXED_LINE], AT[PhoneNumberType.MOBILE],
                            AT[PhoneNumberType.SHARED_COST], AT[PhoneNumberType.FIXED_LINE]]
    assert cells(result.frame["Tel"]) == [row[6] or None for row in AUTHORITIES]
    assert cells(result.frame["phone_e164"])[:3] == expected[:3]
    assert cells(result.frame["country"])[:3] == ["AT"] * 3
    assert verdicts(result) == [("accepted", None)] * 3 + [
        ("duplicate", "duplicate_in_request"), ("invalid", "missing_phone")]
    assert result.frame["hint"][3] == "duplicate of row 1"
    assert result.frame["alt_phone"].isna().all()  # a fax is no number to dial
    assert cells(result.frame["Fax"]) == [row[7] or None for row in AUTHORITIES]
    assert result.notes[0] == ("columns read as: Tel → phone, Id → external_id, "
                               "Name → full_name")


# A header one field narrower than every row -------------------------------------------------

IT = [example("IT", kind) for kind in (
    PhoneNumberType.MOBILE, PhoneNumberType.FIXED_LINE, PhoneNumberType.VOIP,
    PhoneNumberType.PERSONAL_NUMBER, PhoneNumberType.TOLL_FREE, PhoneNumberType.SHARED_COST)]
DIALER_HEADER = ["id", "campagna", "lista", "cognome", "nome", "telefono", "esito",
                 "telefono2", "telefono3", "sesso", "nota", "attivo", "chiamate",
                 "data_creazione"]
DIALER_ROWS = [
    [str(n), "Campagna Prova", list_, last, first, digits(national(IT[n - 1])), outcome,
     digits(national(IT[n + 2])), "", "", sex, note, "y", calls, created]
    for n, list_, last, first, outcome, sex, note, calls, created in (
        (1, "Lista A", "Esempio", "Marta", "Richiamo", "F", "Nota di prova", "2",
         "20/09/2024 09:00:00"),
        (2, "Lista B", "Campione", "Luca", "Non Interessato", "M", "Richiamare", "1",
         "21/09/2024 10:30:00"),
        (3, "Lista A", "Finto", "Sara", "Numero Errato", "F", "Numero non valido", "0",
         "22/09/2024 11:15:00"))]
"""A dialer's sample export: every row one field wider than its header (an empty cell
after ``telefono3`` moves ``sesso``'s value into ``nota`` and the last into no column)."""


def dialer_export(path: Path) -> Path:
    path.write_text(records([DIALER_HEADER, *DIALER_ROWS], end="\n"), encoding="utf-8")
    return path


def test_every_row_wider_than_its_header_is_held_by_its_line(tmp_path: Path) -> None:
    """No row is as wide as the header: each is held, named by its line with the cell
    past the last column, and its first cells stay in their columns (pandas reads such a
    file with its first column as the index, moving every name one place left)."""
    result = clean(dialer_export(tmp_path / "export.csv"), region="IT")
    said = [f"line {n + 1} has 15 fields where the header has 14 (past the last column: "
            f"'{row[-1]}'); quote values that contain the delimiter (',')"
            for n, row in enumerate(DIALER_ROWS, start=1)]
    assert result.frame["row"].tolist() == [1, 2, 3]
    assert result.frame["id"].tolist() == ["1", "2", "3"]
    assert result.frame["telefono"].tolist() == [row[5] for row in DIALER_ROWS]
    assert verdicts(result) == [("invalid", "extra_fields")] * 3
    assert result.frame["hint"].tolist() == said
    assert result.file.held_rows == dict(enumerate(said, start=1))
    assert result.counts == {"invalid": 3}
    assert result.notes[0] == ("3 rows with more fields than the header held, not read as "
                               "leads (refused extra_fields): " + "; ".join(said))


def test_the_command_refuses_every_wider_row_and_says_why(tmp_path: Path) -> None:
    path = dialer_export(tmp_path / "export.csv")
    said = runner.invoke(app, ["leads", "clean", str(path), "--region", "IT"])
    assert said.exit_code == 0, said.output
    assert f"{path}: 3 rows, 0 accepted, 3 rejected" in said.output
    assert "extra_fields" in said.output
    assert "line 2 has 15 fields where the header has 14" in said.output


# Uploads without a header line --------------------------------------------------------------

US = ["(212) 555-0142", "(312) 555-0163", "(415) 555-0117", "(617) 555-0188",
      "(702) 555-0104", "(818) 555-0131", "(917) 555-0179"]
"""Fictional numbers of the 555-0100 to 555-0199 block, in other area codes (a column of
bare numbers close together counts up as a file's own ids, and is read as none)."""


def vicidial_row(n: int, phone: str, alt: str, tail: list[str]) -> str:
    """A line of VICIdial's list loader: no header, ``|``, 27 fields (the phone code, then
    the phone, 5; the alternate phone, 20; the last four: called count, rank and owner,
    or the multi-alt-phone field of ``number_code_label`` joined by ``!``)."""
    return "|".join([f"90000{n}", "70001", "101", "1", digits(phone), "MS", "Ada", "Q",
                     f"EXAMPLE{n:02d}", f"{n} SAMPLE ROAD", "", "", "SAMPLETOWN", "FL", "",
                     "33701", "USA", "F", "1980-01-01", digits(alt), f"lead{n}@example.com",
                     "nothing", "COMMENTS", *tail])


MULTI_ALT = f"{digits(US[5])}_1_work!{digits(US[6])}_61_sister house"
VICIDIAL = [vicidial_row(1, US[0], US[4], ["1", "Southeast", "", ""]),
            vicidial_row(2, US[1], US[5], ["", "", "", MULTI_ALT]),
            vicidial_row(3, US[2], US[6], ["", "", "", f"{digits(US[4])}__airport"]),
            vicidial_row(4, US[0], US[4], ["", "", "", ""])]  # the list loaded twice
"""Three leads and a repeat of the first."""


@pytest.mark.parametrize("mapping", [{"phone": 4}, None], ids=["named_by_place", "by_cells"])
def test_a_vicidial_upload_is_read_by_place(mapping: dict[str, int] | None,
                                             tmp_path: Path) -> None:
    """``header=None``: the first line is a lead, the 27 columns are named ``0`` to
    ``26``, the phone is column 4 (named, or found by its cells)."""
    path = tmp_path / "upload.txt"
    path.write_text("\n".join(VICIDIAL) + "\n", encoding="ascii")
    result = clean(path, header=None, mapping=mapping)
    phones = [US[0], US[1], US[2], US[0]]
    assert result.file.header_row is None and result.file.delimiter == "|"
    assert result.file.fields["phone"] == "4" and result.file.held_rows == {}
    assert list(result.frame.columns[:27]) == [str(n) for n in range(27)]
    assert result.frame["4"].tolist() == [digits(phone) for phone in phones]
    assert cells(result.frame["phone_e164"]) == [e164(phone, "US") for phone in phones]
    assert verdicts(result) == [("accepted", None)] * 3 + [
        ("duplicate", "duplicate_in_request")]
    assert cells(result.frame["26"]) == [None, MULTI_ALT, f"{digits(US[4])}__airport", None]
    assert result.notes[:3] == (
        "columns split at '|'", "no header line: the first line is a row, the columns named "
        "by place, 0 to 26", "6 columns past the 20 custom fields a lead may carry, not sent: "
        "21, 22, 23, 24, 25, 26 (drop the columns not needed, so that those needed fit)")
    assert result.file.unused == ["21", "22", "23", "24", "25", "26"]


def test_a_vicidial_upload_s_alternate_phone_is_found_by_its_cells(tmp_path: Path) -> None:
    """Read without naming a column, the alternate phone (column 19) is the lead's
    other number."""
    path = tmp_path / "upload.txt"
    path.write_text("\n".join(VICIDIAL) + "\n", encoding="ascii")
    result = clean(path, header=None)
    assert result.file.phone_cells == ("4", "19")
    alternates = [US[4], US[5], US[6], US[4]]
    assert cells(result.frame["alt_phone"])[:3] == [e164(alt, "US") for alt in alternates[:3]]
    assert any(note.startswith("columns read as: 4 → phone (its cells hold phone numbers; "
                               "no header names a phone), 19 → the lead's other numbers")
               for note in result.notes)


ES = [example("ES", kind) for kind in (
    PhoneNumberType.MOBILE, PhoneNumberType.FIXED_LINE, PhoneNumberType.SHARED_COST,
    PhoneNumberType.PERSONAL_NUMBER, PhoneNumberType.TOLL_FREE)]
SHORT = digits(national(ES[0]))[:-1]
"""Eight digits, as Newfies-Dialer's sample numbers are: valid nowhere as written."""
JSON_CELL = '{"facility": "sample","debt": 10, "address": "Calle Ejemplo 1"}'


def newfies(path: Path) -> tuple[Path, list[str]]:
    """Newfies-Dialer's contact import: no header, ``|`` after each field (a space after
    most), 12 fields and a trailing ``|``; the first row has a 13th, JSON whose commas
    and quotes are no delimiters."""
    phones = [digits(national(number)) for number in ES] + [SHORT]
    lines = [f"{phone}|Ana| Ejemplo| ana{n}@example.com| test subscriber|1|Address|"
             f"Barcelona|state|ES|999|" + (f"{JSON_CELL}|" if n == 0 else "")
             for n, phone in enumerate(phones)]
    path.write_text("\n".join(lines) + "\n", encoding="ascii")
    return path, phones


@pytest.mark.parametrize(("region", "country_column", "said"), [
    ("ES", None, "columns read as: 0 → phone (its cells hold phone numbers; no header names "
                 "a phone)"),
    ("US", "9", "columns read as: 0 → phone (its cells hold phone numbers; no header names "
                "a phone), 9 → each row's region (its phone is read as a number there)"),
], ids=["region", "country_column"])
def test_a_newfies_upload_is_read_by_its_cells(region: str, country_column: str | None,
                                               said: str, tmp_path: Path) -> None:
    """The widest first row gives the columns (``0`` to ``12``), so the first row's JSON
    is its 12th cell, not a held row; the phone is found by its cells, read in the region
    passed or in the row's own country cell (column 9)."""
    path, phones = newfies(tmp_path / "contacts.txt")
    result = clean(path, header=None, region=region, country_column=country_column)
    expected = [e164(phone, "ES") for phone in phones]
    assert expected == [*ES, None]
    assert result.file.fields["phone"] == "0" and result.file.held_rows == {}
    assert list(result.frame.columns[:13]) == [str(n) for n in range(13)]
    assert result.frame["row"].tolist() == [1, 2, 3, 4, 5, 6]
    assert cells(result.frame["phone_e164"]) == expected
    assert verdicts(result) == [("accepted", None)] * 5 + [("invalid", "invalid_phone")]
    assert cells(result.frame["11"]) == [JSON_CELL] + [None] * 5
    assert result.frame["3"][0] == " ana0@example.com"  # the cell as written
    assert result.notes == ("columns split at '|'", "no header line: the first line is a "
                            "row, the columns named by place, 0 to 12", said)


def test_the_command_reads_a_dialer_upload_with_no_header(tmp_path: Path) -> None:
    path = tmp_path / "upload.txt"
    path.write_text("\n".join(VICIDIAL) + "\n", encoding="ascii")
    said = runner.invoke(app, ["leads", "clean", str(path), "--no-header", "--map", "phone=4"])
    assert said.exit_code == 0, said.output
    assert f"{path}: 4 rows, 3 accepted, 1 rejected" in said.output
    assert "note: no header line: the first line is a row, the columns named by place, " \
           "0 to 26" in said.output


# cp1252 with ';' under a title ------------------------------------------------------------

BR_FIXED, BR_MOBILE = (example("BR", kind) for kind in (PhoneNumberType.FIXED_LINE,
                                                        PhoneNumberType.MOBILE))
OPERATORS_HEADER = ["Registro", "Razão Social", "Modalidade", "Cidade", "UF", "DDD",
                    "Telefone", "Fax", "Endereço eletrônico", "Cargo do Responsável"]
OPERATORS = [  # the area code in DDD, the number after it in Telefone, or whole there
    ["100001", "ASSOCIAÇÃO EXEMPLO DE SAÚDE", "Autogestão", "Rio de Janeiro", "RJ", "21",
     digits(national(BR_FIXED))[2:], "", "a@exemplo.example", "PRESIDENTE"],
    ["100002", "COOPERATIVA MÉDICA FICTÍCIA", "Cooperativa Médica", "São Paulo", "SP",
     digits(national(BR_FIXED))[:2], digits(national(BR_FIXED)), "", "coop@ficticia.example",
     "DIRETOR"],
    ["100003", "OPERADORA DE TESTE", "Medicina de Grupo", "Guarulhos", "SP",
     digits(national(BR_MOBILE))[:2], digits(national(BR_MOBILE)), "", "op@teste.example",
     "SÓCIO-GERENTE"],
    ["100004", "ADMINISTRADORA DE BENEFÍCIOS MODELO", "Administradora de Benefícios", "Osasco",
     "SP", "", "", "", "", "PRESIDENTE"],
]


def operators(path: Path) -> Path:
    """A regulator's list as its portal exports it: a title line and a blank one above
    the header, every cell quoted (an empty one ``""``), ``;``, LF line ends, cp1252."""
    lines = ["Relação de Operadoras Fictícias", ""]
    lines += [";".join(f'"{cell}"' for cell in row) for row in [OPERATORS_HEADER, *OPERATORS]]
    path.write_bytes(("\n".join(lines) + "\n").encode("cp1252"))
    return path


def test_a_cp1252_file_split_at_semicolons_under_a_title_is_read(tmp_path: Path) -> None:
    """The accents read as written, the header found on line 3; a number whose area code
    sits in its own column (DDD) is not a number as written, and is never joined on a
    guess; the others are read whole."""
    result = clean(operators(tmp_path / "operadoras.csv"), region="BR")
    expected = [e164(row[6], "BR") for row in OPERATORS]
    assert expected == [None, BR_FIXED, BR_MOBILE, None]
    assert result.file.encoding == "cp1252" and result.file.delimiter == ";"
    assert result.file.header_row == 3
    assert list(result.frame.columns[:len(OPERATORS_HEADER)]) == OPERATORS_HEADER
    assert result.frame["Razão Social"].tolist() == [row[1] for row in OPERATORS]
    assert result.frame["Cidade"].tolist() == [row[3] for row in OPERATORS]
    assert cells(result.frame["phone_e164"]) == expected
    assert verdicts(result) == [("invalid", "invalid_phone"), ("accepted", None),
                                ("accepted", None), ("invalid", "missing_phone")]
    assert result.notes[:4] == ("text read as cp1252 (not UTF-8)", "columns split at ';'",
                                "header on line 3", "columns read as: Telefone → phone")
