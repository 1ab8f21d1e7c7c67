"""Write the sample lead files of this folder (deterministic: the same files every run).

Each file is a kind of list operations staff receive, with the damage such
lists carry; ``README.md`` describes them. Run from the project root::

    .venv/bin/python data_samples/make_samples.py
"""

from __future__ import annotations

import csv
import io
import random
from pathlib import Path

import phonenumbers
import xlsxwriter

HERE = Path(__file__).resolve().parent
FIRST = ["Ada", "Grace", "Alan", "Zoë", "José", "Amélie", "Søren", "Chloé", "Björn", "Renée",
         "Mary", "John", "Priya", "Kenji", "Lucía", "Omar", "Fatima", "Noah", "Emma", "Liam"]
LAST = ["Lovelace", "Hopper", "Turing", "Müller", "García", "Lefèvre", "Ødegaard", "O'Brien",
        "Nguyen", "Smith", "Patel", "Tanaka", "Silva", "Dubois", "Rossi", "Kowalski"]
SOURCES = ["web form", "trade show", "partner", "referral"]
INTERNATIONAL = ("US", "CA", "GB", "DE", "FR", "IN", "AU", "BR", "MX", "JP")
COUNTRY_NAMES = {"US": "United States", "CA": "Canada", "GB": "United Kingdom",
                 "DE": "Germany", "FR": "France", "IN": "India", "AU": "Australia",
                 "BR": "Brazil", "MX": "Mexico", "JP": "Japan"}
DNC_COUNT = 40


def valid_number(rng: random.Random, region: str) -> phonenumbers.PhoneNumber:
    """A valid mobile or fixed-line number of ``region``, varied from its example."""
    kind = rng.choice((phonenumbers.PhoneNumberType.MOBILE,
                       phonenumbers.PhoneNumberType.FIXED_LINE))
    example = phonenumbers.example_number_for_type(region, kind)
    assert example is not None
    digits = str(example.national_number)
    while True:
        tail = "".join(rng.choice("0123456789") for _ in range(4))
        number = phonenumbers.parse(f"+{example.country_code}{digits[:-4]}{tail}")
        if phonenumbers.is_valid_number(number):
            return number


def us_number(rng: random.Random) -> str:
    """A valid US number as E.164 (area codes of real cities, 555-01xx style exchanges)."""
    area = rng.choice(("212", "312", "415", "512", "617", "702", "813", "919", "206", "303"))
    return f"+1{area}{rng.randint(200, 999)}{rng.randint(0, 9999):04d}"


def messy(rng: random.Random, e164: str, n: int) -> tuple[str, str]:
    """One US number written the way cell ``n`` of a messy list writes it, and the case."""
    d = e164[2:]
    a, b, c = d[:3], d[3:6], d[6:]
    full = str.maketrans("0123456789", "０１２３４５６７８９")
    cases = [
        ("plain", d), ("brackets", f"({a}) {b}-{c}"), ("dashes", f"{a}-{b}-{c}"),
        ("dots", f"{a}.{b}.{c}"), ("e164", e164), ("spaced international", f"+1 {a} {b} {c}"),
        ("non-breaking spaces", f"{a}\u00a0{b}\u00a0{c}"),
        ("unicode dashes", f"{a}\u2013{b}\u2011{c}"), ("full-width digits", d.translate(full)),
        ("trunk 1", f"1 {a} {b} {c}"), ("trunk 1 dashes", f"1-{a}-{b}-{c}"),
        ("excel float", f"{d}.0"), ("extension x", f"{a}-{b}-{c} x{rng.randint(1, 999)}"),
        ("extension ext.", f"({a}) {b}-{c} ext. {rng.randint(1, 99)}"),
        ("extension #", f"{a} {b} {c} #{rng.randint(1, 99)}"),
        ("extension ;ext=", f"+1{d};ext={rng.randint(1, 9)}"),
        ("two numbers /", f"{a}-{b}-{c} / 212-555-01{rng.randint(10, 99)}"),
        ("two numbers or", f"{a} {b} {c} or 312 555 01{rng.randint(10, 99)}"),
        ("011 prefix", f"011 1 {a} {b} {c}"),
    ]
    return cases[n % len(cases)][1], cases[n % len(cases)][0]


