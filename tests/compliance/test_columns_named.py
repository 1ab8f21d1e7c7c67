"""Which column of another tool's export is which column the audit reads (issue 79, item
2): recognised by the names dialers, CRMs and DNC vendors give them, or mapped by the
user; refused, naming the columns, where a guess would be needed; the same in every form
a frame is given in."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pyarrow as pa
import pytest

from dialkit._files._headers import squeeze
from dialkit.compliance import AuditInputError, audit
from dialkit.compliance._inputs._declared import INPUTS, declared
from dialkit.compliance._inputs._headers import COMMON

NY = "+12125550123"
DIALER = pd.DataFrame({
    "Call ID": ["c1", "c2"], "Direction": ["Outbound", "outbound"],
    "Caller ID": "+14155550100", "Phone Number": [NY, NY],
    "Call Start": ["2026-06-02T22:30:00-04:00", "2026-06-02T13:05:00-04:00"],
    "Answer Time": [None, None], "End Time": [None, None], "Campaign ID": "spring",
    "Disposition": [None, None]})
"""A dialer's calls: the first at 22:30 in New York, past the federal 21:00."""


def _hours(report: object) -> list[str]:
    found = report.findings  # type: ignore[attr-defined]
    return found.loc[found["rule"] == "calling_hours", "call_id"].tolist()


def test_no_name_is_two_columns_of_one_input() -> None:
    """Each input's names (its own, squeezed, and :data:`COMMON`'s) name one column each:
    a header is never read as two."""
    for name, columns in COMMON.items():
        assert set(columns) <= set(declared(name)), name
        seen: dict[str, str] = {squeeze(column): column for column in declared(name)}
        for column, aliases in columns.items():
            for alias in aliases:
                assert seen.setdefault(alias, column) == column, (name, alias)
                assert alias == squeeze(alias), alias


def test_every_input_has_names_of_its_own() -> None:
    assert set(COMMON) == set(INPUTS)


def test_a_dialers_names_are_read_as_the_audits() -> None:
    report = audit(DIALER)
    assert _hours(report) == ["c1"]
    said = report.notes["columns"]
    assert "'Phone Number' as to_number" in said and "'Call Start' as created_at" in said
    assert "Campaign ID" not in said  # named as the audit names it, but for its case


@pytest.mark.parametrize("form", ["pandas", "arrow", "polars", "dask", "dataset"])
def test_every_form_of_a_frame_is_read_alike(form: str, tmp_path: Path) -> None:
    given: object = DIALER
    if form == "arrow":
        given = pa.Table.from_pandas(DIALER)
    elif form == "polars":
        given = pytest.importorskip("polars").from_pandas(DIALER)
    elif form == "dask":
        given = pytest.importorskip("dask.dataframe").from_pandas(DIALER, npartitions=1)
    elif form == "dataset":
        given = tmp_path / "calls.parquet"
        DIALER.to_parquet(given)
    assert _hours(audit(given)) == ["c1"]  # type: ignore[arg-type]


def test_the_users_mapping_wins_over_the_names() -> None:
    """``Phone Number`` would be read as the number called; the user says ``Dialed`` is."""
    calls = DIALER.assign(Dialed=["+13125550188", NY])  # Chicago: 21:30 there
    report = audit(calls, mapping={"to_number": "Dialed"})
    assert report.findings["phone"].iloc[0] == "+13125550188"
    assert "'Dialed' as to_number" in report.notes["columns"]


def test_two_columns_that_could_each_be_one_are_refused_by_name() -> None:
    with pytest.raises(AuditInputError, match="the columns 'Phone Number' and 'Number' of "
                       "calls could each be to_number: pass which, as mapping="):
        audit(DIALER.assign(Number=NY))


@pytest.mark.parametrize(("mapping", "said"), [
    ({"to_number": "Dialed"}, "reads calls.to_number from 'Dialed', but no column of calls "
                              "is named so: its columns are 'Call ID'"),
    ({"phone": "Phone Number"}, "names 'phone', a column of leads, dnc, consents, reassigned, "
                                "contracts: write which, as leads.phone"),
    ({"phone_number": "Phone Number"}, "names 'phone_number', no column the audit reads"),
    ({"leads.state": "State"}, "names leads.state, but no leads were given"),
    ({"calls.to_number": ""}, "pass the header of the column that holds it"),
])
def test_a_mapping_that_cannot_be_read_is_refused_naming_it(mapping: dict[str, str],
                                                            said: str) -> None:
    with pytest.raises(AuditInputError) as refused:
        audit(DIALER, mapping=mapping)
    assert said in str(refused.value)


def test_a_mapping_beside_a_column_of_the_name_is_refused() -> None:
    calls = DIALER.rename(columns={"Phone Number": "to_number"}).assign(Dialed=NY)
    with pytest.raises(AuditInputError, match="but calls has a column 'to_number' too"):
        audit(calls, mapping={"to_number": "Dialed"})


def test_a_column_mapped_away_frees_its_name() -> None:
    """A dialer's ``status`` holds the disposition: mapped so, its ``call_status`` is the
    calls' status (a busy 3 s call is then no short ring)."""
    calls = DIALER.assign(status=["DNC", None], call_status=["busy", "completed"])
    report = audit(calls, mapping={"disposition": "status"},
                   values={"disposition": {"DNC": "do_not_call"}})
    assert "'call_status' as status" in report.notes["columns"]
    assert "'status' as disposition" in report.notes["columns"]
    assert "values" not in report.notes


def test_the_callers_frame_is_left_as_it_was() -> None:
    calls = DIALER.copy()
    audit(calls, mapping={"to_number": "Phone Number"})
    pd.testing.assert_frame_equal(calls, DIALER)


def test_a_frame_of_dialkits_own_columns_is_noted_nothing() -> None:
    calls = DIALER.rename(columns={"Call ID": "id", "Direction": "direction",
                                   "Caller ID": "from_number", "Phone Number": "to_number",
                                   "Call Start": "created_at", "Answer Time": "answered_at",
                                   "End Time": "ended_at", "Campaign ID": "campaign_id",
                                   "Disposition": "disposition"})
    report = audit(calls)
    assert "columns" not in report.notes
    assert _hours(report) == ["c1"]
