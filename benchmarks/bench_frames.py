"""``client.frames`` and its Parquet cache: the figures the frames issue asks for.

Measures, on this machine, each beside its baseline in the same run:

1. a rate-limited load of about 20,000 calls: ``client.frames.calls(campaign_id=[...])``
   with a fresh cache folder, against the emulator at the documented limits
   (``rate_limit_scale = 1``, per key 10/s with a burst of 20), beside a
   hand-written loop (httpx following cursors, sleeping on 429 for
   ``Retry-After``, then ``pd.json_normalize``) over the same campaigns. The
   campaigns are those whose calls add up closest to 20,000 (found on a second
   emulator with rate limiting off, the same seeded world); the bound is
   ``(pages - 20) / 10`` for the pages actually fetched, and the target at most
   5% beyond it with no 429 (counted on the wire). Runs alternate, 4 s apart;
2. a cached frame of ``--rows`` synthetic calls (the calls schema, realistic
   ids, numbers, statuses, timestamps and nulls), written into a cache entry
   by ``dialkit.frames.Cache`` itself: ``client.frames.calls(refresh="offline")``
   against a bare ``pd.read_parquet`` of the same file, each in a fresh
   subprocess, interleaved: wall time, user and system CPU time, and peak RSS
   beyond the imports (``VmHWM``; see :func:`peak_rss_kib`). The target is
   under 1 s, at most 2x the bare read, under 1 GiB. When it misses, a cProfile
   of one frames load is printed, and a warm in-process comparison of the ways
   to read the file (with and without page checksums);
3. incremental refreshes: on the rate-limit-off emulator (manual clock), after
   a full load, the clock is moved by each of ``--advances`` seconds in turn
   (the dialer simulation places calls meanwhile) and
   ``client.frames.calls(refresh="incremental")`` counts its requests against
   ``ceil(N / 100) + 2`` for the N new call ids, beside the pages a walk to
   the overlap window needs (``ceil((N + O + 1) / 100)``, O the cached calls
   in the window); a full reload at the end checks that the refreshed frame
   holds the same calls.

4. loads page by page (``--only pages``): every call of the world
   (``client.frames.calls()``, about 730 pages of the ``medium`` world) into a new
   cache folder, rate limiting off, with the dialkit of each ``--sources`` folder in
   turn (``--sources /path/to/main/src src`` for before and after), each in a fresh
   process, interleaved: wall and CPU time, the client's cost a page.

Both emulators serve the ``medium`` world (about 73,000 calls) in their own process.

Run: ``.venv/bin/python benchmarks/bench_frames.py [--repeats 3] [--rows 1000000]``
(``--only cache`` or ``--only network`` for one part). Results go to
``benchmarks/RESULTS.md`` by hand, with the command.
"""

from __future__ import annotations

import argparse
import cProfile
import importlib
import io
import json
import math
import os
import pstats
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from itertools import combinations
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import pandas as pd
import pyarrow.parquet as pq

import dialkit
from _emulator import ADMIN_HEADERS, config_file, new_key, serve
from bench_client import PAGE_LIMIT, SCALE, SLOWER_TARGET, CountingTransport, _auth, bound_seconds
from dialkit.frames import SCHEMAS, SPECS, Cache

TARGET_CALLS = 20_000
CACHE_SECONDS_TARGET = 1.0
CACHE_RATIO_TARGET = 2.0
CACHE_MEMORY_TARGET_MIB = 1024.0
ADVANCES = (600, 3600, 6 * 3600, 24 * 3600, 72 * 3600)
"""Clock moves for the incremental refreshes: 10 min, 1 h, 6 h, 24 h, 72 h."""
CACHE_BASE_URL = "http://127.0.0.1:9"
"""The cached frame's service: never contacted, ``refresh="offline"`` makes no request."""


# 1. A rate-limited load of about 20,000 calls


@dataclass(frozen=True)
class Load:
    """One load of the chosen campaigns: wall time, rows, and what went over the wire."""

    seconds: float
    rows: int
    requests: int
    throttled: int

    @property
    def pages(self) -> int:
        """Pages fetched: requests that were not answered 429."""
        return self.requests - self.throttled


