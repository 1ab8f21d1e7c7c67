"""The doctests of ``src/dialkit`` (collected by ``--doctest-modules``) each run in an empty
folder of their own with a cache of their own, so an example can write ``events.sqlite``
or cache frames as a reader's session would, without touching the checkout, the user's
cache or another worker's files. (Here at the root, not in ``src/``: a second top-level
``conftest`` loaded after ``tests/conftest.py`` would shadow the one the tests import.)
"""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _doctest_folder(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
                    monkeypatch: pytest.MonkeyPatch) -> None:
    if isinstance(request.node, pytest.DoctestItem):
        folder = tmp_path_factory.mktemp("doctest")
        monkeypatch.chdir(folder)
        monkeypatch.setenv("DIALKIT_CACHE_DIR", str(folder / "cache"))
