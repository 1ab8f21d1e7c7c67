"""The README's analytics example runs as written."""

from __future__ import annotations

from typing import Any

import matplotlib.pyplot as plt

from doc_blocks import ROOT, python_blocks, run


def test_the_readme_example_runs() -> None:
    (block,) = python_blocks(ROOT / "README.md", "Campaign analytics")
    namespace: dict[str, Any] = {}
    run(block, namespace)
    try:
        table, rates = namespace["table"], namespace["rates"]
        leads = table[table["stage"] == "leads"]["leads"].sum()
        assert leads == len(namespace["frames"]["leads"])
        assert rates["calls"].sum() > 0 and (rates["answered"] <= rates["calls"]).all()
    finally:
        namespace["client"].close()
        plt.close("all")