def choose_campaigns(counts: pd.Series, target: int = TARGET_CALLS) -> tuple[str, ...]:
    """One or two campaigns whose calls add up closest to ``target`` (fewer on a tie)."""
    choices = [c for size in (1, 2) for c in combinations(sorted(counts.index), size)]
    return min(choices, key=lambda c: (abs(int(counts[list(c)].sum()) - target), len(c)))


def load_dialkit(base_url: str, key: str, campaigns: Sequence[str]) -> Load:
    """``client.frames.calls(campaign_id=[...])`` with the default rate limit, fresh cache."""
    transport = CountingTransport()
    with (tempfile.TemporaryDirectory() as cache_dir,
          dialkit.Client(key, base_url=base_url, transport=transport,
                         cache_dir=cache_dir) as client):
        began = time.perf_counter()
        frame = client.frames.calls(campaign_id=list(campaigns), progress=False)
        seconds = time.perf_counter() - began
    return Load(seconds, len(frame), transport.requests, transport.throttled)


def load_httpx(base_url: str, key: str, campaigns: Sequence[str]) -> Load:
    """A hand-written loop: httpx over every page, sleeping on 429, then ``json_normalize``."""
    records: list[dict[str, Any]] = []
    requests = throttled = 0
    with httpx.Client(base_url=base_url, headers=_auth(key)) as http:
        began = time.perf_counter()
        for campaign in campaigns:
            sent, refused = _walk_campaign(http, campaign, records)
            requests, throttled = requests + sent, throttled + refused
        frame = pd.json_normalize(records)
        seconds = time.perf_counter() - began
    return Load(seconds, len(frame), requests, throttled)


def _walk_campaign(http: httpx.Client, campaign: str,
                   records: list[dict[str, Any]]) -> tuple[int, int]:
    """Every page of one campaign's calls into ``records``; (requests, 429s)."""
    requests = throttled = 0
    cursor: str | None = None
    while True:
        params: dict[str, str | int] = {"limit": PAGE_LIMIT, "campaign_id": campaign}
        if cursor is not None:
            params["cursor"] = cursor
        response = http.get("/v1/calls", params=params)
        requests += 1
        if response.status_code == 429:
            throttled += 1
            time.sleep(float(response.headers.get("Retry-After", "1")))
            continue
        response.raise_for_status()
        body = response.json()
        records.extend(body["data"])
        cursor = body["page"]["next_cursor"]
        if not body["page"]["has_more"]:
            return requests, throttled


def rate_limited_loads(campaigns: Sequence[str], repeats: int, pause: float,
                       scale: str = SCALE) -> dict[str, list[Load]]:
    """Alternate both loads ``repeats`` times against an emulator at the documented limits."""
    loaders: dict[str, Callable[[str, str, Sequence[str]], Load]] = {
        "client.frames.calls": load_dialkit, "httpx + json_normalize": load_httpx,
    }
    loads: dict[str, list[Load]] = {name: [] for name in loaders}
    key = new_key()
    with serve(config_file(key, scale=scale, rate_limit_scale=1)) as base_url:
        for repeat in range(repeats):
            for name, loader in loaders.items():
                time.sleep(pause)  # the server's buckets refill
                load = loader(base_url, key, campaigns)
                loads[name].append(load)
                print(f"  load {repeat + 1}/{repeats} {name}: {load.seconds:.2f} s, "
                      f"{load.rows} rows, {load.requests} requests, {load.throttled} x 429",
                      flush=True)
    return loads


# 3. Incremental refreshes (run first: the same emulator finds the campaigns of 1.)


@dataclass(frozen=True)
class Step:
    """One clock move and the incremental refresh after it."""

    advance_seconds: int
    new_calls: int
    overlap_rows: int
    requests: int
    seconds: float

    @property
    def bound(self) -> int:
        """The target: ``ceil(N / 100) + 2`` requests."""
        return math.ceil(self.new_calls / PAGE_LIMIT) + 2

    @property
    def walked(self) -> int:
        """The pages a walk needs to pass the overlap: N new calls, the O cached calls in
        the overlap window, and one older call (the stop is a page whose last call is older)."""
        return math.ceil((self.new_calls + self.overlap_rows + 1) / PAGE_LIMIT)


