"""Every entry point of the audit on frames with only the columns it needs (issue 61).

The emulator's account, loaded as ``compliance.load`` gives it, is judged again with each
optional column dropped in turn, then with all of them dropped: by ``audit``,
``upcoming``, ``next_allowed`` and ``dialkit compliance audit`` on CSV files. None may
fail, and what a rule finds that does not read the dropped column stays as it was.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from typer.testing import CliRunner

from conftest import load_seeded
from dialkit.cli import app
from dialkit.compliance import audit, load, next_allowed, upcoming
from dialkit.errors import ComplianceRiskWarning
from dialkit.sandbox import Sandbox

runner = CliRunner()

OPTIONAL = {  # (frame, column): the rules whose findings may change without it
    ("calls", "agent_joined_at"): {"abandonment"},
    ("calls", "status"): {"abandonment", "short_ring"},
    ("calls", "hangup_cause"): {"short_ring"},
    ("calls", "duration_seconds"): set(),
    ("leads", "custom_fields"): {"calling_hours", "call_frequency", "unknown_jurisdiction",
                                 "unknown_timezone"},
    ("dnc", "listed_at"): {"dnc_call", "dnc_lead", "unscreened_lead", "no_written_consent"},
    ("consents", "revoked_at"): {"dnc_call", "no_written_consent"},
}
"""The optional columns the emulator's frames hold, each with the rules that read it."""
EVERY = tuple(OPTIONAL)
CASES = [*([key] for key in EVERY), list(EVERY)]
IDS = [*(f"{frame}.{column}" for frame, column in EVERY), "all"]
SCHEDULED = [(case, name) for case, name in zip(CASES, IDS, strict=True)
             if all(frame != "consents" for frame, _ in case)]
"""The cases of the entry points that read no consent records."""
MINIMAL = [("calls", column) for column in ("agent_joined_at", "status", "hangup_cause",
                                            "duration_seconds")]
"""The calls export of issue 61: the documented columns alone."""
FINDING = ["rule", "call_id", "lead_id", "phone", "at"]


@pytest.fixture(scope="module")
def account(sandbox: Sandbox, tmp_path_factory: pytest.TempPathFactory
            ) -> dict[str, pd.DataFrame]:
    """The seeded account's frames, its pending callbacks, and consent records: written
    consent to half its listed numbers, a tenth of them revoked."""
    def loaded(client: Any) -> dict[str, pd.DataFrame]:
        frames = load(client)
        campaigns = sorted(set(frames["leads"]["campaign_id"].dropna()))
        return {**frames, "callbacks": client.frames.callbacks(campaigns, status="pending")}

    frames = load_seeded(sandbox, tmp_path_factory.mktemp("cache"), loaded)
    listed = frames["dnc"].loc[frames["dnc"]["listed"], "phone"].iloc[::2].astype(object)
    given = pd.Timestamp("2026-01-05", tz="UTC")
    revoked = [given + pd.Timedelta(days=30) if n % 10 == 0 else pd.NaT
               for n in range(len(listed))]
    frames["consents"] = pd.DataFrame({"phone": listed.to_numpy(), "kind": "written",
                                       "given_at": given, "revoked_at": revoked})
    return frames


@pytest.fixture(scope="module")
def whole(account: dict[str, pd.DataFrame]) -> dict[str, pd.DataFrame]:
    """Each entry point's answer with every column: the audit's findings, ``upcoming``'s
    and ``next_allowed``'s answers."""
    return {"audit": _audited(account), "upcoming": _upcoming(account),
            "next_allowed": _next_allowed(account)}


def _without(account: dict[str, pd.DataFrame],
             dropped: list[tuple[str, str]]) -> dict[str, pd.DataFrame]:
    frames = {name: frame.copy() for name, frame in account.items()}
    for name, column in dropped:
        assert column in frames[name], f"the emulator's {name} has no {column} to drop"
        frames[name] = frames[name].drop(columns=column)
    return frames


def _apart(findings: pd.DataFrame, rules: set[str]) -> set[tuple[str, ...]]:
    """The findings of every rule but ``rules``, each as a tuple of text."""
    kept = findings[~findings["rule"].isin(rules)]
    return set(kept[FINDING].astype(str).itertuples(index=False, name=None))


