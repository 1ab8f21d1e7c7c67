"""``dialkit.Client`` against a plain httpx loop: the figures the client issue asks for.

Measures, on this machine, each beside its baseline in the same run:

1. a rate-limited walk: 300 pages of ``GET /v1/calls?limit=100`` with one key
   against the emulator at the documented limits (``rate_limit_scale = 1``,
   per key 10/s with a burst of 20, the binding one), by ``dialkit.Client``
   with its default token bucket, and by a plain ``httpx.Client`` loop that
   sleeps on a 429's ``Retry-After`` and retries. The bound is the bucket's
   burst plus 10 requests per second, ``(300 - 20) / 10 = 28 s``; the target
   is at most 5% beyond it and no 429. Runs alternate, with a pause between
   them so that the server's buckets refill; 429s are counted on the wire
   (the client retries them itself) by a counting httpx transport;
2. the client's per-request overhead with rate limiting off (a second
   emulator with ``rate_limit_scale = 0``, a client with ``rate_limit=None``):
   ``client.calls.get(id)`` against ``httpx.get(...).json()`` with the same
   headers, and, for information, one page of 100 calls, in interleaved
   blocks. The target is under 1 ms beyond httpx.

Both emulators serve the ``medium`` world (about 73,000 calls) in their own
process, with a manual clock so that the dialer simulation does not run.

Run: ``.venv/bin/python benchmarks/bench_client.py [--pages 300] [--repeats 3] [--blocks 20]``.
Results go to ``benchmarks/RESULTS.md`` by hand, with the command.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from itertools import islice

import httpx

import dialkit
from _emulator import config_file, new_key, serve
from dialkit.contract import RATE_LIMIT_PER_KEY

TIMEOUT = 30.0
"""Seconds httpx waits for an answer, as ``dialkit.Client`` does by default (httpx's own 5 s
timed out on a loaded machine while the emulator was still building its world)."""
PAGE_LIMIT = 100
SCALE = "medium"
OVERHEAD_TARGET_MS = 1.0
SLOWER_TARGET = 1.05


@dataclass(frozen=True)
class Walk:
    """One walk over the pages: its wall time and what went over the wire."""

    seconds: float
    requests: int
    throttled: int


@dataclass(frozen=True)
class Overhead:
    """Median per-request milliseconds of each side, and the median difference."""

    dialkit_ms: float
    httpx_ms: float
    difference_ms: float


class CountingTransport(httpx.HTTPTransport):
    """An httpx transport that counts the requests it sends and the 429s it gets."""

    def __init__(self) -> None:
        super().__init__()
        self.requests = 0
        self.throttled = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = super().handle_request(request)
        self.requests += 1
        self.throttled += response.status_code == 429
        return response


def bound_seconds(pages: int) -> float:
    """The least time the documented per-key bucket allows for ``pages`` requests."""
    return max(0, pages - RATE_LIMIT_PER_KEY.burst) / RATE_LIMIT_PER_KEY.rate


def walk_dialkit(base_url: str, key: str, pages: int) -> Walk:
    """``pages`` pages through ``dialkit.Client`` with its default rate limit."""
    transport = CountingTransport()
    with dialkit.Client(key, base_url=base_url, transport=transport) as client:
        began = time.perf_counter()
        walked = sum(1 for _ in islice(client.calls.list(limit=PAGE_LIMIT).pages(), pages))
        seconds = time.perf_counter() - began
    if walked != pages:
        raise RuntimeError(f"the list ended after {walked} pages, not {pages}")
    return Walk(seconds, transport.requests, transport.throttled)


def walk_httpx(base_url: str, key: str, pages: int) -> Walk:
    """``pages`` pages through a plain httpx loop that sleeps on 429 for ``Retry-After``."""
    requests = throttled = walked = 0
    cursor: str | None = None
    with httpx.Client(base_url=base_url, headers=_auth(key), timeout=TIMEOUT) as http:
        began = time.perf_counter()
        while walked < pages:
            params: dict[str, str | int] = {"limit": PAGE_LIMIT}
            if cursor is not None:
                params["cursor"] = cursor
            response = http.get("/v1/calls", params=params)
            requests += 1
            if response.status_code == 429:
                throttled += 1
                time.sleep(float(response.headers.get("Retry-After", "1")))
                continue
            response.raise_for_status()
            cursor = response.json()["page"]["next_cursor"]
            walked += 1
        seconds = time.perf_counter() - began
    return Walk(seconds, requests, throttled)


def rate_limited_walks(pages: int, repeats: int, pause: float,
                       scale: str = SCALE) -> dict[str, list[Walk]]:
    """Alternate both walks ``repeats`` times against an emulator at the documented limits."""
    walkers: dict[str, Callable[[str, str, int], Walk]] = {
        "dialkit.Client": walk_dialkit, "httpx + Retry-After": walk_httpx,
    }
    walks: dict[str, list[Walk]] = {name: [] for name in walkers}
    key = new_key()
    with serve(config_file(key, scale=scale, rate_limit_scale=1)) as base_url:
        for repeat in range(repeats):
            for name, walker in walkers.items():
                time.sleep(pause)  # the server's (and the client's) buckets refill
                walk = walker(base_url, key, pages)
                walks[name].append(walk)
                print(f"  walk {repeat + 1}/{repeats} {name}: {walk.seconds:.2f} s, "
                      f"{walk.requests} requests, {walk.throttled} x 429", flush=True)
    return walks


def per_request_ms(action: Callable[[], object], count: int) -> float:
    """Mean milliseconds of ``count`` calls of ``action``, back to back."""
    began = time.perf_counter()
    for _ in range(count):
        action()
    return (time.perf_counter() - began) * 1000 / count


def compare(ours: Callable[[], object], theirs: Callable[[], object], blocks: int,
            per_block: int) -> Overhead:
    """Blocks of each side in turn (the first side alternating), after one block of warm-up."""
    per_request_ms(ours, per_block)
    per_request_ms(theirs, per_block)
    ours_ms: list[float] = []
    theirs_ms: list[float] = []
    for block in range(blocks):
        if block % 2:
            theirs_ms.append(per_request_ms(theirs, per_block))
            ours_ms.append(per_request_ms(ours, per_block))
        else:
            ours_ms.append(per_request_ms(ours, per_block))
            theirs_ms.append(per_request_ms(theirs, per_block))
    differences = [a - b for a, b in zip(ours_ms, theirs_ms, strict=True)]
    return Overhead(statistics.median(ours_ms), statistics.median(theirs_ms),
                    statistics.median(differences))


def overheads(blocks: int, per_block: int, scale: str = SCALE) -> dict[str, Overhead]:
    """The client's cost beyond httpx, rate limiting off, for one call and one page."""
    key = new_key()
    with (serve(config_file(key, scale=scale, rate_limit_scale=0)) as base_url,
          httpx.Client(base_url=base_url, headers=_auth(key), timeout=TIMEOUT) as http,
          dialkit.Client(key, base_url=base_url, rate_limit=None) as client):
        call_id = http.get("/v1/calls", params={"limit": 1}).json()["data"][0]["id"]
        results = {
            "GET /v1/calls/{id}": compare(
                lambda: client.calls.get(call_id),
                lambda: http.get(f"/v1/calls/{call_id}").json(), blocks, per_block),
            "GET /v1/calls?limit=100 (one page)": compare(
                lambda: next(client.calls.list(limit=PAGE_LIMIT).pages()),
                lambda: http.get("/v1/calls", params={"limit": PAGE_LIMIT}).json(),
                blocks, per_block),
        }
    return results


