"""The README's client examples run as written, against the emulator they start."""

from __future__ import annotations

from typing import Any

import pandas as pd

from dialkit.client import ImportResult
from dialkit.contract import ImportResponse
from doc_blocks import ROOT, Block, python_blocks, run


def _client_examples() -> list[Block]:
    """The python blocks under the README's "The client" heading, in order."""
    blocks = python_blocks(ROOT / "README.md", "The client")
    assert blocks, "README's client section has no python example"
    return blocks


def test_the_readme_example_is_five_lines() -> None:
    lines = [line for line in _client_examples()[0].source.splitlines() if line.strip()]
    assert len(lines) == 5


def test_the_readme_example_lists_calls_and_imports_leads() -> None:
    first, records, chains = _client_examples()
    namespace: dict[str, Any] = {}
    run(first, namespace)
    client = namespace["client"]
    try:
        result = namespace["result"]
        assert isinstance(result, ImportResponse)
        assert result.summary.received == 1
        assert result.data[0].status == "accepted"
        assert list(result) == result.data  # as the README says: iterate it, or a frame
        assert result.to_frame()["status"].tolist() == ["accepted"]
        assert namespace["sales"], "the seeded world has sales among its outbound calls"
        assert all(c.disposition == "sale" for c in map(client.calls.get, namespace["sales"][:3]))
        run(records, namespace)
        assert isinstance(namespace["result"], ImportResult)
        frame: pd.DataFrame = namespace["frame"]
        assert frame["status"].tolist() == ["accepted", "invalid"]
        assert frame["reason"].tolist()[1] == "missing_phone" and pd.isna(frame["reason"][0])
        assert client.leads.get(frame["lead_id"][0]).email == "ada@example.com"
        run(chains, namespace)  # clients never named (issue 78)
        assert namespace["first_sale"].disposition == "sale"
        assert namespace["listed"] in (True, False)
    finally:
        client.close()