def special(rng: random.Random, n: int) -> tuple[str, str]:
    """Cell ``n`` of the cases that are not a US number written messily."""
    gb = valid_number(rng, "GB")
    national = str(gb.national_number)
    letters = "".join(rng.choice("ABCDEFGHIJKLMNOPRSTUVWXY") for _ in range(7))
    cases = [
        (f"1-800-{letters[:3]}-{letters[3:]}", "vanity"), ("4.15555E+09", "excel scientific"),
        (f"4.{rng.randint(10**8, 10**9 - 1)}E9", "excel scientific"), ("", "empty"),
        ("N/A", "n/a"), ("null", "null"), ("none", "none"), ("-", "dash"), ("0", "zero"),
        (str(rng.randint(1000, 99999)), "too short"), (f"555-01{rng.randint(10, 99)}",
                                                       "no area code"),
        ("(000) 000-0000", "invalid"), (f"0044 {national[:2]} {national[2:]}", "00 prefix"),
        (f"44{national}", "lost plus"),
        (phonenumbers.format_number(valid_number(rng, rng.choice(("DE", "FR", "JP"))),
                                    phonenumbers.PhoneNumberFormat.INTERNATIONAL),
         "international"),
        (phonenumbers.format_number(valid_number(rng, "IR"),
                                    phonenumbers.PhoneNumberFormat.INTERNATIONAL),
         "blocked country (IR)"),
        ("+1 415 555 0123 4567 8901 2345 6789 0123 4567", "longer than 32 characters"),
    ]
    return cases[n % len(cases)]


def write_csv(path: Path, header: list[str], rows: list[list[str]], *, encoding: str = "utf-8",
              delimiter: str = ",") -> None:
    text = io.StringIO()
    writer = csv.writer(text, delimiter=delimiter, lineterminator="\r\n")
    writer.writerow(header)
    writer.writerows(rows)
    path.write_bytes(text.getvalue().encode(encoding))


