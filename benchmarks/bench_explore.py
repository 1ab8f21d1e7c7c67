"""Median seconds a change of each explorer control keeps the kernel busy (issue 39).

The explorer on the emulator's world (``--scale``, the demo's pinned one) against a fair
baseline, the explorer before issue 39: every change recomputed the four views' tables
for the chosen frames and redrew the four plots. Now a campaign choice filters tables
computed once per date range and redraws; the direction recomputes and redraws the
disposition mix alone; a date recomputes the four tables (for every campaign) and
redraws. Both draw the same SVG figures, so the difference is what each recomputes.

Usage::

    python benchmarks/bench_explore.py --scale medium --runs 5 [--controls campaign,date]

``--controls`` times only the named controls: the test suite's smoke run times the
direction alone, which still draws each of the four plots (the explorers' first drawing
and the baseline's change), in 13 SVG figures instead of the three controls' 29.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import dialkit
from dialkit import analytics
from dialkit._demo._run import demo_config
from dialkit.analytics._plots._explore import _PLOTS, _SIZES, Explorer, _svg

CONTROLS = ("campaign", "direction", "date")


def everything(shown: Explorer) -> None:
    """The baseline's change: the four tables of the chosen frames, and four plots."""
    frames = shown.selected()
    direction = shown.direction.value
    tables = {
        "funnel": analytics.funnel(**{name: frame for name, frame in frames.items()
                                      if name != "campaigns"}),
        "answer_rates": analytics.answer_rates(frames["calls"]),
        "disposition_mix": analytics.disposition_mix(
            frames["calls"], direction=None if direction == "both" else direction),
        "attempts": analytics.attempts_to_contact(frames["leads"], frames["calls"])}
    for name, table in tables.items():
        _svg(_PLOTS[name], table, _SIZES[name])


def changes(shown: Explorer, run: int,
            controls: tuple[str, ...] = CONTROLS) -> dict[str, Callable[[], None]]:
    """One change of each of ``controls`` (a different value each run)."""
    ids = shown.campaigns.value
    every = {
        "campaign": lambda: setattr(shown.campaigns, "value", ids[run % 3:run % 3 + 3]),
        "direction": lambda: setattr(shown.direction, "value",
                                     ("both", "outbound", "inbound")[run % 3]),
        "date": lambda: setattr(shown.start, "value",
                                shown.end.value if run % 2 == 0 else None)}
    return {control: every[control] for control in controls}


def timed(change: Callable[[], None], then: Callable[[], None] | None) -> float:
    """Seconds ``change`` (and, for the baseline, ``then``) takes."""
    began = time.perf_counter()
    change()
    if then is not None:
        then()
    return time.perf_counter() - began


def measure(frames: dict[str, Any], runs: int,
            controls: tuple[str, ...] = CONTROLS) -> dict[str, dict[str, list[float]]]:
    """Seconds per change of each of ``controls``, now and for the baseline."""
    shown, baseline = Explorer(frames), Explorer(frames)
    for control in (baseline.campaigns, baseline.start, baseline.direction):
        control.unobserve_all("value")  # its own updates off: the baseline's work alone
    seconds: dict[str, dict[str, list[float]]] = {
        way: {control: [] for control in controls} for way in ("now", "baseline")}
    for run in range(runs):
        for control, change in changes(shown, run, controls).items():
            seconds["now"][control].append(timed(change, None))
        for control, change in changes(baseline, run, controls).items():
            seconds["baseline"][control].append(timed(change, lambda: everything(baseline)))
    return seconds


def _controls(text: str) -> tuple[str, ...]:
    """``--controls``: names of :data:`CONTROLS`, comma-separated."""
    named = tuple(text.split(","))
    if not set(named) <= set(CONTROLS):
        raise argparse.ArgumentTypeError(f"give some of {', '.join(CONTROLS)}, not {text!r}")
    return named


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scale", default="medium", choices=["small", "medium", "large"])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--controls", type=_controls, default=CONTROLS,
                        help=f"the controls timed, comma-separated (default: {','.join(CONTROLS)})")
    args = parser.parse_args()
    with dialkit.Client.sandbox(demo_config(args.scale)) as client:
        frames = {**analytics.load(client), "campaigns": client.frames.campaigns()}
    print(f"{args.scale} world: {len(frames['calls']):,} calls, {len(frames['leads']):,} "
          f"leads, {frames['campaigns'].shape[0]} campaigns listed; {args.runs} runs")
    seconds = measure(frames, args.runs, args.controls)
    print(f"{'control':<11}{'now s':>9}{'baseline s':>12}{'ratio':>8}")
    for control in args.controls:
        now, before = (statistics.median(seconds[way][control]) for way in ("now", "baseline"))
        print(f"{control:<11}{now:>9.3f}{before:>12.3f}{before / now:>8.1f}x", flush=True)


if __name__ == "__main__":
    main()
