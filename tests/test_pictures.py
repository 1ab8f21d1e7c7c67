"""The README's pictures are drawn by ``docs/pictures.py``, which must keep working."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "docs" / "pictures.py"


def test_the_script_draws_both_pictures(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spec = importlib.util.spec_from_file_location("pictures", SCRIPT)
    assert spec is not None and spec.loader is not None
    pictures = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(pictures)
    monkeypatch.setattr(pictures, "IMAGES", tmp_path)
    pictures.main()
    for name in ("funnel.png", "audit_summary.png"):
        assert (tmp_path / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert (SCRIPT.parent / "images" / name).is_file()  # the README's, committed
    for name in pictures.GALLERY:  # and the gallery's, one a plot function
        assert (tmp_path / "gallery" / f"{name}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
