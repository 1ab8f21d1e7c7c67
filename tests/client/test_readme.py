"""The README's client examples run as written, against the emulator they start."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pandas as pd

from dialkit.client import ImportResult
from dialkit.contract import ImportResponse

README = Path(__file__).parents[2] / "README.md"


def _client_examples() -> list[str]:
    """The python blocks under the README's "The client" heading, in order."""
    section = README.read_text("utf-8").split("## The client", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.DOTALL)
    assert blocks, "README's client section has no python example"
    return blocks


def test_the_readme_example_is_five_lines() -> None:
    lines = [line for line in _client_examples()[0].splitlines() if line.strip()]
    assert len(lines) == 5


def test_the_readme_example_lists_calls_and_imports_leads() -> None:
    first, records = _client_examples()
    namespace: dict[str, Any] = {}
    exec(compile(first, str(README), "exec"), namespace)  # noqa: S102 - our own docs
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
        exec(compile(records, str(README), "exec"), namespace)  # noqa: S102 - our own docs
        assert isinstance(namespace["result"], ImportResult)
        frame: pd.DataFrame = namespace["frame"]
        assert frame["status"].tolist() == ["accepted", "invalid"]
        assert frame["reason"].tolist()[1] == "missing_phone" and pd.isna(frame["reason"][0])
        assert client.leads.get(frame["lead_id"][0]).email == "ada@example.com"
    finally:
        client.close()
