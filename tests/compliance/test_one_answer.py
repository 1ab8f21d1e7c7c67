"""One answer on every path (issue 71, items 2 and 3): the same inputs audited on pandas
and on Dask give the same findings, whatever the Dask path reads or shuffles.

- The project's own Parquet export of calls (microseconds) with a DNC CSV of text times
  ended in ``MergeError`` on Dask: a part's DNC results took the resolution Dask's meta
  guessed from no rows (seconds), the calls kept theirs.
- The Dask path kept its own lists of the columns it read, and dropped the leads' ``line``
  (a call to a business line on the registry was a ``dnc_call`` on Dask, none on pandas:
  16 CFR 310.4(b)(1)(iii)(B) protects residential subscribers) and the DNC results'
  ``list`` (the account's own list read as the registry: (B) cited where pandas cites
  (A), 16 CFR 310.4(b)(1)(iii)(A)). Both now read the declaration (:mod:`._declared`).
- Two overlapping exports concatenated hold some calls twice: each copy counted toward
  Florida's cap (Fla. Stat. 501.616(6)(b): "more than three ... phone calls ... over a
  24-hour period"), and the third call became a false fourth.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import dialkit
from dialkit.compliance import AuditInputError, audit, read_export
from dialkit.compliance._dask._parts import calls_part, dnc_part, outbound_part, read_columns
from dialkit.compliance._dask._parts import rest_part as rest_of
from dialkit.compliance._inputs._declared import INPUTS, declared
from dialkit.compliance._rules._rules import US
from dialkit.frames import export

dd = pytest.importorskip("dask.dataframe")

NY = "+12125550123"
MIAMI = "+13055550123"
REGISTRY = {"16 CFR 310.4(b)(1)(iii)(B)", "47 CFR 64.1200(c)(2)"}
OWN_LIST = {"16 CFR 310.4(b)(1)(iii)(A)"}


def calls_to(phone: str, *times: str, ids: list[str] | None = None) -> pd.DataFrame:
    """Outbound calls of ``cmp_1`` to ``phone`` at ``times``, unanswered."""
    return pd.DataFrame({
        "id": ids or [f"call_{n}" for n in range(len(times))], "direction": "outbound",
        "from_number": "+14155550100", "to_number": phone,
        "created_at": pd.to_datetime(list(times), utc=True), "answered_at": pd.NaT,
        "ended_at": pd.NaT, "campaign_id": "cmp_1", "disposition": None})


def lead(phone: str, **more: object) -> pd.DataFrame:
    return pd.DataFrame([{"id": "lead_1", "campaign_id": "cmp_1", "phone": phone,
                          "status": "contacted", **more}])


def on_both(calls: pd.DataFrame | list[pd.DataFrame], **frames: Any) -> tuple[Any, Any]:
    """The audit of the same inputs on pandas and on Dask (each frame in two partitions;
    a list of calls frames concatenated, each a partition of its own)."""
    parts = calls if isinstance(calls, list) else [calls]
    whole = pd.concat(parts, ignore_index=True)
    lazy = {name: dd.from_pandas(frame, npartitions=2) for name, frame in frames.items()
            if name in ("leads", "dnc")}
    pandas = audit(whole, as_of="2026-11-27", **frames)
    dask = audit(dd.concat([dd.from_pandas(p, npartitions=1) for p in parts]),
                 as_of="2026-11-27", **{**frames, **lazy})
    return pandas, dask


def same(pandas: Any, dask: Any) -> pd.DataFrame:
    """The findings of both, asserted equal (sorted by rule and call), with the notes."""
    def ordered(frame: pd.DataFrame) -> pd.DataFrame:
        return frame.sort_values(["rule", "call_id", "lead_id"], ignore_index=True)

    pd.testing.assert_frame_equal(ordered(dask.findings), ordered(pandas.findings),
                                  check_dtype=False)
    assert dask.notes == pandas.notes
    found: pd.DataFrame = pandas.findings
    return found


def cited(found: pd.DataFrame, rule: str) -> list[set[str]]:
    return [set(str(c).split("; ")) for c in found.loc[found["rule"] == rule, "citation"]]


@pytest.mark.filterwarnings("ignore:The inplace keyword in DataFrame.reset_index")  # Dask's
def test_an_export_of_calls_with_a_dnc_csv_of_text_times(tmp_path: Path) -> None:
    """The export's calls (Parquet, microseconds) as a dataset's path, the DNC results a
    CSV whose times are text of whole seconds, as a vendor writes them: every outbound
    call to a number listed since 2025 (on its country's register: the US's, Canada's)
    and checked since is a ``dnc_call`` (no consent was given), on both paths; the others
    are of the account's own list (the world's calls after a ``do_not_call``
    disposition), one finding of law a call; the calls to numbers of a state whose own
    list is required and not given are risks besides, one a number (issue 73)."""
    with dialkit.Client.sandbox() as client:
        path = export(client, tmp_path / "account")
    calls = pd.read_parquet(path / "calls")
    outbound = calls[calls["direction"] == "outbound"]
    listed = outbound["to_number"].drop_duplicates().head(20).tolist()
    first = outbound["created_at"].min()
    pd.DataFrame({"phone": listed, "listed": "true", "listed_at": "2025-01-01T00:00:00Z",
                  "checked_at": f"{first - pd.Timedelta(days=1):%Y-%m-%dT%H:%M:%SZ}"}
                 ).to_csv(tmp_path / "dnc.csv", index=False)
    dnc = read_export(tmp_path / "dnc.csv")
    pandas = audit(calls, dnc=dnc, as_of="2026-12-31")
    dask = audit(path / "calls", dnc=dnc, as_of="2026-12-31")
    found = same(pandas, dask)
    expected = outbound.loc[outbound["to_number"].isin(listed), "id"]
    calls = found[found["rule"] == "dnc_call"]
    listings = calls[calls["basis"] == "law"]
    others = listings[~listings["call_id"].isin(expected)]
    assert set(expected) <= set(listings["call_id"]) and len(listings) == len(
        set(listings["call_id"]))
    assert all(cites == OWN_LIST for cites in cited(others, "dnc_call"))
    assert len(expected) >= 20
    risks = calls[calls["basis"] != "law"]
    assert len(risks) and (risks["basis"] == "risk").all() and risks["phone"].is_unique
    assert risks["jurisdiction"].str.match(r"US-[A-Z]{2}$").all()


def test_a_call_to_a_business_line_on_the_registry() -> None:
    """A business line is no residential subscriber's: the registry's rule does not find
    the call, on either path; a residential one it finds."""
    dnc = pd.DataFrame({"phone": [NY], "listed": True,
                        "listed_at": pd.to_datetime(["2026-01-01"], utc=True),
                        "checked_at": pd.to_datetime(["2026-05-01"], utc=True)})
    calls = calls_to(NY, "2026-06-02T16:00Z")
    for line, expected in (("business", []), ("residential", [REGISTRY])):
        found = same(*on_both(calls, leads=lead(NY, line=line), dnc=dnc))
        assert cited(found, "dnc_call") == expected


def test_a_number_on_the_accounts_own_list() -> None:
    """A ``company`` listing is the account's own list: 16 CFR 310.4(b)(1)(iii)(A),
    which gives no grace, on either path."""
    dnc = pd.DataFrame({"phone": [NY], "listed": True, "list": "company",
                        "listed_at": pd.to_datetime(["2026-06-01"], utc=True),
                        "checked_at": pd.to_datetime(["2026-06-01"], utc=True)})
    found = same(*on_both(calls_to(NY, "2026-06-02T16:00Z"), leads=lead(NY), dnc=dnc))
    assert cited(found, "dnc_call") == [OWN_LIST]


FLORIDA_DAY = ("2026-06-02T14:00Z", "2026-06-02T15:00Z", "2026-06-02T16:00Z",
               "2026-06-02T17:00Z")
"""Four calls on Tuesday 2 June 2026, 10:00 to 13:00 EDT in Miami: inside every window."""


def test_a_call_exported_twice_is_read_once() -> None:
    """Two exports overlapping on ``call_1``: the person called four times, the fourth
    (``call_3``) over Florida's three; ``call_2`` is the third, no finding, on either
    path (read twice, it was the fourth)."""
    every = calls_to(MIAMI, *FLORIDA_DAY)
    first, second = every.iloc[:2], every.iloc[1:]
    pandas, dask = on_both([first, second], leads=lead(MIAMI, state="FL"))
    found = same(pandas, dask)
    capped = found[found["rule"] == "call_frequency"]
    assert capped["call_id"].tolist() == ["call_3"]
    assert capped["calls_in_24h"].tolist() == [4]
    assert pandas.notes["repeated_calls"].startswith("1 row repeats another of its call id")
    assert pandas.calls_audited == dask.calls_audited == 4


@pytest.mark.parametrize("path", ["pandas", "dask"])
def test_rows_of_one_call_that_differ_are_refused(path: str) -> None:
    every = calls_to(MIAMI, *FLORIDA_DAY)
    other = every.iloc[[1]].assign(ended_at=pd.to_datetime(["2026-06-02T15:01Z"], utc=True))
    given = [every, other]
    with pytest.raises(AuditInputError, match="rows of call id call_1 that differ"):
        if path == "pandas":
            audit(pd.concat(given, ignore_index=True), as_of="2026-11-27")
        else:
            audit(dd.concat([dd.from_pandas(p, npartitions=1) for p in given]),
                  as_of="2026-11-27")


def every_column(name: str) -> pd.DataFrame:
    """A row of the frame ``name`` holding every column its declaration names, and one it
    does not (``unread``)."""
    values = {"text": "x", "phone": NY, "time": pd.Timestamp("2026-06-01", tz="UTC"),
              "number": 12.0, "boolean": True, "value": "x"}
    row = {c.name: values[c.kind] for c in INPUTS[name]}
    fixed = {"calls": {"direction": "outbound", "from_number": NY},
             "leads": {"line": "business", "status": "contacted"},
             "dnc": {"list": "company"}}.get(name, {})
    return pd.DataFrame([{**row, **fixed, "unread": "x"}])


def test_the_dask_path_reads_every_column_the_declaration_names() -> None:
    """For each frame the Dask audit shuffles, every column the pandas path checks and
    reads (its declaration) goes through: the calls' as the rules' columns or with the
    rows the report lists whole, the leads' and DNC results' as the rules' columns."""
    leads = every_column("leads")
    assert read_columns(leads.columns, "leads") == list(declared("leads"))
    assert set(declared("dnc")) <= set(dnc_part(every_column("dnc")).columns)
    outbound = outbound_part(every_column("calls"), campaigns=None)
    shuffled = {*calls_part(outbound).columns, *rest_of(outbound, rules=US).columns}
    assert set(declared("calls")) <= shuffled
