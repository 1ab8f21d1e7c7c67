"""Every benchmark still runs: each ``benchmarks/bench_*.py`` at tiny sizes, in a subprocess.

The full runs stay manual (``python3 tasks.py bench NAME``, figures in
``benchmarks/RESULTS.md``); this smoke mode only checks that each script runs to
its end, so a benchmark that no longer runs fails the build (issue 21: the
frames benchmark had crashed unnoticed). The scripts run a few at a time: the
ones with an emulator or a webhook server spend much of their time waiting. Each
runs in a child forked from one process that imported the modules they share once
(:mod:`forked_runs`): in fresh interpreters a third of the smoke's CPU was imports.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
SMOKE: dict[str, tuple[str, ...]] = {
    "bench_analytics.py": ("--calls", "5000", "--leads", "1000", "--runs", "1"),
    "bench_audit.py": ("--calls", "5000", "--leads", "1000", "--runs", "1", "--every", "5"),
    "bench_campaigns.py": ("--steps", "1", "--step", "200", "--repeats", "1", "--pause", "0"),
    "bench_clean.py": ("--rows", "2000", "--runs", "1"),
    "bench_client.py": ("--scale", "small", "--pages", "3", "--repeats", "1", "--pause", "0",
                        "--blocks", "2", "--per-block", "3"),
    "bench_completion.py": ("--runs", "1"),
    "bench_country_names.py": ("--runs", "1", "--repeats", "10"),
    "bench_dask_clean.py": ("--rows", "4000", "--parts", "2", "--runs", "1", "--folder",
                            "/tmp/dialkit-bench-dask-clean-smoke", "--workers", "1",
                            "--in-process"),
    "bench_dask_audit.py": ("--calls", "5000", "--leads", "1000", "--runs", "1",
                            "--chunk", "5000", "--rows-per-file", "5000", "--campaigns", "1",
                            "--workers", "1", "--in-process"),
    "bench_emulator.py": ("--scale", "small", "--build-scale", "small", "--start-runs", "1",
                          "--seconds", "0.3", "--warm-up", "0.1", "--connections", "2"),
    "bench_explore.py": ("--scale", "small", "--runs", "1", "--controls", "direction"),
    "bench_guard.py": ("--calls", "3", "--leads", "200", "--runs", "1"),
    "bench_frames.py": ("--scale", "small", "--target-calls", "300", "--repeats", "1",
                        "--pause", "0", "--advances", "600", "--rows", "2000",
                        "--cache-runs", "1"),
    "bench_import.py": ("--leads", "200", "--repeats", "1", "--pause", "0"),
    "bench_import_requests.py": ("--rows", "300", "--runs", "1"),
    "bench_import_stream.py": ("--rows", "300", "--runs", "1", "--folder",
                               "/tmp/dialkit-bench-import-smoke"),
    "bench_mcp.py": ("--calls", "3", "--warm-up", "1"),
    "bench_monitor.py": ("--calls", "300", "--leads", "60", "--events", "3", "--runs", "1",
                         "--batch", "3", "--baseline-sample", "1", "--rss-every", "3"),
    "bench_month_end.py": ("--scale", "small", "--imported", "200", "--rate-limit-scale", "20"),
    "bench_normalize.py": ("--rows", "2000", "--runs", "1", "--repeats", "1", "--tricks", "1"),
    "bench_webhooks.py": ("--seconds", "0.3", "--runs", "1", "--connections", "2",
                          "--ceiling", "40000", "--warm-up", "0.2"),
    "bench_stream.py": ("--rows", "2000", "--runs", "1", "--folder",
                        "/tmp/dialkit-bench-stream-smoke"),
    "bench_readers.py": ("--numbers", "3000", "--rounds", "1"),
    "bench_state_of.py": ("--numbers", "3000", "--baseline", "200", "--runs", "1"),
    "bench_when.py": ("--numbers", "3000", "--baseline", "200", "--runs", "1"),
    "bench_repair.py": ("--findings", "300", "--baseline", "5", "--runs", "1"),
    "bench_world.py": ("--scales", "small", "--runs", "1"),
    "bench_workbook_peak.py": ("--limit-mb", "20", "--long-rows", "20", "--short-rows", "200"),
}
"""Each script's smallest options: a second or a few each."""
AT_ONCE = 3
"""Scripts run at a time: the emulator-backed ones mostly wait on sockets and rate limits."""
LIMIT_SECONDS = 120


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """Every script's exit status, output, wall and CPU seconds, run a few at a time."""
    folder = tmp_path_factory.mktemp("smoke")
    spec = folder / "spec.json"
    spec.write_text(json.dumps({"folder": str(BENCHMARKS), "scripts": SMOKE, "at_once": AT_ONCE,
                                "limit": LIMIT_SECONDS, "outputs": str(folder)}))
    done = subprocess.run([sys.executable, str(Path(__file__).with_name("forked_runs.py")),
                           str(spec)], capture_output=True, text=True, check=False,
                          stdin=subprocess.DEVNULL, timeout=LIMIT_SECONDS * len(SMOKE))
    assert done.returncode == 0, done.stderr[-6000:]
    ran: dict[str, dict[str, Any]] = json.loads(done.stdout)
    return ran


def test_every_benchmark_has_smoke_options() -> None:
    scripts = sorted(path.name for path in BENCHMARKS.glob("bench_*.py"))
    assert scripts == sorted(SMOKE), "give each benchmarks/bench_*.py its tiny options in SMOKE"


@pytest.mark.timeout(600)
@pytest.mark.parametrize("name", sorted(SMOKE))
def test_benchmark_runs(name: str, outcomes: dict[str, dict[str, Any]]) -> None:
    outcome = outcomes[name]
    assert outcome["code"] == 0, (
        f"benchmarks/{name} {' '.join(SMOKE[name])} exited {outcome['code']} after "
        f"{outcome['seconds']:.1f} s ({outcome['cpu']:.1f} CPU s):\n{outcome['output']}")


@pytest.mark.timeout(LIMIT_SECONDS)
@pytest.mark.parametrize("mix", ["no_country", "iso_country", "two_phones", "country_names"])
def test_the_clean_benchmark_runs_its_other_mixes(mix: str) -> None:
    """``bench_clean.py``'s mixes of issues 70 and 80 (a file without a Country column, one
    whose Country cells are all ISO codes, one of two phone columns, one whose Country
    cells are names), with its parts timed: the smoke above runs the mix every lead
    benchmark runs, without them."""
    done = subprocess.run([sys.executable, "bench_clean.py", "--rows", "300", "--runs", "1",
                           "--import-runs", "0", "--mix", mix, "--phases"], cwd=BENCHMARKS,
                          capture_output=True, text=True, check=False, stdin=subprocess.DEVNULL,
                          timeout=LIMIT_SECONDS)
    assert done.returncode == 0, done.stderr[-6000:]
    assert "parts of one clean" in done.stdout
