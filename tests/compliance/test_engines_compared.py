"""The audit's engines compared by construction (issue 71's proof): the cases are made from
the declaration of the audit's inputs (``compliance._inputs._declared.INPUTS``), and each is
audited on pandas, on Dask (a real ``LocalCluster``) and by the command line's file mode,
whose findings must be pandas'.

Issue 71 found the Dask path reading columns of its own lists: it dropped the leads' ``line``
and the DNC results' ``list`` and judged calls otherwise than pandas. Here no path is told
which columns exist: an account is made with every declared column of every declared frame
(:data:`MADE` says how each frame is made, and :func:`test_every_declared_input_is_made`
fails for a frame or column declared later and not made), and the cases are, from the
declaration alone:

- everything given;
- for each ``k``, every frame given without its ``k``-th optional column, and one optional
  frame left out: each optional column is absent once while its frame is given, and each
  optional frame left out once (:func:`cases`: with each frame left out in a case of its
  own, 14 cases, the file took 45 s on this machine's two shared cores; with these 9, 27 s).

The account is the audit benchmark's generator at a small size (night calls, bursts,
listings, late agents; its seeded edges of each rule: each list's grace, the caps, the
abandonment periods) with what the generator lacks added: address states in every form,
business lines, other phones, subjects, prerecorded calls, lists, consents, reassigned
answers, texts, contracts, states of emergency.
"""

from __future__ import annotations

import itertools
import json
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from dialkit._utils._choices import AUDIT_INPUTS
from dialkit.cli import app
from dialkit.compliance import HOUSE_RULES, AuditReport, audit
from dialkit.compliance._inputs._declared import INPUTS, TIME_TYPE

dd = pytest.importorskip("dask.dataframe")
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from test_dask_audit import assert_same_report  # noqa: E402

import bench_audit  # noqa: E402
from dask_helpers import local_cluster  # noqa: E402

OPTIONS: dict[str, Any] = {"verified_caller_ids": bench_audit.VERIFIED,
                           "blocked_countries": bench_audit.BLOCKED, "as_of": bench_audit.AS_OF,
                           "policy": HOUSE_RULES}
COMMAND = ["--verified-caller-ids", "{ids}", "--blocked-countries", ",".join(bench_audit.BLOCKED),
           "--as-of", bench_audit.AS_OF.isoformat(), "--policy", "house-rules", "--json"]
"""The same options as the command line's (the ids in a file, ``{ids}``)."""
START, DAY = bench_audit.START, pd.Timedelta(days=1)
DASK_FRAMES = ("calls", "leads", "dnc")
"""The frames the audit shuffles on Dask, given as Dask frames; the others are small and
reach every part whole (docs/compliance.md)."""


# The account: every declared frame, with every declared column --------------------------------

def _cycle(values: list[Any], n: int) -> np.ndarray:
    """``values`` repeated to ``n`` rows."""
    return np.array([values[i % len(values)] for i in range(n)], dtype=object)


def _times(values: Any) -> pd.Series:
    """Times (None: none) as a UTC column."""
    return pd.to_datetime(pd.Series(values), utc=True)


