"""A Brazilian client list kept from before 2016 writes its mobiles without the ninth digit
Brazil's mobiles gained in 2012-2016 (issue 80, item 3: 638 of one list's 772 mobiles,
each refused with no word). Such a number is still refused (never read so without the
user's say), and its hint names the mobile it reads as with the ninth digit, where
libphonenumber reads that as a valid mobile: the truth here is libphonenumber's."""

from __future__ import annotations

from pathlib import Path

import phonenumbers
import pytest

from dialkit.leads import clean

MOBILE = phonenumbers.PhoneNumberType.MOBILE


def mobiles() -> list[str]:
    """Valid Brazilian mobiles, libphonenumber's example and one per area code read."""
    example = phonenumbers.example_number_for_type("BR", MOBILE)
    found = [phonenumbers.format_number(example, phonenumbers.PhoneNumberFormat.E164)]
    for area in ("11", "21", "31", "47", "85"):
        number = phonenumbers.parse(f"+55{area}987106593")
        if phonenumbers.is_valid_number(number) and phonenumbers.number_type(number) == MOBILE:
            found.append(f"+55{area}987106593")
    return found


def without_ninth(e164: str) -> str:
    """``+5531998710659`` as written before 2016: ``553198710659``."""
    national = e164[3:]
    assert national[2] == "9"
    return "55" + national[:2] + national[3:]


@pytest.mark.parametrize("e164", mobiles())
def test_an_old_mobile_is_refused_with_a_hint_naming_its_nine_digit_reading(
        e164: str, tmp_path: Path) -> None:
    old = without_ninth(e164)
    assert not phonenumbers.is_valid_number(phonenumbers.parse("+" + old))
    path = tmp_path / "clientes.csv"
    path.write_text(f"Nome,Telefone\nAna,{old}\nBia,+{old}\n", encoding="utf-8")
    rows = clean(path, region="BR").frame
    assert rows["status"].tolist() == ["invalid", "invalid"]
    assert rows["phone_e164"].isna().all()
    assert all(f"reads as {e164}: write it so if it is that number" in hint
               for hint in rows["hint"])


def test_no_hint_where_the_nine_digit_reading_is_no_mobile(tmp_path: Path) -> None:
    """Eight digits from 2 to 5 are a landline's, valid as written; a number of another
    country, or of a US file written without +55, is not read as Brazil's."""
    path = tmp_path / "clientes.csv"
    path.write_text("Nome,Telefone\nAna,12345\nBia,553198710659\n", encoding="utf-8")
    rows = clean(path, region="US").frame
    assert rows["status"].tolist() == ["invalid", "invalid"]
    assert not rows["hint"].fillna("").str.contains("ninth digit").any()