@dataclass(frozen=True)
class Refreshes:
    """The whole account's calls as first loaded, each refresh, and the final check."""

    counts: pd.Series
    first_rows: int
    first_requests: int
    steps: list[Step]
    same_as_full: bool


def refresh_steps(advances: Sequence[int], scale: str = SCALE) -> Refreshes:
    """Load every call, then move the clock by each of ``advances`` and refresh incrementally."""
    key = new_key()
    transport = CountingTransport()
    with (serve(config_file(key, scale=scale, rate_limit_scale=0)) as base_url,
          tempfile.TemporaryDirectory() as cache_dir,
          dialkit.Client(key, base_url=base_url, rate_limit=None, transport=transport,
                         cache_dir=cache_dir) as client,
          httpx.Client(base_url=base_url, headers=ADMIN_HEADERS) as admin):
        frame = client.frames.calls(progress=False)
        counts = frame.groupby("campaign_id", observed=True).size()
        first_rows, first_requests = len(frame), transport.requests
        steps = []
        for advance in advances:
            admin.post("/_sandbox/clock", json={"advance_seconds": advance}).raise_for_status()
            step, frame = _refresh(client, transport, frame, advance)
            steps.append(step)
            print(f"  +{advance} s: {step.new_calls} new calls, {step.requests} requests",
                  flush=True)
        full = client.frames.calls(refresh="full", progress=False)
    return Refreshes(counts, first_rows, first_requests, steps,
                     _by_id(full).equals(_by_id(frame)))


def _refresh(client: dialkit.Client, transport: CountingTransport, cached: pd.DataFrame,
             advance: int) -> tuple[Step, pd.DataFrame]:
    """One incremental refresh over ``cached``: the step's figures and the new frame."""
    overlap = SPECS["calls"].overlap or timedelta(0)
    newest = cached["created_at"].max()
    sent = transport.requests
    began = time.perf_counter()
    frame = client.frames.calls(refresh="incremental", progress=False)
    seconds = time.perf_counter() - began
    new_calls = len(set(frame["id"]) - set(cached["id"]))
    overlap_rows = int((cached["created_at"] >= newest - overlap).sum())
    return Step(advance, new_calls, overlap_rows, transport.requests - sent, seconds), frame


