"""Fixtures of the compliance tests."""

from __future__ import annotations

from collections.abc import Callable
from importlib import resources
from pathlib import Path

import pytest

from dialkit._places import _jurisdictions


@pytest.fixture
def unconfirm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[[str], None]:
    """Make the law table a copy of the shipped file with one row's ``confirmed`` false,
    for the rest of the test: the shipped table has no unconfirmed row to test with."""

    def use(jid: str) -> None:
        marker = "[[jurisdiction]]\n"
        source = resources.files("dialkit._places").joinpath(_jurisdictions.DATA_FILE)
        head, *rows = source.read_text(encoding="utf-8").split(marker)
        (index,) = [n for n, row in enumerate(rows) if row.startswith(f'id = "{jid}"\n')]
        assert rows[index].count("confirmed = true\n") == 1, jid
        rows[index] = rows[index].replace("confirmed = true\n", "confirmed = false\n")
        copy = tmp_path / "jurisdictions.toml"
        copy.write_text(marker.join([head, *rows]), encoding="utf-8")
        table = _jurisdictions.load(copy)
        monkeypatch.setattr(_jurisdictions, "_table", lambda: table)

    return use
