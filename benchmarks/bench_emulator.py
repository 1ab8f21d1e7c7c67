"""Emulator throughput and start-up: the figures the foundation issue asks for.

Measures, on this machine:

1. how long the emulator takes to start at the ``small`` scale (in-process
   ``dialkit.sandbox.start``, until it answers), median of several runs, in wall and
   CPU seconds; and the CPU of ``dialkit sandbox serve`` in a child process, from
   its launch to its first answer and its stop (imports included);
2. how long the ``large`` world takes to build (``Service`` construction);
3. list throughput at the ``large`` scale with rate limiting off and a manual
   clock (so the dialer simulation does not run during the measurement): the
   server runs as ``dialkit sandbox serve`` in its own process, and a lean asyncio
   HTTP/1.1 load generator (keep-alive connections, no HTTP library, so that
   the client costs little CPU of the two cores) walks ``GET /v1/calls`` with
   ``limit=100``, following cursors, for a fixed time; it reports requests per
   second and latency percentiles.

Run: ``.venv/bin/python benchmarks/bench_emulator.py [--seconds 20] [--connections 8]``.
Results go to ``benchmarks/RESULTS.md`` by hand, with the command.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import resource
import statistics
import time

import httpx

from _emulator import config_file, new_key, serve
from dialkit.sandbox import parse_config, start
from dialkit.sandbox._state._service import Service

CURSOR = re.compile(rb'"next_cursor":"([^"]+)"')


def time_small_start(runs: int) -> tuple[list[float], list[float]]:
    """Seconds and CPU-seconds from ``start()`` to a running, answering emulator at the
    small scale (the CPU of the whole process: the server runs on a thread of it)."""
    walls, cpus = [], []
    for _ in range(runs):
        began, cpu = time.perf_counter(), time.process_time()
        with start():
            walls.append(time.perf_counter() - began)
            cpus.append(time.process_time() - cpu)
    return walls, cpus


def cpu_of_serve(runs: int) -> list[float]:
    """CPU-seconds of ``dialkit sandbox serve`` (small world) from its launch to its first
    answer at ``/_sandbox/clock`` and its stop: what a test or a user waits for."""
    config = config_file(new_key(), scale="small", rate_limit_scale=0)
    cpus = []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        with serve(config) as base_url:
            _wait_for_answer(base_url)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return cpus


def _wait_for_answer(base_url: str) -> None:
    while True:
        try:
            if httpx.get(base_url + "/_sandbox/clock", timeout=30).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.01)


def time_large_build(scale: str = "large") -> float:
    """Seconds to build the large world (or ``scale``'s) into an in-memory store."""
    config = parse_config({"accounts": [{"name": "big", "scale": scale}]})
    began = time.perf_counter()
    service = Service(config)
    elapsed = time.perf_counter() - began
    count = service.store.row("SELECT COUNT(*) FROM calls")
    print(f"{scale} world: {count[0] if count else 0:,} calls", flush=True)
    service.store.close()
    return elapsed


async def _walker(host: str, port: int, key: str, stop_at: float,
                  latencies: list[float]) -> None:
    """One keep-alive connection walking the call list page after page."""
    reader, writer = await asyncio.open_connection(host, port)
    cursor: bytes | None = None
    while time.perf_counter() < stop_at:
        target = b"/v1/calls?limit=100" + (b"&cursor=" + cursor if cursor else b"")
        request = (b"GET " + target + b" HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer "
                   + key.encode() + b"\r\n\r\n")
        began = time.perf_counter()
        writer.write(request)
        head = await reader.readuntil(b"\r\n\r\n")
        length = int(re.search(rb"(?i)content-length: *(\d+)", head).group(1))  # type: ignore[union-attr]
        body = await reader.readexactly(length)
        latencies.append(time.perf_counter() - began)
        if not head.startswith(b"HTTP/1.1 200"):
            raise RuntimeError(head.decode() + body.decode())
        found = CURSOR.search(body)
        cursor = found.group(1) if found else None
    writer.close()


async def _load(host: str, port: int, key: str, seconds: float,
                connections: int) -> list[float]:
    latencies: list[float] = []
    stop_at = time.perf_counter() + seconds
    await asyncio.gather(*(_walker(host, port, key, stop_at, latencies)
                           for _ in range(connections)))
    return latencies


def measure_list_throughput(seconds: float, connections: int, scale: str,
                            warm_up: float = 2.0) -> tuple[float, list[float]]:
    """Requests per second and latencies of cursor walks over a world's calls."""
    key = new_key()
    with serve(config_file(key, scale=scale, rate_limit_scale=0)) as base_url:
        host, port = base_url.removeprefix("http://").rsplit(":", 1)
        asyncio.run(_load(host, int(port), key, warm_up, connections))
        began = time.perf_counter()
        latencies = asyncio.run(_load(host, int(port), key, seconds, connections))
        elapsed = time.perf_counter() - began
    return len(latencies) / elapsed, latencies


def _ms(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=1000)[int(q * 1000) - 1] * 1000


def main() -> None:
    """Run every measurement and print a summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--start-runs", type=int, default=5)
    parser.add_argument("--scale", default="large", help="world for the list measurement")
    parser.add_argument("--only-list", action="store_true", help="skip start-up and build")
    parser.add_argument("--build-scale", default="large", help="world for the build time")
    parser.add_argument("--warm-up", type=float, default=2.0,
                        help="seconds of load before the measured list walk")
    args = parser.parse_args()
    if not args.only_list:
        _startup_figures(args.start_runs, args.build_scale)
    rate, latencies = measure_list_throughput(args.seconds, args.connections, args.scale,
                                              args.warm_up)
    print(f"GET /v1/calls?limit=100 with cursors, {args.scale} world, {args.connections} "
          f"connections, {args.seconds:.0f} s: {rate:,.0f} req/s; latency p50 "
          f"{_ms(latencies, 0.5):.1f} ms, p99 {_ms(latencies, 0.99):.1f} ms", flush=True)


def _startup_figures(runs: int, build_scale: str) -> None:
    starts, cpus = time_small_start(runs)
    print(f"small start: median {statistics.median(starts):.2f} s, "
          f"{statistics.median(cpus):.2f} CPU-s (runs: {', '.join(f'{s:.2f}' for s in starts)}; "
          f"CPU: {', '.join(f'{c:.2f}' for c in cpus)})", flush=True)
    serves = cpu_of_serve(runs)
    print(f"dialkit sandbox serve, launch to first answer and stop: median "
          f"{statistics.median(serves):.2f} CPU-s (runs: "
          f"{', '.join(f'{c:.2f}' for c in serves)})", flush=True)
    print(f"{build_scale} build: {time_large_build(build_scale):.1f} s", flush=True)


if __name__ == "__main__":
    main()