def _by_id(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.sort_values("id", ignore_index=True)


# 2. A large frame from the cache


@dataclass(frozen=True)
class CacheRun:
    """One load in a fresh process: wall, user and system CPU seconds, peak RSS beyond the
    imports, rows, and whether the dtypes are the schema's."""

    seconds: float
    user_seconds: float
    system_seconds: float
    peak_mib: float
    rows: int
    schema_dtypes: bool


def synthetic_calls(rows: int, seed: int = 4) -> pd.DataFrame:
    """``rows`` calls shaped like the emulator's, newest first, in the calls schema."""
    rng = np.random.default_rng(seed)
    kinds = np.array(["completed", "no-answer", "voicemail", "busy", "failed"])
    status = kinds[rng.choice(5, rows, p=[0.30, 0.39, 0.19, 0.07, 0.05])]
    completed, voicemail = status == "completed", status == "voicemail"
    now = datetime(2026, 11, 21, tzinfo=UTC)
    ages = np.sort(rng.integers(0, 730 * 86_400_000, rows))  # ms, newest first
    created = pd.Series(pd.to_datetime(now) - pd.to_timedelta(ages, unit="ms"))
    ring = rng.uniform(4, 22, rows).round(3)  # seconds until answered
    talk = ring + rng.lognormal(3.6, 0.8, rows).round(3)
    duration = np.where(completed | voicemail, talk, rng.uniform(20, 40, rows).round(3))
    answered = (created + pd.to_timedelta(ring, unit="s")).where(completed)
    ended = created + pd.to_timedelta(duration, unit="s")
    # an agent joins an answered call within 0.2-2 s (its own generator: the other columns
    # stay those of the figures measured before the column existed)
    join = np.random.default_rng(seed + 1).integers(200, 2_000, rows)
    joined = answered + pd.to_timedelta(join, unit="ms")
    return SCHEMAS["calls"].conform(pd.DataFrame({
        "id": [f"call_{uuid.uuid4()}" for _ in range(rows)],
        "direction": np.where(rng.random(rows) < 0.9, "outbound", "inbound"),
        "from_number": _phones(rng, rows), "to_number": _phones(rng, rows),
        "status": status, "created_at": created, "answered_at": answered, "ended_at": ended,
        "duration_seconds": duration,
        "campaign_id": np.array([f"cmp_{uuid.uuid4()}" for _ in range(40)])[
            rng.integers(0, 40, rows)],
        "disposition": _dispositions(rng, completed, voicemail),
        "hangup_cause": _hangup_causes(rng, status), "agent_joined_at": joined,
    }))


def _phones(rng: np.random.Generator, rows: int) -> np.ndarray:
    prefixes = np.array(["+4415149", "+4416149", "+1212555", "+4930901", "+3314000"])
    return np.char.add(prefixes[rng.integers(0, len(prefixes), rows)],
                       np.char.zfill(rng.integers(0, 100_000, rows).astype(str), 5))


def _dispositions(rng: np.random.Generator, completed: np.ndarray,
                  voicemail: np.ndarray) -> pd.Series:
    codes = np.array(["info_sent", "not_interested", "callback_requested", "inquiry", "sale",
                      "wrong_number", "do_not_call"])
    drawn = codes[rng.integers(0, len(codes), len(completed))]
    values = np.where(voicemail, "voicemail_left", drawn)
    return pd.Series(values).where(completed | voicemail)


def _hangup_causes(rng: np.random.Generator, status: np.ndarray) -> np.ndarray:
    failures = np.array(["network_out_of_order", "unallocated_number", "call_rejected"])
    causes = {"completed": "normal_clearing", "voicemail": "normal_clearing",
              "no-answer": "no_answer", "busy": "user_busy"}
    fixed = pd.Series(status).map(causes).to_numpy()
    return np.where(status == "failed", failures[rng.integers(0, 3, len(status))], fixed)


def write_cache(rows: int, root: Path) -> dict[str, str]:
    """Write ``rows`` synthetic calls as the cache of a fresh key; what a child needs."""
    key = new_key()
    client = dialkit.Client(key, base_url=CACHE_BASE_URL, cache_dir=root)
    Cache(root, client.base_url, client.credential_id).entry("calls", {}).write(
        synthetic_calls(rows))
    path = str(client.cache.info()["path"].iloc[0])
    client.close()
    return {"key": key, "root": str(root), "path": path}


def _child_loaders(spec: dict[str, str]) -> dict[str, Callable[[], pd.DataFrame]]:
    """The loads a child runs, after the imports both sides share."""
    importlib.import_module("pyarrow.dataset")  # imported on both sides, before the baseline
    if "base_url" in spec:  # the pages part: every call of the world into a new cache folder
        loader = dialkit.Client(spec["key"], base_url=spec["base_url"], rate_limit=None,
                                cache_dir=spec["root"])
        loader.frames  # noqa: B018
        return {"pages": lambda: loader.frames.calls(progress=False)}
    client = dialkit.Client(spec["key"], base_url=CACHE_BASE_URL, cache_dir=spec["root"])
    client.frames  # noqa: B018 - the Cache object, built before the measurement
    return {
        "frames": lambda: client.frames.calls(refresh="offline", progress=False),
        "read_parquet": lambda: pd.read_parquet(spec["path"]),
        "pq.read_table": lambda: pq.read_table(spec["path"]),
        "pq.read_table, page checksums": lambda: pq.read_table(
            spec["path"], page_checksum_verification=True),
    }


def child(kind: str, spec: dict[str, str], profile: bool) -> None:
    """In a fresh process: one load of ``kind``, printed as JSON (and its profile)."""
    load = _child_loaders(spec)[kind]
    profiler = cProfile.Profile() if profile else None
    baseline = peak_rss_kib()
    began, before = time.perf_counter(), resource.getrusage(resource.RUSAGE_SELF)
    if profiler:
        profiler.enable()
    frame = load()
    if profiler:
        profiler.disable()
    seconds, after = time.perf_counter() - began, resource.getrusage(resource.RUSAGE_SELF)
    peak = peak_rss_kib()
    if profiler:
        print(_profile_text(profiler))
    same = {c: str(t) for c, t in frame.dtypes.items()} == {
        c: str(t) for c, t in SCHEMAS["calls"].dtypes.items()}
    print(json.dumps({"seconds": seconds, "user_seconds": after.ru_utime - before.ru_utime,
                      "system_seconds": after.ru_stime - before.ru_stime, "rows": len(frame),
                      "peak_mib": (peak - baseline) / 1024, "schema_dtypes": same}))


def breakdown_child(spec: dict[str, str], rounds: int = 9) -> None:
    """In one process, warm: each way of reading the file in turn, ``rounds`` times; JSON."""
    loaders = _child_loaders(spec)
    seconds: dict[str, list[float]] = {name: [] for name in loaders}
    for _ in range(rounds + 1):  # the first round warms up and is dropped
        for name, load in loaders.items():
            began = time.perf_counter()
            load()
            seconds[name].append(time.perf_counter() - began)
    print(json.dumps({name: times[1:] for name, times in seconds.items()}))


def peak_rss_kib() -> int:
    """This process's peak resident memory in KiB since it started its program.

    ``VmHWM`` of ``/proc/self/status`` where there is one: on Linux,
    ``getrusage(RUSAGE_SELF).ru_maxrss`` of a child started by a large parent
    starts at the parent's peak (it is carried across ``exec``), which would
    hide the load's own peak.
    """
    status = Path("/proc/self/status")
    if status.exists():
        for line in status.read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _profile_text(profiler: cProfile.Profile, lines: int = 25) -> str:
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(lines)
    return out.getvalue()


def run_child(kind: str, spec: dict[str, str], profile: bool = False,
              source: str = "") -> tuple[Any, str]:
    """Run a child (``kind``) in a fresh interpreter, with the dialkit of the ``src`` folder
    ``source`` when given: its JSON result, and what else it printed."""
    path = {"PYTHONPATH": os.pathsep.join(filter(None, [source, os.environ.get("PYTHONPATH")]))}
    done = subprocess.run(
        [sys.executable, __file__, "--child", kind, "--child-spec", json.dumps(spec),
         *(["--profile"] if profile else [])],
        capture_output=True, text=True, check=True, env=os.environ | path)
    *text, last = done.stdout.strip().splitlines()
    return json.loads(last), "\n".join(text)


def cache_loads(rows: int, repeats: int) -> tuple[dict[str, list[CacheRun]], int]:
    """Write the cache, then time both loads ``repeats`` times each, interleaved."""
    runs: dict[str, list[CacheRun]] = {"frames": [], "read_parquet": []}
    with tempfile.TemporaryDirectory() as root:
        began = time.perf_counter()
        spec = write_cache(rows, Path(root))
        size = Path(spec["path"]).stat().st_size
        print(f"  wrote {rows} rows, {size / 2**20:.1f} MiB, in "
              f"{time.perf_counter() - began:.1f} s", flush=True)
        for repeat in range(repeats):
            for kind in (runs if repeat % 2 == 0 else reversed(list(runs))):
                run = CacheRun(**run_child(kind, spec)[0])
                runs[kind].append(run)
                print(f"  {kind} {repeat + 1}/{repeats}: {run.seconds:.3f} s (CPU user "
                      f"{run.user_seconds:.3f} s, system {run.system_seconds:.3f} s), "
                      f"+{run.peak_mib:.0f} MiB", flush=True)
        if _misses(runs):
            print("\nprofile of one frames load (the target is missed):")
            print(run_child("frames", spec, profile=True)[1])
            print_breakdown(run_child("breakdown", spec)[0])
    return runs, size


def page_loads(runs: int, sources: Sequence[str], scale: str) -> dict[str, list[CacheRun]]:
    """Every call of the world, page by page into a new cache folder, ``runs`` times with the
    dialkit of each of ``sources`` in turn (a ``src`` folder; ``""`` this one), from one
    emulator with rate limiting off: the client's cost a page, which a notebook's first
    ``client.frames.calls()`` pays."""
    key = new_key()
    loads: dict[str, list[CacheRun]] = {source: [] for source in sources}
    with serve(config_file(key, scale=scale, rate_limit_scale=0)) as base_url:
        for repeat in range(runs + 1):  # the first round warms the emulator and is dropped
            for source in (sources if repeat % 2 == 0 else list(reversed(sources))):
                with tempfile.TemporaryDirectory() as root:
                    spec = {"key": key, "base_url": base_url, "root": root}
                    run = CacheRun(**run_child("pages", spec, source=source)[0])
                if repeat:
                    loads[source].append(run)
                print(f"  {source or 'this dialkit'} {repeat}/{runs}: {run.seconds:.2f} s "
                      f"(CPU {run.user_seconds + run.system_seconds:.2f} s), {run.rows} calls",
                      flush=True)
    return loads


def print_pages(loads: dict[str, list[CacheRun]]) -> None:
    """The pages table: each dialkit's median wall and CPU time, and its ratio to the first."""
    first = statistics.median(r.seconds for r in next(iter(loads.values())))
    print("| dialkit | median wall | ratio | median CPU (user + system) | runs (s) |")
    print("|---|---|---|---|---|")
    for source, runs in loads.items():
        wall = statistics.median(r.seconds for r in runs)
        cpu = statistics.median(r.user_seconds + r.system_seconds for r in runs)
        every = ", ".join(f"{r.seconds:.2f}" for r in runs)
        print(f"| {source or 'this one'} | {wall:.2f} s | {wall / first:.3f} | {cpu:.2f} s | "
              f"{every} |")


def _misses(runs: dict[str, list[CacheRun]]) -> bool:
    frames = statistics.median(r.seconds for r in runs["frames"])
    bare = statistics.median(r.seconds for r in runs["read_parquet"])
    memory = statistics.median(r.peak_mib for r in runs["frames"])
    return (frames >= CACHE_SECONDS_TARGET or frames > CACHE_RATIO_TARGET * bare
            or memory >= CACHE_MEMORY_TARGET_MIB)


# Tables


def print_loads(loads: dict[str, list[Load]], campaigns: Sequence[str]) -> None:
    """The rate-limited table: median time, its ratio to the bound of the pages fetched."""
    pages = loads["client.frames.calls"][0].pages
    bound = bound_seconds(pages)
    rows = loads["client.frames.calls"][0].rows
    print(f"\n{rows} calls of {len(campaigns)} campaigns ({', '.join(campaigns)}), {pages} pages; "
          f"bound {bound:.1f} s, target <= {SLOWER_TARGET * bound:.1f} s and no 429")
    print(f"| load | median time | ratio to {bound:.1f} s | median 429s | rows | "
          "runs (s / requests / 429s) |")
    print("|---|---|---|---|---|---|")
    for name, runs in loads.items():
        median = statistics.median(r.seconds for r in runs)
        every = ", ".join(f"{r.seconds:.2f} / {r.requests} / {r.throttled}" for r in runs)
        print(f"| {name} | {median:.2f} s | {median / (bound or math.nan):.3f} | "
              f"{statistics.median(r.throttled for r in runs):g} | {runs[0].rows} | {every} |")


def print_cache(runs: dict[str, list[CacheRun]], size: int, rows: int) -> None:
    """The cache table: median seconds and peak RSS beyond the imports, and the ratio."""
    bare = statistics.median(r.seconds for r in runs["read_parquet"])
    print(f"\n{rows} cached calls, {size / 2**20:.1f} MiB of Parquet, {len(runs['frames'])} "
          f"fresh processes each; targets < {CACHE_SECONDS_TARGET:g} s, <= "
          f"{CACHE_RATIO_TARGET:g}x the bare read, < {CACHE_MEMORY_TARGET_MIB:.0f} MiB")
    print("| load | median time | ratio to read_parquet | median CPU user / system | median "
          "peak RSS increase | schema dtypes | runs (s) |")
    print("|---|---|---|---|---|---|---|")
    for name, label in (("frames", 'client.frames.calls(refresh="offline")'),
                        ("read_parquet", "pd.read_parquet(path)")):
        median = statistics.median(r.seconds for r in runs[name])
        every = ", ".join(f"{r.seconds:.3f}" for r in runs[name])
        user = statistics.median(r.user_seconds for r in runs[name])
        system = statistics.median(r.system_seconds for r in runs[name])
        memory = statistics.median(r.peak_mib for r in runs[name])
        dtypes = "yes" if all(r.schema_dtypes for r in runs[name]) else "no"
        print(f"| {label} | {median:.3f} s | {median / bare:.2f} | {user:.3f} / {system:.3f} s | "
              f"{memory:.0f} MiB | {dtypes} | {every} |")


def print_breakdown(seconds: dict[str, list[float]]) -> None:
    """The warm in-process comparison of the ways to read the cached file."""
    print(f"\nwarm, in one process, {len(next(iter(seconds.values())))} interleaved rounds:")
    print("| read | median | min |")
    print("|---|---|---|")
    for name, times in seconds.items():
        print(f"| {name} | {statistics.median(times):.3f} s | {min(times):.3f} s |")


def print_refreshes(refreshes: Refreshes) -> None:
    """The incremental table: N new calls, requests, and the target."""
    print(f"\nfirst load: {refreshes.first_rows} calls in {refreshes.first_requests} requests; "
          f"after the refreshes, a full reload holds the same frame: "
          f"{'yes' if refreshes.same_as_full else 'NO'}")
    print("| clock advance | new calls N | requests | ceil(N/100) + 2 | cached rows in the "
          "30 min overlap O | ceil((N + O + 1)/100) | time |")
    print("|---|---|---|---|---|---|---|")
    for step in refreshes.steps:
        print(f"| {timedelta(seconds=step.advance_seconds)} | {step.new_calls} | "
              f"{step.requests} | {step.bound} | {step.overlap_rows} | {step.walked} | "
              f"{step.seconds:.2f} s |")


def main() -> None:
    """Run the three measurements and print their tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="rate-limited loads of each kind")
    parser.add_argument("--pause", type=float, default=4.0, help="seconds between loads")
    parser.add_argument("--rows", type=int, default=1_000_000, help="rows of the cached frame")
    parser.add_argument("--cache-runs", type=int, default=5, help="cache loads of each kind")
    parser.add_argument("--advances", type=int, nargs="+", default=list(ADVANCES),
                        help="clock moves (seconds) before each incremental refresh")
    parser.add_argument("--scale", default=SCALE, help="the emulators' world")
    parser.add_argument("--target-calls", type=int, default=TARGET_CALLS,
                        help="calls of the campaigns of the rate-limited load")
    parser.add_argument("--only", choices=("cache", "network", "pages"),
                        help="run only the cache loads, only the other two parts, or only "
                        "the loads page by page")
    parser.add_argument("--sources", nargs="+", default=[""],
                        help="src folders whose dialkit the pages part loads with, in turn")
    parser.add_argument("--child", choices=("frames", "read_parquet", "breakdown", "pages"),
                        help=argparse.SUPPRESS)
    parser.add_argument("--child-spec", help=argparse.SUPPRESS)
    parser.add_argument("--profile", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child == "breakdown":
        breakdown_child(json.loads(args.child_spec))
    elif args.child:
        child(args.child, json.loads(args.child_spec), args.profile)
    elif args.only == "cache":
        print_cache(*cache_loads(args.rows, args.cache_runs), args.rows)
    elif args.only == "pages":
        print_pages(page_loads(args.repeats, args.sources, args.scale))
    else:
        network(args)


def network(args: argparse.Namespace) -> None:
    """The refreshes and the rate-limited loads (and the cache loads, unless ``--only``)."""
    print("incremental refreshes (rate limiting off):", flush=True)
    refreshes = refresh_steps(args.advances, args.scale)
    campaigns = choose_campaigns(refreshes.counts, args.target_calls)
    print("rate-limited loads:", flush=True)
    loads = rate_limited_loads(campaigns, args.repeats, args.pause, args.scale)
    cache = None
    if args.only is None:
        print("cache loads:", flush=True)
        cache = cache_loads(args.rows, args.cache_runs)
    print_loads(loads, campaigns)
    if cache is not None:
        print_cache(*cache, args.rows)
    print_refreshes(refreshes)


if __name__ == "__main__":
    main()
