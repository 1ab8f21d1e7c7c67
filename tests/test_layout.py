"""``benchmarks/layout.py``, the script issue 63's table of where code lives is measured
by: its folder sizes hold the goal (no folder of more than 12 modules), and its tracer
names the modules a call runs and nothing outside it."""

from __future__ import annotations

import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import layout  # noqa: E402
from dialkit._utils import _moments  # noqa: E402


def test_no_folder_holds_more_than_twelve_modules() -> None:
    sizes = layout.folder_sizes()
    assert sizes["dialkit/compliance/_checks/"] >= 2  # counted where the modules are
    over = {folder: n for folder, n in sizes.items() if n > layout.GOAL_MODULES}
    assert not over, f"folders over {layout.GOAL_MODULES} modules: {over}"


def test_the_tracer_names_the_modules_a_call_runs_and_only_while_it_runs() -> None:
    _moments.period_text()  # before the trace: not counted
    with layout.entered(_moments.utc_moment) as seen:
        _moments.iso_date("2026-11-01")  # not inside the traced call
        _moments.utc_moment("2026-11-01", "as_of")
    assert seen == ["dialkit/_utils/_moments.py"]

