"""The README's receiving example runs as written: a FastAPI app with the receiver
mounted, a signed delivery stored once, the frame read back."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest
from webhook_servers import delivery, envelope, serve

from doc_blocks import ROOT, python_blocks, run


def test_the_readme_example_receives_and_reads_back(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    (block,) = python_blocks(ROOT / "README.md", "Receiving events")
    serving, reading = block.source.split("frame = ")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DIALKIT_WEBHOOK_SECRETS", "whsec_new,whsec_old")
    body = envelope()
    raw, headers = delivery(body, "whsec_old", int(time.time()))
    namespace: dict[str, Any] = {}
    run(replace(block, source=serving), namespace)
    with serve(namespace["app"]) as url:
        for _ in range(2):  # at least once: the second delivery is stored no more
            assert httpx.post(url, content=raw, headers=headers).status_code == 200
    run(replace(block, source="frame = " + reading, line=block.line + serving.count("\n")),
        namespace)
    frame = namespace["frame"]
    assert frame["id"].tolist() == [body["id"]] and frame["deliveries_seen"].tolist() == [1]
    assert frame["repeats"].tolist() == [1]
