"""The pages offer the demo's worlds that ``dialkit demo --scale`` takes, and no other
(docs/demo.md offered ``large``, which the CLI refuses)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dialkit.cli import DemoScale

ROOT = Path(__file__).parent.parent


@pytest.mark.parametrize("page", ["README.md", "docs/demo.md", "docs/cli.md"])
def test_every_scale_offered_is_one_the_cli_takes(page: str) -> None:
    offered = re.findall(r"--scale ([a-z|]+)", (ROOT / page).read_text("utf-8"))
    scales = {value for each in offered for value in each.split("|")}
    assert scales <= {scale.value for scale in DemoScale}, page
