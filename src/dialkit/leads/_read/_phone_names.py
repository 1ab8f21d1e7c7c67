"""Which columns of a lead file hold phone numbers, by the words of their headers:
``Phone``, ``Phone 1``, ``Phone 2``, ``Mobile Phone Number``, ``Tel2``,
``Mobiltelefon``, ``Teléfono``, ``Téléphone``, ``Handy``, ``Cellulare``, ``電話番号``,
``Номер телефона``, ``Direct Dial``, ``Telpon``, in the languages lead files come in. A list
of whole headers always misses one (``Phone 1`` was no phone, so a file's first number was
never read): a header is read as a phone's where one of its words names a phone and every
other word says whose or which (``home``, ``2``, ``second``, ``number``), and none names
something else about it (``Phone Type``, ``Phone Ext``, a ``Fax``: never a number to
dial). A header written as a path of names (``gemeente.contact.telefoon``, as a JSON
export flattens its fields) is read by its last name, and a Salesforce custom field by its
name without the API's ``__c`` (``Home_Phone__c``).

The words are compared as :func:`dialkit._files._headers.squeeze` compares headers:
without case or accents.
"""

from __future__ import annotations

import re
import unicodedata

from ..._files._headers import squeeze

PHONE_WORDS = frozenset({
    # English
    "phone", "phones", "telephone", "tel", "tele", "mobile", "cell", "cellphone", "cellular",
    "phonenumber", "telephonenumber", "mobilephone", "mobilenumber", "cellnumber",
    "directdial", "landline",
    # German, Dutch, the Nordic languages
    "telefon", "telefonnummer", "mobil", "mobiltelefon", "mobilnummer", "handy",
    "handynummer", "festnetz", "telefoon", "telefoonnummer", "mobiel", "gsm", "puhelin",
    "puhelinnumero", "matkapuhelin", "tlf",
    # French, Spanish, Portuguese, Italian
    "portable", "telefono", "telefonico", "tfno", "movil", "celular", "telefone", "fone",
    "telemovel", "cellulare", "telefonino",
    # Indonesian, Malay, Afrikaans
    "telpon", "telepon", "telp", "handphone", "selfoon",
    # Polish, Czech, Turkish, Greek
    "komorka", "telefonu", "telefonni", "τηλεφωνο", "κινητο",
    # Russian, Kazakh, Ukrainian
    "телефон", "телефона", "тел", "мобильный", "сотовый", "телефону", "ұялы",
    # Japanese, Chinese, Korean
    "電話番号", "電話", "携帯電話", "携帯番号", "携帯", "电话", "电话号码", "手机", "手机号码",
    "联系电话", "전화번호", "휴대폰", "휴대전화", "전화",
    # Arabic, Hebrew, Hindi
    "هاتف", "الهاتف", "جوال", "טלפון", "फोन",
})
"""Words that name a phone number, as :func:`squeeze` writes them."""

WHICH = frozenset({
    "number", "no", "nr", "num", "nummer", "numero", "nro", "nummern", "номер", "番号",
    "home", "work", "office", "business", "company", "main", "primary", "secondary",
    "other", "alt", "alternate", "alternative", "additional", "extra", "second", "first",
    "third", "st", "nd", "rd", "th", "direct", "day", "daytime", "evening", "night",
    "personal", "private", "contact", "customer", "client", "lead", "best", "preferred",
    "de", "do", "da", "di", "du", "del", "des", "of", "the", "fixe", "fijo", "fixo",
    "casa", "trabajo", "oficina", "domicile", "travail", "bureau", "residencial",
    "comercial", "principal", "contato", "contacto", "privat", "geschaftlich", "buro",
    "arbeit", "dienstlich", "рабочий", "домашний", "контактный", "основной", "дополнительный",
    "nomor",
})
"""Words beside a phone word that say whose number or which: a header of them and a phone
word is a phone's (``Home Phone``, ``Phone Number 2``, ``Número de teléfono``)."""

NOT_A_NUMBER = frozenset({
    "fax", "telefax", "faxnumber", "type", "kind", "status", "ext", "extension", "durchwahl",
    "verified", "valid", "validated", "country", "code", "prefix", "carrier", "line",
    "opt", "optin", "optout", "consent", "dnc", "count", "calls", "called", "last",
    "date", "time", "ok", "flag", "source", "owner", "tipo", "typ",
})
"""Words that make a header with a phone word name something else about the number: its
type, its extension, a fax, a consent (``Phone Type``, ``Phone Opt In``)."""

INSIDE = ("電話", "携帯", "电话", "手机", "전화", "휴대폰")
"""Phone words of scripts written without spaces, read inside a longer word
(``携帯電話番号``, ``自宅電話``)."""
_WORDS = re.compile(r"[^\W\d_]+|\d+")
_CASE = re.compile(r"(?<=[a-z])(?=[A-Z])")


def _either(each: frozenset[str]) -> str:
    return "|".join(sorted(map(re.escape, each), key=len, reverse=True))


_RUN_TOGETHER = re.compile(f"(?:{_either(WHICH)})*(?:{_either(PHONE_WORDS)})"
                           f"(?:{_either(WHICH | PHONE_WORDS)})*")
"""A header's words run together (``workphone``, ``altphone``, ``mobilephonenumber``)."""


_PATH = re.compile(r"[^\s.]+(?:\.[^\s.]+)+")
"""A header written as a path of names, dotted without spaces (``contact.phone``); not
``Tel. privat``. Pandas' ``Phone.1`` for a second ``Phone`` reads as ``Phone``: a part
that is a number names nothing."""
_CUSTOM_FIELD = re.compile(r"__c$")


def own_name(header: str) -> str:
    """The part of a header that names its column: a path's last name that is no number
    (``gemeente.contact.telefoon`` → ``telefoon``), a Salesforce custom field's name
    without ``__c`` (``Home_Phone__c`` → ``Home_Phone``)."""
    header = _CUSTOM_FIELD.sub("", header)
    if not _PATH.fullmatch(header):
        return header
    return next((part for part in reversed(header.split(".")) if not part.isdigit()), header)


def words(header: str) -> list[str]:
    """The words of a header as :data:`PHONE_WORDS` are written (of its :func:`own_name`):
    its camel case parts and its runs of digits apart (``MobilePhone2`` → ``mobile``,
    ``phone``, ``2``)."""
    split = _CASE.sub(" ", own_name(header))
    letters = unicodedata.normalize("NFKD", split.casefold())
    plain = "".join(c for c in letters if not unicodedata.combining(c))
    return _WORDS.findall(plain)


def phone_header(header: str) -> bool:
    """Whether a column named ``header`` holds phone numbers, by its words (the module's
    rule): ``Phone 1``, ``Mobile Phone Number``, ``Tel2``, ``電話番号`` do; ``Phone Type``,
    ``Fax``, ``Phone Ext``, ``Telephone Verified`` do not."""
    said = [word for word in words(header) if not word.isdigit()]
    if not said or any(word in NOT_A_NUMBER for word in said):
        return False
    if _RUN_TOGETHER.fullmatch(squeeze("".join(said))):  # a word, or words run together
        return True
    phone = [word in PHONE_WORDS or any(part in word for part in INSIDE) for word in said]
    return any(phone) and all(named or word in WHICH for named, word in zip(phone, said,
                                                                          strict=True))