def messy_us(rng: random.Random, dnc: list[str]) -> None:
    """``messy_us.csv``: 3,000 rows of a US vendor list."""
    rows: list[list[str]] = []
    used: list[str] = []
    for n in range(3000):
        first, last = rng.choice(FIRST), rng.choice(LAST)
        ident = f"V-{n + 1:05d}"
        email = f"{first}.{last}@example.com".lower().replace("'", "")
        if n % 7 == 0:
            email = ""
        if n % 97 == 5:
            email = f"{first} at example dot com"  # not an email: field_rule
        if n % 211 == 9:
            last = "X" * 120  # longer than the 100 characters allowed
        if n % 300 == 17:
            ident = "Z" * 130  # longer than the 128 characters allowed
        if n % 50 == 3 and used:  # the same number again: a duplicate in the file
            phone, case = rng.choice(used), "duplicate"
        elif n % 60 == 11 and n > 10:
            phone, case = us_number(rng), "duplicate id"
            ident = rows[rng.randrange(len(rows))][0]
        elif n % 75 == 20:
            phone, case = rng.choice(dnc), "on the DNC list"
        elif n % 25 == 4:
            phone, case = special(rng, n // 25)
        else:
            e164 = us_number(rng)
            phone, case = messy(rng, e164, n)
            used.append(phone)
        rows.append([ident, first, last, email, phone, rng.choice(SOURCES), case])
    write_csv(HERE / "messy_us.csv", ["Lead ID", "First Name", "Surname", "E-mail",
                                      "Mobile Phone", "Source", "Case"], rows)


def international(rng: random.Random) -> None:
    """``international.csv``: 1,000 rows from ten countries, written nationally or
    internationally, with a country column in several spellings."""
    rows = []
    styles = (phonenumbers.PhoneNumberFormat.NATIONAL,
              phonenumbers.PhoneNumberFormat.INTERNATIONAL, phonenumbers.PhoneNumberFormat.E164)
    for n in range(1000):
        region = INTERNATIONAL[n % len(INTERNATIONAL)]
        number = valid_number(rng, region)
        style = styles[rng.randrange(3)]
        country = rng.choice((region, COUNTRY_NAMES[region], f"+{number.country_code}"))
        if n % 40 == 7:
            country = ""  # no country: read in the default region
        phone = phonenumbers.format_number(number, style)
        rows.append([f"I-{n + 1:04d}", f"{rng.choice(FIRST)} {rng.choice(LAST)}", phone,
                     country])
    write_csv(HERE / "international.csv", ["id", "Full Name", "Telephone", "Country"], rows)


def excel_export(rng: random.Random) -> None:
    """``excel_export.xlsx``: a CRM export whose phone cells Excel typed as numbers."""
    book = xlsxwriter.Workbook(str(HERE / "excel_export.xlsx"))
    sheet = book.add_worksheet("Leads")
    sheet.write_row(0, 0, ["Lead Id", "Name", "Phone", "Email"])
    for n in range(1, 301):
        e164 = us_number(rng)
        name = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
        sheet.write_string(n, 0, f"X-{n:04d}")
        sheet.write_string(n, 1, name)
        kind = n % 6
        if kind == 0:
            sheet.write_number(n, 2, int(e164[2:]))  # a number cell: digits kept
        elif kind == 1:
            sheet.write_number(n, 2, float(e164[1:]))  # with its 1, as a float
        elif kind == 2:
            sheet.write_string(n, 2, f"{e164[2:]}.0")  # pasted from a float column
        elif kind == 3:
            sheet.write_string(n, 2, f"{int(e164[2:]) / 1e9:.5f}E+09")  # digits lost
        elif kind == 4:
            uk = valid_number(rng, "GB")
            sheet.write_number(n, 2, int(str(uk.national_number)))  # its leading 0 lost
        else:
            sheet.write_string(n, 2, e164)
        sheet.write_string(n, 3, f"lead{n}@example.com")
    book.close()


def cp1252(rng: random.Random) -> None:
    """``legacy_cp1252.csv``: a semicolon list from an old Windows tool, in cp1252."""
    rows = [[f"{rng.choice(FIRST)}", f"{rng.choice(LAST)}",
             phonenumbers.format_number(valid_number(rng, "FR"),
                                        phonenumbers.PhoneNumberFormat.NATIONAL),
             rng.choice(("Société Générale", "Café Crème", "Müller & Söhne", "Señor Pérez"))]
            for _ in range(200)]
    write_csv(HERE / "legacy_cp1252.csv", ["Prénom", "Nom", "Téléphone", "Société"], rows,
              encoding="cp1252", delimiter=";")


def utf16(rng: random.Random) -> None:
    """``export_utf16.tsv``: a tab-separated export in UTF-16 with its byte order mark."""
    rows = [[f"{rng.choice(FIRST)} {rng.choice(LAST)}",
             phonenumbers.format_number(valid_number(rng, "DE"),
                                        phonenumbers.PhoneNumberFormat.INTERNATIONAL),
             f"{rng.choice(FIRST).lower()}@example.de"] for _ in range(200)]
    write_csv(HERE / "export_utf16.tsv", ["Name", "Phone Number", "Email Address"], rows,
              encoding="utf-16", delimiter="\t")


def dnc_list(rng: random.Random) -> list[str]:
    """``dnc_list.csv``: numbers on the account's Do-Not-Call list, with the date listed."""
    numbers = sorted({us_number(rng) for _ in range(DNC_COUNT)})
    rows = [[phone, f"2026-{rng.randint(1, 10):02d}-{rng.randint(1, 28):02d}"]
            for phone in numbers]
    write_csv(HERE / "dnc_list.csv", ["phone", "listed_at"], rows)
    return numbers


def main() -> None:
    rng = random.Random(20261122)
    dnc = dnc_list(rng)
    messy_us(rng, dnc)
    international(rng)
    excel_export(rng)
    cp1252(rng)
    utf16(rng)


if __name__ == "__main__":
    main()