def _auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def print_walks(walks: dict[str, list[Walk]], pages: int) -> None:
    """The walk table: median time, its ratio to the bound, median 429s."""
    bound = bound_seconds(pages)
    print(f"\n{pages} pages, rate_limit_scale = 1; bound {bound:.1f} s, target <= "
          f"{SLOWER_TARGET * bound:.1f} s ({SLOWER_TARGET:.2f} x) and no 429")
    print(f"| walk | median time | ratio to {bound:.0f} s | median 429s | runs (s / 429s) |")
    print("|---|---|---|---|---|")
    for name, runs in walks.items():
        median = statistics.median(w.seconds for w in runs)
        every = ", ".join(f"{w.seconds:.2f} / {w.throttled}" for w in runs)
        print(f"| {name} | {median:.2f} s | {median / (bound or math.nan):.3f} | "
              f"{statistics.median(w.throttled for w in runs):g} | {every} |")


def print_overheads(results: dict[str, Overhead], blocks: int, per_block: int) -> None:
    """The overhead table: median per-request milliseconds and the median difference."""
    print(f"\nrate_limit_scale = 0, {blocks} blocks x {per_block} requests each way; "
          f"target: difference < {OVERHEAD_TARGET_MS:g} ms")
    print("| request | dialkit.Client | httpx + .json() | median difference |")
    print("|---|---|---|---|")
    for name, result in results.items():
        print(f"| {name} | {result.dialkit_ms:.3f} ms | {result.httpx_ms:.3f} ms | "
              f"{result.difference_ms:+.3f} ms |")


def main() -> None:
    """Run both measurements and print their tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=300, help="pages per rate-limited walk")
    parser.add_argument("--repeats", type=int, default=3, help="walks of each kind")
    parser.add_argument("--pause", type=float, default=4.0, help="seconds between walks")
    parser.add_argument("--blocks", type=int, default=20, help="overhead blocks each way")
    parser.add_argument("--per-block", type=int, default=100, help="requests per block")
    parser.add_argument("--scale", default=SCALE, help="the emulators' world")
    args = parser.parse_args()
    print("rate-limited walks:", flush=True)
    walks = rate_limited_walks(args.pages, args.repeats, args.pause, args.scale)
    print("overhead (rate limiting off) ...", flush=True)
    results = overheads(args.blocks, args.per_block, args.scale)
    print_walks(walks, args.pages)
    print_overheads(results, args.blocks, args.per_block)


if __name__ == "__main__":
    main()
