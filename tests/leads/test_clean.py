"""``dialkit.leads.clean``: every status, reason and field, in the service's check order;
the result's views and exports; and no input that makes it raise or lose a row."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import KEYS
from dialkit import Client
from dialkit._utils import _tuning
from dialkit.leads import CleanResult, LeadFileError, clean, clean_file, normalize, read
from dialkit.leads._clean import _judge as _clean
from dialkit.leads._clean import _verdicts
from dialkit.leads._normalize._cells import cell_frame
from dialkit.sandbox import Sandbox

SF, NY, LONDON, TEHRAN = "+14155550123", "+12125550142", "+442079460958", "+982122223333"


def verdicts(result: CleanResult) -> list[tuple[str, str | None, str | None]]:
    frame = result.frame[["status", "reason", "field"]].astype(object)
    return [tuple(None if pd.isna(v) else v for v in row)  # type: ignore[misc]
            for row in frame.itertuples(index=False)]


def one(**cells: str | None) -> tuple[str, str | None, str | None]:
    """The verdict of a one-row file with ``cells``."""
    return verdicts(clean(pd.DataFrame({k: [v] for k, v in cells.items()}),
                          blocked_countries=["IR"]))[0]


CASES = {
    "accepted": ({"phone": "(415) 555-0123"}, ("accepted", None, None)),
    "missing phone": ({"phone": "N/A"}, ("invalid", "missing_phone", None)),
    "empty phone": ({"phone": None}, ("invalid", "missing_phone", None)),
    "invalid phone": ({"phone": "555-0123"}, ("invalid", "invalid_phone", None)),
    "excel scientific": ({"phone": "4.15555E+09"}, ("invalid", "invalid_phone", None)),
    "phone cell over 32 characters": ({"phone": "call me on 415 555 0123 4567 or later"},
                                      ("invalid", "field_rule", "phone")),
    "blocked country": ({"phone": TEHRAN}, ("blocked_country", None, None)),
    "external_id over 128": ({"phone": SF, "id": "x" * 129},
                             ("invalid", "field_rule", "external_id")),
    "first_name over 100": ({"phone": SF, "first name": "x" * 101},
                            ("invalid", "field_rule", "first_name")),
    "last_name over 100": ({"phone": SF, "surname": "x" * 101},
                           ("invalid", "field_rule", "last_name")),
    "full_name over 200": ({"phone": SF, "name": "x" * 201},
                           ("invalid", "field_rule", "full_name")),
    "email over 254": ({"phone": SF, "email": "a@" + "b" * 250 + ".com"},
                       ("invalid", "field_rule", "email")),
    "email without @": ({"phone": SF, "email": "ada at example.com"},
                        ("invalid", "field_rule", "email")),
    "email with a non-breaking space": ({"phone": SF, "email": "ada\u00a0l@example.com"},
                                        ("invalid", "field_rule", "email")),
    "email without a dot": ({"phone": SF, "email": "ada@localhost"},
                            ("invalid", "field_rule", "email")),
    "limits are characters, not bytes": ({"phone": SF, "first name": "é" * 100},
                                         ("accepted", None, None)),
    "the first bad field in the contract's order": (
        {"phone": SF, "email": "bad", "first name": "x" * 101, "id": "ok"},
        ("invalid", "field_rule", "first_name")),
    "the phone decides before the fields": ({"phone": "12", "email": "bad"},
                                            ("invalid", "invalid_phone", None)),
    "a blocked country decides before the fields": ({"phone": TEHRAN, "email": "bad"},
                                                    ("blocked_country", None, None)),
}


@pytest.mark.parametrize(("cells", "expected"), CASES.values(), ids=CASES)
def test_each_status_reason_and_field(cells: dict[str, str | None],
                                      expected: tuple[str, str | None, str | None]) -> None:
    assert one(**cells) == expected


def test_a_number_again_is_a_duplicate_and_the_first_stays() -> None:
    frame = pd.DataFrame({"phone": ["415-555-0123", NY, "+1 (415) 555 0123"]})
    assert verdicts(clean(frame)) == [("accepted", None, None), ("accepted", None, None),
                                      ("duplicate", "duplicate_in_request", None)]


def test_an_external_id_again_is_a_duplicate() -> None:
    frame = pd.DataFrame({"phone": [SF, NY], "lead id": ["A-1", "A-1"]})
    assert verdicts(clean(frame))[1] == ("duplicate", "duplicate_in_request", None)


def test_a_refused_first_row_makes_no_duplicate() -> None:
    """The service counts only leads it accepted earlier in the request: a first row
    refused for a field leaves the second one free, by phone and by id."""
    frame = pd.DataFrame({"phone": [SF, SF, NY, LONDON], "email": ["bad", None, None, None],
                          "id": ["A", "B", "B", "C"]})
    assert verdicts(clean(frame)) == [("invalid", "field_rule", "email"),
                                      ("accepted", None, None),
                                      ("duplicate", "duplicate_in_request", None),
                                      ("accepted", None, None)]


def test_a_duplicate_is_judged_before_the_fields() -> None:
    frame = pd.DataFrame({"phone": [SF, SF], "email": [None, "bad"]})
    assert verdicts(clean(frame))[1] == ("duplicate", "duplicate_in_request", None)


def test_offline_the_result_says_which_checks_did_not_run() -> None:
    result = clean(pd.DataFrame({"phone": [SF]}))
    assert set(result.skipped) == {"duplicate_in_campaign", "on_dnc"}
    assert "pass client=" in result.skipped["on_dnc"]
    assert "not checked" in result._repr_html_()


def test_with_the_account_the_campaign_and_the_dnc_list_are_checked(client: Client) -> None:
    campaign = next(client.campaigns.list(status="paused")).id
    other = next(c.id for c in client.campaigns.list() if c.id != campaign)
    client.leads.import_batch(campaign, [{"phone": SF, "external_id": "in-here"}])
    client.leads.import_batch(other, [{"phone": LONDON, "external_id": "elsewhere"}])
    client.dnc.add(NY)
    frame = pd.DataFrame({"phone": [SF, "+13125550177", "+16175550123", NY, "+17025550123"],
                          "external_id": [None, "in-here", "elsewhere", None, None]})
    result = clean(frame, client=client, campaign_id=campaign)
    assert verdicts(result) == [("duplicate", "duplicate_in_campaign", None),
                                ("duplicate", "duplicate_in_campaign", None),
                                ("invalid", "field_rule", "external_id"),
                                ("on_dnc", None, None), ("accepted", None, None)]
    assert result.skipped == {}
    answers = client.leads.import_batch(campaign, [
        {"phone": row.phone_e164, **({} if pd.isna(row.external_id) else
                                     {"external_id": row.external_id})}
        for row in result.frame.itertuples()])
    assert [(r.status, r.reason, r.field) for r in answers] == verdicts(result)


def test_another_clients_external_id_is_not_a_clash(
        client: Client, client_as: Callable[..., Client]) -> None:
    campaign = next(client.campaigns.list(status="paused")).id
    client_as("other").leads.import_batch(campaign, [{"phone": LONDON, "external_id": "X-1"}])
    result = clean(pd.DataFrame({"phone": [SF], "external_id": ["X-1"]}), client=client,
                   campaign_id=campaign)
    assert verdicts(result) == [("accepted", None, None)]


class _Asked(httpx.HTTPTransport):
    """A transport that keeps the query of every lead list it sends."""

    def __init__(self) -> None:
        super().__init__()
        self.lists: list[dict[str, str]] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.method == "GET" and request.url.path == "/v1/leads":
            self.lists.append(dict(request.url.params))
        return super().handle_request(request)


@pytest.mark.parametrize("to_file", [False, True], ids=["in memory", "to a file"])
def test_an_id_column_empty_in_every_row_asks_only_for_the_campaigns_leads(
        sandbox: Sandbox, client: Client, tmp_path: Path, to_file: bool) -> None:
    campaign = next(client.campaigns.list(status="paused")).id
    path = tmp_path / "leads.csv"
    path.write_text("Phone,External ID\n" + "".join(f"+1312555{n:04d},\n" for n in range(3)))
    asked = _Asked()
    with Client(KEYS["full"], base_url=sandbox.base_url, rate_limit=None,
                transport=asked) as counted:
        if to_file:
            clean_file(path, out=tmp_path / "out.csv", client=counted, campaign_id=campaign)
        else:
            clean(path, client=counted, campaign_id=campaign)
    assert asked.lists and all(query.get("campaign_id") == campaign for query in asked.lists)


def test_the_result_views_and_exports(tmp_path: Path) -> None:
    frame = pd.DataFrame({"Mobile": ["415.555.0123 x7", "n/a", "+44 20 7946 0958"],
                          "status": ["hot", "cold", "warm"], "Notes": ["a", None, "c"]})
    result = clean(frame)
    assert list(result.frame.columns) == ["Mobile", "status (file)", "Notes", "row",
                                          "phone_e164", "country", "extension", "alt_phone",
                                          "status", "reason", "field", "flags", "hint"]
    assert result.frame["row"].tolist() == [1, 2, 3]
    assert result.accepted["row"].tolist() == [1, 3]
    assert result.rejected["reason"].tolist() == ["missing_phone"]
    assert result.summary.to_dict("records") == [
        {"status": "accepted", "reason": None, "field": None, "rows": 2},
        {"status": "invalid", "reason": "missing_phone", "field": None, "rows": 1}]
    assert result.leads() == [
        {"phone": SF, "custom_fields": {"status": "hot", "Notes": "a", "phone_extension": "7"}},
        {"phone": LONDON, "custom_fields": {"status": "warm", "Notes": "c"}}]
    assert result.frame.loc[0, "extension"] == "7"
    back = pd.read_csv(io.StringIO(result.to_csv() or ""), dtype=str)
    assert back["phone_e164"].tolist()[::2] == [SF, LONDON]
    result.to_csv(tmp_path / "rejects.csv", rows="rejected")
    assert pd.read_csv(tmp_path / "rejects.csv")["row"].tolist() == [2]
    result.to_excel(tmp_path / "out.xlsx")
    book = pd.read_excel(tmp_path / "out.xlsx", sheet_name=None, dtype=str, engine="calamine")
    assert list(book) == ["accepted", "rejected", "summary"]
    assert book["accepted"]["phone_e164"].tolist() == [SF, LONDON]
    assert "data:image/png;base64," in result._repr_html_()
    assert "missing_phone" in result._repr_html_()
    assert repr(result) == "<CleanResult DataFrame: 3 rows: accepted 2, invalid 1>"
    with pytest.raises(ValueError, match="rows='some'"):
        result.to_csv(rows="some")


def test_cells_a_workbook_held_as_numbers_are_flagged(tmp_path: Path) -> None:
    path = tmp_path / "book.xlsx"
    pd.DataFrame({"phone": [4155550123, 2125550142]}).to_excel(path, index=False)
    result = clean(path)
    assert result.frame["flags"].tolist() == ["stored_as_number", "stored_as_number"]
    assert result.frame["status"].tolist() == ["accepted", "accepted"]


def test_a_country_column_and_bad_arguments() -> None:
    frame = pd.DataFrame({"tel": ["020 7946 0958", "(415) 555-0123"], "land": ["UK", "USA"]})
    result = clean(frame, country_column="land")
    assert result.frame["phone_e164"].tolist() == [LONDON, SF]
    with pytest.raises(ValueError, match="country_column='nope' is not a column"):
        clean(frame, country_column="nope")
    with pytest.raises(ValueError, match="blocked_countries holds 'Atlantis', which names no"):
        clean(frame, blocked_countries=["Atlantis"])
    assert one(phone=LONDON) == ("accepted", None, None)
    assert verdicts(clean(frame, country_column="land", blocked_countries="GB, KP"))[0] == (
        "blocked_country", None, None)


def test_a_read_file_can_be_cleaned_again() -> None:
    file = read(pd.DataFrame({"Mobil": [SF]}), mapping={"phone": "Mobil"})
    assert verdicts(clean(file)) == [("accepted", None, None)]


MESSY_CELL = st.one_of(st.none(), st.text(max_size=40),
                       st.from_regex(r"\+?[0-9 ()\-.]{0,20}( ?(x|ext\.?|#) ?[0-9]{1,4})?",
                                     fullmatch=True))


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(MESSY_CELL, MESSY_CELL, MESSY_CELL), min_size=1, max_size=90))
def test_clean_keeps_every_row_of_any_frame(rows: list[tuple[str | None, ...]]) -> None:
    """As many messy rows as 150 frames of 30 would hold, in 50 frames: a clean's cost is
    mostly its own, whatever its rows (a frame of 3 rows costs most of one of 90)."""
    frame = pd.DataFrame(rows, columns=["phone", "email", "id"])
    result = clean(frame)
    assert len(result.frame) == len(frame)
    assert result.frame["row"].tolist() == list(range(1, len(frame) + 1))
    assert result.frame["status"].notna().all()
    assert len(result.accepted) + len(result.rejected) == len(frame)


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=400))
def test_random_bytes_raise_only_a_lead_file_error(data: bytes) -> None:
    try:
        result = clean(io.BytesIO(data))
    except LeadFileError as error:
        assert "the file" in str(error)
        return
    assert len(result.frame) == len(read(io.BytesIO(data)).frame)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(st.text(alphabet=st.characters(blacklist_categories=["Cs"]),
                                 max_size=12), min_size=1, max_size=4), min_size=1, max_size=12))
def test_random_csv_text_raises_only_a_lead_file_error(table: list[list[str]]) -> None:
    text = "phone,email\n" + "\n".join(",".join(f'"{c.replace(chr(34), "")}"' for c in row[:2])
                                       for row in table)
    try:
        result = clean(io.BytesIO(text.encode()))
    except LeadFileError:
        return
    assert len(result.frame) == len(read(io.BytesIO(text.encode())).frame)
    assert result.frame["status"].notna().all()


def test_the_readme_lead_example_runs_as_written(monkeypatch: pytest.MonkeyPatch,
                                                 tmp_path: Path) -> None:
    """From any folder: the example reads its file through ``dialkit.samples``."""
    readme = Path(__file__).resolve().parents[2] / "README.md"
    section = readme.read_text("utf-8").split("## Lead files", 1)[1].split("\n## ", 1)[0]
    (block,) = re.findall(r"```python\n(.*?)```", section, re.DOTALL)
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, Any] = {}
    exec(compile(block, str(readme), "exec"), namespace)  # noqa: S102 - our own docs
    try:
        result, report = namespace["result"], namespace["report"]
        assert len(result.frame) == 3000 and not result.skipped
        assert report.counts["imported"] == len(result.accepted) > 2500
        assert report.counts["refused_locally"] == len(result.rejected)
    finally:
        namespace["client"].close()


def _international_cells() -> list[str]:
    """Numbers written with their calling code, valid and not: each region's example
    numbers, a digit short, a digit long, and after an unknown code."""
    import phonenumbers

    cells = []
    for region in sorted(phonenumbers.SUPPORTED_REGIONS)[::3]:
        example = phonenumbers.example_number(region)
        if example is None:
            continue
        text = phonenumbers.format_number(example, phonenumbers.PhoneNumberFormat.INTERNATIONAL)
        cells += [text, text[:-1], text + "7", " " + text.replace(" ", "-")]
    return [*cells, "+999 123 4567", "+1 598-697-1366", "+44 20 7946 0958 ext. 12"]


@pytest.mark.parametrize("region", ["GB", "DE", "BR", "MX", "IN", "FR", "AU", "JP", "AR"])
def test_a_number_with_its_calling_code_reads_alike_in_every_region(region: str) -> None:
    """Why region hints never try a refused ``+`` cell under another region."""
    cells = _international_cells()
    assert (normalize(cells, region="US")["phone_e164"].tolist()
            == normalize(cells, region=region)["phone_e164"].tolist())


def test_a_refused_number_valid_in_one_region_of_the_file_gets_a_hint() -> None:
    frame = pd.DataFrame({"phone": ["+49 30 901820", "+49 30 9018211", "030 9018223",
                                    "+44 20 7946 0958", "+44 20 7946 09", "(415) 555-0123"],
                          "country": ["DE", "", "", "", "", ""]})
    result = clean(frame)
    assert result.frame["hint"].fillna("").tolist() == [
        "", "", "the row's country is blank; the number is a valid DE number, +49309018223: "
        "fill that cell with DE, or write it as +49309018223", "", "", ""]
    assert result.frame["reason"].tolist()[4] == "invalid_phone"
    assert dict(result.looks_like) == {"DE|country": 1}


@pytest.mark.parametrize(("batch", "part"), [(4, 1 << 18), (4, 8), (1 << 16, 5)])
def test_the_csv_is_the_same_written_in_batches(monkeypatch: pytest.MonkeyPatch, batch: int,
                                                part: int) -> None:
    notes = ["=1+1", "a,b", "line\r\nbreak", None] * 5 + ["", "é", "x"]
    result = clean(pd.DataFrame({"phone": [f"(415) 555-{n:04d}" for n in range(23)],
                                 "note": notes}))
    whole = result.to_csv()
    monkeypatch.setattr(_tuning, "CSV_BATCH_ROWS", batch)
    monkeypatch.setattr(_tuning, "CSV_PART_ROWS", part)
    assert result.to_csv() == whole
    assert whole is not None and whole.startswith('"phone"') and whole.count('"phone"') == 1


def test_the_verdicts_are_the_same_normalised_in_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    mix = Path(__file__).parents[1] / "fixtures" / "clean" / "mix_1500.csv"
    whole = clean(mix, country_column="Country")
    monkeypatch.setattr(_tuning, "CHUNK_ROWS", 97)
    parts = clean(mix, country_column="Country")
    pd.testing.assert_frame_equal(parts.frame, whole.frame)
    assert parts.to_csv() == whole.to_csv() and parts.notes == whole.notes


def test_a_clean_reads_as_counts_in_a_notebook() -> None:
    """Counts with separators and no ``None`` where a reason or field does not apply
    (the demo's lead-cleaning page showed ``2734``)."""
    result = clean(pd.DataFrame({"phone": ["+14155550123"] * 1_500 + [""]}))
    shown = result._repr_html_()
    assert "<td>1,499</td>" in shown
    assert "None" not in shown.split("<img")[0] and "NaN" not in shown
    assert repr(result) == ("<CleanResult DataFrame: 1,501 rows: duplicate 1,499, accepted 1, "
                            "invalid 1>")


def test_the_email_rule_knows_every_space_python_does() -> None:
    """The email rule's spaces are listed for RE2 (finding them at import took 0.13 s of
    every clean): the list is what the service's ``\\s`` matches in this Python."""

    every = "".join(map(chr, range(0x110000)))
    assert [ord(c) for c in re.findall(r"\s", every)] == list(_verdicts.SPACES)
    spaced = pd.DataFrame({"phone": ["+14155550123", "+14155550124", "+14155550125"],
                           "email": ["ada@example.com", "ada\u2003l@example.com",
                                     "ada@exa\u0085mple.com"]})
    assert clean(spaced).frame["field"].fillna("").tolist() == ["", "email", "email"]


@pytest.mark.parametrize("part_rows", [7, 100, 1000])
def test_parts_give_each_row_its_own_answer(part_rows: int,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Cut into parts (more rows than a part), the phones of the mix (and a missing
    country cell) get what one :func:`normalize` of them all gives, row by row, on their
    own index."""
    frame = read(Path(__file__).resolve().parents[1] / "fixtures" / "clean" / "mix_1500.csv").frame
    frame.loc[3, "Country"] = None
    cells = cell_frame(frame["Phone"], frame["Country"]).set_axis(frame.index + 10)
    whole = normalize(cells["cell"], region="US", country=cells["country"])
    monkeypatch.setattr(_tuning, "CHUNK_ROWS", part_rows)
    parted = _clean.normalized_part(cells, region="US")
    pd.testing.assert_frame_equal(parted.astype(object), whole.astype(object))


def test_one_row_is_said_as_one_row() -> None:
    """A file of one row is "1 row" in the repr and the notebook's title, never "1 rows"."""
    result = clean(pd.DataFrame({"phone": [SF]}))
    assert repr(result).startswith("<CleanResult DataFrame: 1 row: ")
    assert "DataFrame: 1 row, 1 accepted, 0 rejected" in result._repr_html_()
