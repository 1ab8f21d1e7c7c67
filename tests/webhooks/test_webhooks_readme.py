"""The README's receiving example runs as written: a FastAPI app with the receiver
mounted, a signed delivery stored once, the frame read back."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from webhook_servers import delivery, envelope, serve

README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_readme_example_receives_and_reads_back(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    section = README.read_text("utf-8").split("## Receiving events", 1)[1].split("\n## ", 1)[0]
    (block,) = re.findall(r"```python\n(.*?)```", section, re.DOTALL)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DIALKIT_WEBHOOK_SECRETS", "whsec_new,whsec_old")
    body = envelope()
    raw, headers = delivery(body, "whsec_old", int(time.time()))
    namespace: dict[str, Any] = {}
    exec(compile(block.split("frame = ")[0], str(README), "exec"), namespace)  # noqa: S102
    with serve(namespace["app"]) as url:
        for _ in range(2):  # at least once: the second delivery is stored no more
            assert httpx.post(url, content=raw, headers=headers).status_code == 200
    exec(compile("frame = " + block.split("frame = ")[1], str(README), "exec"), namespace)  # noqa: S102
    frame = namespace["frame"]
    assert frame["id"].tolist() == [body["id"]] and frame["deliveries_seen"].tolist() == [1]
    assert frame["repeats"].tolist() == [1]
