"""The README's analytics example runs as written."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import matplotlib.pyplot as plt

README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_readme_example_runs() -> None:
    section = README.read_text("utf-8").split("## Campaign analytics", 1)[1].split("\n## ", 1)[0]
    (block,) = re.findall(r"```python\n(.*?)```", section, re.DOTALL)
    namespace: dict[str, Any] = {}
    exec(compile(block, str(README), "exec"), namespace)  # noqa: S102 - our own docs
    try:
        table, rates = namespace["table"], namespace["rates"]
        leads = table[table["stage"] == "leads"]["leads"].sum()
        assert leads == len(namespace["frames"]["leads"])
        assert rates["calls"].sum() > 0 and (rates["answered"] <= rates["calls"]).all()
    finally:
        namespace["client"].close()
        plt.close("all")