def _calls(made: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """The generated calls (every column but these two) with the calls' own ``subject``
    and a few prerecorded calls."""
    calls = made["calls"]
    n = len(calls)
    return calls.assign(subject=_cycle(["solar", "roofs", None], n),
                        prerecorded=np.arange(n) % 11 == 0)


def _leads(made: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """The generated leads with an address state in each form (a code, a name, lower
    case, one no table reads, none), some in ``custom_fields``; business and residential
    lines; a person's other number (the next lead's of the campaign); subjects."""
    leads = made["leads"]
    n = len(leads)
    other = leads.groupby("campaign_id", observed=True)["phone"].shift(-1).astype(object)
    fields = leads["custom_fields"].astype(object).where(np.arange(n) % 7 != 3,
                                                        '{"state": "OK"}')
    return leads.assign(state=_cycle(["FL", "Florida", None, "XX", "ny", "Texas"], n),
                        custom_fields=fields, line=_cycle(["business", "residential", None], n),
                        other_phones=other.where(np.arange(n) % 4 == 0, None),
                        subject=_cycle(["solar", None], n))


def _dnc(made: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """The generated DNC results, each listing on a list said, or not."""
    dnc = made["dnc"]
    return dnc.assign(list=_cycle(["national", "company", None], len(dnc)))


def _consented(made: dict[str, pd.DataFrame], n: int) -> pd.DataFrame:
    """``n`` leads, those of listed numbers first: their ``phone`` and ``lead_id``."""
    leads = made["leads"]
    listed = leads["phone"].isin(made["dnc"].loc[made["dnc"]["listed"].astype(bool), "phone"])
    chosen = pd.concat([leads[listed.to_numpy()], leads[~listed.to_numpy()]]).head(n)
    return pd.DataFrame({"phone": chosen["phone"].astype(object).to_numpy(),
                         "lead_id": chosen["id"].astype(object).to_numpy()})


def _consents(made: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Consents of each kind to listed numbers and others, some revoked, each named by its
    number and its lead (so that either column may go)."""
    rows = _consented(made, 24)
    n = len(rows)
    return rows.assign(kind=_cycle(["written", "ebr", "oral"], n),
                       given_at=_times(_cycle([START - 20 * DAY, START + 5 * DAY], n)),
                       revoked_at=_times(_cycle([None, None, START + 15 * DAY], n)),
                       relationship=_cycle(["purchase", "inquiry", None], n))


def _reassigned(made: dict[str, pd.DataFrame]) -> pd.DataFrame:
    rows = _consented(made, 6)
    return pd.DataFrame({"phone": rows["phone"], "asked_at": _times([START + 3 * DAY] * len(rows)),
                         "answer": _cycle(["yes", "no", "no_data"], len(rows))})


def _texts(made: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Texts to leads' numbers, listed ones among them, some at night, some failed."""
    to = _consented(made, 30)["phone"]
    n = len(to)
    status = _cycle(["delivered", "delivered", "failed"], n)
    return pd.DataFrame({
        "message_id": [f"msg_{i}" for i in range(n)], "to": to,
        "created_at": _times(START + pd.to_timedelta(np.arange(n) * 29 % 40, "D")
                             + pd.to_timedelta(np.arange(n) * 5 % 24, "h")),
        "status": status, "error_code": np.where(status == "failed", "unreachable", None)})


def _contracts(made: dict[str, pd.DataFrame]) -> pd.DataFrame:
    rows = _consented(made, 8)
    return rows.assign(signed_at=_times([START - 30 * DAY] * len(rows)),
                       ends_at=_times(_cycle([None, START + 10 * DAY], len(rows))))


def _emergencies(made: dict[str, pd.DataFrame]) -> pd.DataFrame:
    return pd.DataFrame({"area": ["LA", "US-NY", "Florida"],
                         "starts_at": _times([START + 5 * DAY, START + 2 * DAY,
                                              START + 30 * DAY]),
                         "ends_at": _times([START + 12 * DAY, None, None]),
                         "declaration": ["hurricane", None, "flood"]})


MADE: dict[str, Callable[[dict[str, pd.DataFrame]], pd.DataFrame]] = {
    "calls": _calls, "leads": _leads, "dnc": _dnc, "consents": _consents,
    "reassigned": _reassigned, "texts": _texts, "contracts": _contracts,
    "emergencies": _emergencies}
"""How each declared frame is made, every declared column in it."""


@cache
def account() -> dict[str, pd.DataFrame]:
    """Every frame :data:`MADE` makes of a small generated account, as each path can be
    given the same: the frames Dask shuffles as Dask holds them (``dd.from_pandas`` makes
    text Arrow strings, where pandas infers ``str``), and no empty text, which a CSV file
    writes as it writes a missing one."""
    made = bench_audit.frames(400, 80, seed=5)
    frames = {name: _no_empty_text(make(made)) for name, make in MADE.items()}
    return {name: dd.from_pandas(frame, npartitions=1).compute() if name in DASK_FRAMES
            else frame for name, frame in frames.items()}


def _no_empty_text(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with each empty text missing instead."""
    text = [c for c in frame if pd.api.types.is_string_dtype(frame[c]) or frame[c].dtype == object]
    return frame.assign(**{c: frame[c].mask(frame[c].astype(object).eq("")) for c in text})


# The cases, from the declaration ---------------------------------------------------------------

@dataclass(frozen=True)
class Case:
    """What is left out of the account: columns by frame, and whole frames."""

    columns: tuple[tuple[str, str], ...] = ()
    frames: tuple[str, ...] = ()

    def __str__(self) -> str:
        gone = [f"{frame}.{column}" for frame, column in self.columns]
        return "without " + ", ".join([*gone, *self.frames]) if gone or self.frames else "all"

    def given(self) -> dict[str, pd.DataFrame]:
        """The account's frames this case gives."""
        dropped = dict(self.columns)
        return {name: frame.drop(columns=[dropped[name]] if name in dropped else [])
                for name, frame in account().items() if name not in self.frames}


def cases() -> Iterator[Case]:
    """Everything; then for each ``k``, every frame given without its ``k``-th optional
    column, and one frame (but the calls) left out: each in the first case past its own
    columns' (so that each of its columns is left out once while it is given) that leaves
    out no other."""
    optional = {name: [c.name for c in columns if not c.required]
                for name, columns in INPUTS.items()}
    out: dict[int, str] = {}
    for name in (name for name in INPUTS if name != "calls"):
        out[next(k for k in itertools.count(len(optional[name])) if k not in out)] = name
    yield Case()
    for k in range(max(*map(len, optional.values()), max(out) + 1)):
        yield Case(columns=tuple((name, names[k]) for name, names in optional.items()
                                 if k < len(names) and name != out.get(k)),
                   frames=(out[k],) if k in out else ())


CASES = list(cases())


@cache
def on_pandas(case: Case) -> AuditReport:
    given = case.given()
    return audit(given.pop("calls"), **given, **OPTIONS)


# The tests -----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    with local_cluster() as client:
        client.run(lambda: __import__("dialkit.compliance"))  # not timed in the first case
        yield client


def test_every_declared_input_is_made() -> None:
    """A frame or column declared later is in the account, so every case below compares
    it: a frame :data:`MADE` does not make, or makes without a declared column, fails."""
    assert set(MADE) == set(INPUTS), "say in MADE how to make each declared frame"
    made = account()
    for name, columns in INPUTS.items():
        missing = {c.name for c in columns} - set(made[name].columns)
        assert not missing, f"make {name} with its declared columns {sorted(missing)}"


def test_the_account_has_findings_of_the_rules_compared() -> None:
    """The comparisons are worth something only where the rules find something: every
    rule of a call and of a lead does, on texts too, and every finding's basis."""
    found = on_pandas(Case()).findings
    assert {"calling_hours", "call_frequency", "dnc_call", "dnc_lead", "unscreened_lead",
            "abandonment", "blocked_country", "unverified_caller_id", "caller_id",
            "no_written_consent", "unknown_address_state"} <= set(found["rule"])
    assert set(found["channel"].dropna()) == {"call", "text"}
    assert set(found["basis"]) == {"law", "policy", "risk"}


def test_each_optional_input_is_left_out_while_the_others_are_given() -> None:
    for name, columns in INPUTS.items():
        for column in (c.name for c in columns if not c.required):
            assert any((name, column) in case.columns and name not in case.frames
                       for case in CASES), f"{name}.{column}"
        assert name == "calls" or any(case.frames == (name,) for case in CASES), name


def test_pandas_findings_hold_listed_at_in_microseconds_without_listed_at() -> None:
    """Missing listing dates were made in nanoseconds, where every time the audit reads is
    in microseconds (Dask's findings were)."""
    case = next(case for case in CASES if ("dnc", "listed_at") in case.columns)
    assert on_pandas(case).findings["listed_at"].dtype == TIME_TYPE


@pytest.mark.parametrize("case", CASES, ids=str)
def test_dask_finds_as_pandas(case: Case, cluster: Any) -> None:
    given = case.given()
    for name in DASK_FRAMES:
        if name in given:
            given[name] = dd.from_pandas(given[name], npartitions=2)
    assert_same_report(audit(given.pop("calls"), **given, **OPTIONS), on_pandas(case))


FLAGS = {each.name: each.flag for each in AUDIT_INPUTS}


@pytest.mark.parametrize("case", CASES, ids=str)
def test_the_command_line_finds_as_pandas(case: Case, tmp_path: Path) -> None:
    """``dialkit compliance audit --calls FILE ...`` with each frame given as a CSV file,
    its ``--json`` findings pandas' (as ``--json`` writes them)."""
    ids = tmp_path / "ids.txt"
    ids.write_text("\n".join(bench_audit.VERIFIED) + "\n")
    arguments = ["compliance", "audit"]
    for name, frame in case.given().items():
        path = tmp_path / f"{name}.csv"
        frame.to_csv(path, index=False)
        flag = "--calls" if name == "calls" else FLAGS.get(name)
        assert flag, f"dialkit compliance audit takes no file of {name}, which audit() reads"
        arguments += [flag, str(path)]
    done = CliRunner().invoke(app, arguments + [a.format(ids=ids) for a in COMMAND])
    assert done.exit_code == 0, done.output
    assert _rows(json.loads(done.stdout)) == _rows(json.loads(
        on_pandas(case).findings.to_json(orient="records", date_format="iso")))


def _rows(found: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Findings in one order: by rule, call and lead."""
    return sorted(found, key=lambda row: (row["rule"], str(row["call_id"]), str(row["lead_id"])))
