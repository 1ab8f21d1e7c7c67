"""The README's client example runs as written, against the emulator it starts."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from dialkit.contract import ImportResponse

README = Path(__file__).parents[2] / "README.md"


def _client_example() -> str:
    """The first python block under the README's "The client" heading."""
    section = README.read_text("utf-8").split("## The client", 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert match, "README's client section has no python example"
    return match.group(1)


def test_the_readme_example_is_five_lines() -> None:
    lines = [line for line in _client_example().splitlines() if line.strip()]
    assert len(lines) == 5


def test_the_readme_example_lists_calls_and_imports_leads() -> None:
    namespace: dict[str, Any] = {}
    exec(compile(_client_example(), str(README), "exec"), namespace)  # noqa: S102 - our own docs
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
    finally:
        client.close()
