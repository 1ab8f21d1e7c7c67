"""Every python block of ``docs/scale.md`` runs as written, against the emulator it starts
and a LocalCluster (#25)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

pytest.importorskip("dask.distributed")

DOC = Path(__file__).parents[2] / "docs" / "scale.md"


@pytest.mark.slow
def test_the_scale_page_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text("utf-8"), re.DOTALL)
    assert blocks
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, Any] = {}
    for block in blocks:
        exec(compile(block, str(DOC), "exec"), namespace)  # noqa: S102 - our own docs
    funnel: pd.DataFrame = namespace["funnel"]
    assert funnel["leads"].sum() > 0 and set(funnel["stage"].astype(str)) >= {"dialled"}
    assert namespace["rates"]["calls"].sum() > 0
    assert namespace["checked"].counts.get("accepted", 0) > 0
    assert (tmp_path / "account-data" / "_dialkit_export.json").is_file()
