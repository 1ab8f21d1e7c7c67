"""``dialkit leads clean`` and ``import`` as library calls (issue 63): :func:`run_clean`
and :func:`run_import` decide the account and the outcome file as the commands do."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from dialkit import Client
from dialkit.errors import InputError
from dialkit.leads import clean_file, run_clean, run_import

SAMPLES = Path(__file__).resolve().parents[2] / "data_samples"


def test_a_clean_without_a_campaign_is_clean_file_and_reaches_no_account(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DIALKIT_API_KEY", raising=False)  # no account to reach
    run = run_clean(SAMPLES / "messy_us.csv", out=tmp_path / "run.csv", progress=False)
    plain = clean_file(SAMPLES / "messy_us.csv", out=tmp_path / "plain.csv", progress=False)
    assert run.counts == plain.counts and run.skipped == plain.skipped
    assert (tmp_path / "run.csv").read_bytes() == (tmp_path / "plain.csv").read_bytes()


def test_a_clean_for_a_campaign_checks_with_the_account(client: Client) -> None:
    campaign = next(client.campaigns.list(status="paused")).id
    run = run_clean(SAMPLES / "international.csv", campaign_id=campaign, client=client,
                    progress=False)
    assert list(run.skipped) == []
    assert next(client.campaigns.list(status="paused")).id == campaign  # left open


def test_an_import_writes_its_outcomes_as_the_file_named(client: Client,
                                                        tmp_path: Path) -> None:
    campaign = next(client.campaigns.list(status="paused")).id
    source = SAMPLES / "international.csv"
    first = run_import(source, campaign, client=client, journal=tmp_path,
                       out=tmp_path / "outcome.csv", progress=False)
    written = pd.read_csv(tmp_path / "outcome.csv", dtype=str)
    assert written["outcome"].tolist() == first.frame["outcome"].tolist()
    again = run_import(source, campaign, client=client, journal=tmp_path,
                       out=tmp_path / "outcome.parquet", progress=False)
    assert pd.read_parquet(tmp_path / "outcome.parquet")["outcome"].tolist() == (
        written["outcome"].tolist())
    assert again.frame["outcome"].tolist() == written["outcome"].tolist()


@pytest.mark.parametrize(("out", "message"), [
    ("outcome.xlsx", "out='{tmp}/outcome.xlsx': name a .csv or .parquet file for the outcomes"),
    ("leads.csv", "out='{tmp}/leads.csv' is the lead file being imported"),
])
def test_an_outcome_file_refused_is_refused_before_the_account_is_reached(
        tmp_path: Path, out: str, message: str) -> None:
    source = tmp_path / "leads.csv"
    source.write_bytes((SAMPLES / "messy_us.csv").read_bytes())
    nowhere = Client(api_key="sk_test_x", base_url="http://127.0.0.1:9")  # never reached
    with pytest.raises(InputError) as refused:
        run_import(source, "cmp_1", client=nowhere, out=tmp_path / out)
    assert str(refused.value).startswith(message.format(tmp=tmp_path))
    assert not (tmp_path / "outcome.xlsx").exists()