def _depends(dropped: list[tuple[str, str]]) -> set[str]:
    return set().union(*(OPTIONAL[key] for key in dropped))


def _audited(frames: dict[str, pd.DataFrame]) -> pd.DataFrame:
    return audit(frames["calls"], leads=frames["leads"], dnc=frames["dnc"],
                 consents=frames["consents"]).findings


def _upcoming(frames: dict[str, pd.DataFrame]) -> pd.DataFrame:
    return upcoming({name: frames[name] for name in ("calls", "leads", "dnc", "callbacks")},
                    as_of=frames["calls"]["created_at"].max(), horizon="14D")


def _next_allowed(frames: dict[str, pd.DataFrame]) -> pd.DataFrame:
    with pytest.warns(ComplianceRiskWarning):  # the world's numbers of states no scrub
        return next_allowed(frames["leads"].iloc[::4],  # of theirs answers for
                            frames["calls"]["created_at"].max(), calls=frames["calls"],
                            dnc=frames["dnc"])


@pytest.mark.parametrize("dropped", CASES, ids=IDS)
def test_the_audit_runs_without_optional_columns(account: dict[str, pd.DataFrame],
                                                 whole: dict[str, pd.DataFrame],
                                                 dropped: list[tuple[str, str]]) -> None:
    found = _audited(_without(account, dropped))
    depends = _depends(dropped)
    assert _apart(found, depends) == _apart(whole["audit"], depends)
    assert (found["rule"] == "calling_hours").sum() > 0  # still judged, not skipped
    ring = found[found["rule"] == "short_ring"]  # who ended a call unknown: judged as
    known = whole["audit"][whole["audit"]["rule"] == "short_ring"]  # the dialer's hang-up
    assert _apart(known, set()) <= _apart(ring, set())


@pytest.mark.parametrize("dropped", [case for case, _ in SCHEDULED],
                         ids=[name for _, name in SCHEDULED])
def test_upcoming_runs_without_optional_columns(account: dict[str, pd.DataFrame],
                                                whole: dict[str, pd.DataFrame],
                                                dropped: list[tuple[str, str]]) -> None:
    found = _upcoming(_without(account, dropped))
    assert len(whole["upcoming"]) > 0
    depends = _depends(dropped)
    assert _apart(found, depends) == _apart(whole["upcoming"], depends)


@pytest.mark.parametrize("dropped", [case for case, _ in SCHEDULED],
                         ids=[name for _, name in SCHEDULED])
def test_next_allowed_runs_without_optional_columns(account: dict[str, pd.DataFrame],
                                                    whole: dict[str, pd.DataFrame],
                                                    dropped: list[tuple[str, str]]) -> None:
    before, found = whole["next_allowed"], _next_allowed(_without(account, dropped))
    assert found["lead_id"].tolist() == before["lead_id"].tolist()
    depends = _depends(dropped)
    unchanged = ~(before["rule"].isin(depends) | found["rule"].isin(depends))
    assert unchanged.sum() > len(before) / 2
    columns = ["lead_id", "allowed", "next_allowed_at", "rule"]
    pd.testing.assert_frame_equal(found.loc[unchanged, columns], before.loc[unchanged, columns])


@pytest.mark.parametrize("dropped", [MINIMAL, list(EVERY)], ids=["minimal calls", "all"])
def test_the_cli_audits_csv_files_without_optional_columns(
        account: dict[str, pd.DataFrame], dropped: list[tuple[str, str]],
        tmp_path: Path) -> None:
    given = _without(account, dropped)
    flags = []
    for name in ("calls", "leads", "dnc", "consents"):
        given[name].to_csv(tmp_path / f"{name}.csv", index=False)
        flags += [f"--{name}", str(tmp_path / f"{name}.csv")]
    out = tmp_path / "findings.csv"
    result = runner.invoke(app, ["compliance", "audit", *flags, "--out", str(out)])
    assert result.exit_code == 0, result.output
    written = pd.read_csv(out, dtype=str, keep_default_na=False)
    assert (written["rule"].value_counts().to_dict()
            == _audited(given)["rule"].value_counts().to_dict())
