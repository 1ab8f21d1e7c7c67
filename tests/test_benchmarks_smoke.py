"""Every benchmark still runs: each ``benchmarks/bench_*.py`` at tiny sizes, in a subprocess.

The full runs stay manual (``python3 tasks.py bench NAME``, figures in
``benchmarks/RESULTS.md``); this smoke mode only checks that each script runs to
its end, so a benchmark that no longer runs fails the build (issue 21: the
frames benchmark had crashed unnoticed). The scripts run a few at a time: the
ones with an emulator or a webhook server spend much of their time waiting.
"""

from __future__ import annotations

import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
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
    "bench_dask_clean.py": ("--rows", "4000", "--parts", "2", "--runs", "1", "--folder",
                            "/tmp/dialkit-bench-dask-clean-smoke"),
    "bench_dask_audit.py": ("--calls", "20000", "--leads", "4000", "--runs", "1",
                            "--chunk", "10000", "--rows-per-file", "5000", "--campaigns", "4"),
    "bench_emulator.py": ("--scale", "small", "--build-scale", "small", "--start-runs", "1",
                          "--seconds", "0.3", "--warm-up", "0.1", "--connections", "2"),
    "bench_explore.py": ("--scale", "small", "--runs", "1"),
    "bench_guard.py": ("--calls", "3", "--leads", "200", "--runs", "1"),
    "bench_frames.py": ("--scale", "small", "--target-calls", "300", "--repeats", "1",
                        "--pause", "0", "--advances", "600", "--rows", "2000",
                        "--cache-runs", "1"),
    "bench_import.py": ("--leads", "200", "--repeats", "1", "--pause", "0"),
    "bench_import_requests.py": ("--rows", "300", "--runs", "1"),
    "bench_import_stream.py": ("--rows", "300", "--runs", "1", "--folder",
                               "/tmp/dialkit-bench-import-smoke"),
    "bench_mcp.py": ("--calls", "3", "--warm-up", "1"),
    "bench_normalize.py": ("--rows", "2000", "--runs", "1"),
    "bench_webhooks.py": ("--seconds", "0.3", "--runs", "1", "--connections", "2",
                          "--ceiling", "4000", "--warm-up", "0.2"),
    "bench_stream.py": ("--rows", "2000,4000", "--runs", "1", "--folder",
                        "/tmp/dialkit-bench-stream-smoke"),
    "bench_state_of.py": ("--numbers", "3000", "--baseline", "200", "--runs", "1"),
    "bench_when.py": ("--numbers", "3000", "--baseline", "200", "--runs", "1"),
    "bench_repair.py": ("--findings", "300", "--baseline", "5", "--runs", "1"),
    "bench_world.py": ("--scales", "small", "--runs", "1"),
}
"""Each script's smallest options: a second or a few each."""
AT_ONCE = 3
"""Scripts run at a time: the emulator-backed ones mostly wait on sockets and rate limits."""
LIMIT_SECONDS = 120


def _run(name: str) -> dict[str, Any]:
    began = time.perf_counter()
    try:
        done = subprocess.run([sys.executable, str(BENCHMARKS / name), *SMOKE[name]],
                              cwd=BENCHMARKS, capture_output=True, text=True,
                              timeout=LIMIT_SECONDS)
    except subprocess.TimeoutExpired as error:
        return {"code": None, "output": f"timed out after {error.timeout} s\n{error.stdout!r}",
                "seconds": time.perf_counter() - began}
    return {"code": done.returncode, "output": done.stdout[-3000:] + done.stderr[-6000:],
            "seconds": time.perf_counter() - began}


@pytest.fixture(scope="module")
def outcomes() -> dict[str, dict[str, Any]]:
    """Every script's exit status, output and seconds, run a few at a time."""
    with ThreadPoolExecutor(AT_ONCE) as pool:
        return dict(zip(SMOKE, pool.map(_run, SMOKE), strict=True))


def test_every_benchmark_has_smoke_options() -> None:
    scripts = sorted(path.name for path in BENCHMARKS.glob("bench_*.py"))
    assert scripts == sorted(SMOKE), "give each benchmarks/bench_*.py its tiny options in SMOKE"


@pytest.mark.timeout(600)
@pytest.mark.parametrize("name", sorted(SMOKE))
def test_benchmark_runs(name: str, outcomes: dict[str, dict[str, Any]]) -> None:
    outcome = outcomes[name]
    assert outcome["code"] == 0, (
        f"benchmarks/{name} {' '.join(SMOKE[name])} exited {outcome['code']} after "
        f"{outcome['seconds']:.1f} s:\n{outcome['output']}")
