"""The doctests of ``src/dialkit`` (collected by ``--doctest-modules``) each run in an empty
folder of their own with a cache of their own, so an example can write ``events.sqlite``
or cache frames as a reader's session would, without touching the checkout, the user's
cache or another worker's files. Not part of the package (setuptools ships ``dialkit/``).
"""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _doctest_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DIALKIT_CACHE_DIR", str(tmp_path / "cache"))
