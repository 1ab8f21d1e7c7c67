"""The month-end audit after a big import: ``compliance.audit(**compliance.load(client,
since="30d"))`` at one key's documented limit, the first time and the next day (issue 62,
item 9).

The account: the emulator's ``medium`` world (its 15,000 leads and six weeks of calls,
of which the last 30 days are the period) and 285,000 leads imported into one of its
paused campaigns: 300,000 leads. The emulator runs in a process of its own on a manual
clock at ``rate_limit_scale = 1`` (per key 10 requests/s, a burst of 20); the import
goes through two other API clients of the account (the per-client limit), so that only
the audit's requests are the measured key's. The emulator's clock starts a day behind
the machine's, so that once it has moved a day on, the numbers it lists are listed no
later than the machine's now. The audit runs with a fresh cache folder,
through a transport that counts the requests it forwards by kind; then the emulator's
clock moves one day on (its dialer calls through that day) and the same audit runs
again on the same cache.

The floor is what the requests the audit truly needs take at 10 requests/s: every page
of calls (the history its calls are judged against, read once and then from the top
until the cached ones), every page of leads (its leads' DNC coverage is judged over
every lead that can still be dialled, and the list can be asked for no other set), one
DNC check of 100 numbers for each 100 numbers never checked or checked longer ago than
their list's scrub period, and the texts' pages. The count each run made is printed
beside the count the floor asks; the targets: the first audit within 1.2x the floor's
time, the next day's within 60 s.

Run: ``.venv/bin/python benchmarks/bench_month_end.py [--imported 285000]``; with
``PYTHONPATH=/tmp/before/src`` for the code before. Results go to
``benchmarks/RESULTS.md`` by hand, with the command.
"""

from __future__ import annotations

import argparse
import math
import os
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import orjson
import pandas as pd

import dialkit
from _emulator import ADMIN_HEADERS, PathCounter, serve
from dialkit import compliance
from dialkit.contract import MAX_IMPORT_BATCH, MAX_PAGE_LIMIT, RATE_LIMIT_PER_KEY
from dialkit.sandbox._config import generate_key

SCOPES = ("calls:read", "leads:read", "dnc:check", "sms:read", "campaigns:read")
LOADERS = ("loader-a", "loader-b")
FIRST_TARGET = 1.2
NEXT_DAY_SECONDS = 60
DAY = timedelta(days=1)
KINDS = ("/v1/calls", "/v1/leads", "/v1/dnc/check", "/v1/sms/delivery-reports")
SENT = ("GET /v1/calls", "GET /v1/leads", "POST /v1/dnc/check", "GET /v1/sms/delivery-reports")



def config(keys: dict[str, str], scale: str, rate_limit_scale: float) -> Path:
    """The emulator's configuration: the world of ``scale``, the audit's client and the
    loaders, each with its key."""
    clients = "".join(
        f'\n[[accounts.clients]]\nname = "{name}"\nscopes = [{scopes}]\n\n'
        f'[[accounts.clients.keys]]\nkey = "{key}"\n'
        for name, key in keys.items()
        for scopes in [", ".join(f'"{s}"' for s in (
            SCOPES if name == "bench" else ("leads:write", "campaigns:read")))])
    # the world's clock a day behind the machine's: the next day's audit is at its now
    start = (datetime.now(UTC) - DAY).isoformat(timespec="seconds")
    text = (f'[server]\nrate_limit_scale = {rate_limit_scale}\nclock = "manual"\n'
            f'start_time = "{start}"\n\n[[accounts]]\nname = "big"\nscale = "{scale}"\n'
            + clients)
    path = Path(tempfile.mkdtemp()) / "month-end.toml"
    path.write_text(text)
    return path


def phones(count: int) -> list[str]:
    """``count`` distinct US numbers in area codes of one time zone each."""
    areas = (212, 312, 415, 602, 713, 305, 206, 617, 404, 503)
    return [f"+1{areas[i % len(areas)]}{200 + (i // len(areas)) // 10_000:03d}"
            f"{(i // len(areas)) % 10_000:04d}" for i in range(count)]


def import_leads(url: str, keys: list[str], count: int) -> str:
    """``count`` leads imported into a paused campaign through the loaders' keys, in
    parallel; the campaign's id."""
    numbers = phones(count)
    batches = [numbers[at:at + MAX_IMPORT_BATCH] for at in range(0, count, MAX_IMPORT_BATCH)]
    clients = [dialkit.Client(key, base_url=url, guard="off") for key in keys]
    campaign = next(clients[0].campaigns.list(status="paused")).id

    def send(turn: int) -> None:
        client = clients[turn]
        for batch in batches[turn::len(clients)]:
            client.leads.import_batch(campaign, [{"phone": phone} for phone in batch])

    with ThreadPoolExecutor(len(clients)) as pool:
        list(pool.map(send, range(len(clients))))
    for client in clients:
        client.close()
    return campaign


def audited(client: dialkit.Client, wire: PathCounter) -> dict[str, object]:
    """One month-end audit: seconds, requests by kind, findings."""
    wire.sent.clear()
    began = time.perf_counter()
    report = compliance.audit(**compliance.load(client, since="30d"))
    return {"seconds": time.perf_counter() - began, "sent": dict(wire.sent),
            "findings": len(report.findings)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--imported", type=int, default=285_000)
    parser.add_argument("--scale", choices=("small", "medium", "large"), default="medium")
    parser.add_argument("--rate-limit-scale", type=float, default=1.0,
                        help="the emulator's (the client keeps to the documented limit)")
    args = parser.parse_args()
    rate = RATE_LIMIT_PER_KEY.rate  # the client's own limiter, whatever the emulator allows
    # live keys: the account's one data set, which its every client reads and writes
    keys = {name: generate_key(test=False) for name in ("bench", *LOADERS)}
    with serve(config(keys, args.scale, args.rate_limit_scale)) as url:
        began = time.perf_counter()
        import_leads(url, [keys[name] for name in LOADERS], args.imported)
        print(f"imported {args.imported:,} leads in {time.perf_counter() - began:.0f} s",
              flush=True)
        os.environ["DIALKIT_CACHE_DIR"] = tempfile.mkdtemp(prefix="dialkit-bench-cache-")
        wire = PathCounter(KINDS)
        with dialkit.Client(keys["bench"], base_url=url, transport=wire) as client:
            runs = {"first": audited(client, wire)}
            needed = {"first": floor(client)}
            httpx.post(f"{url}/_sandbox/clock", json={"advance_seconds": DAY.total_seconds()},
                       headers=ADMIN_HEADERS, timeout=600).raise_for_status()
            a_day_later(client)
            runs["next day"] = audited(client, wire)
    print(f"| audit | requests | calls | leads | DNC checks | texts | s | needed | needed at "
          f"{rate:g}/s, s | s / needed's |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, run in runs.items():
        sent: dict[str, int] = run["sent"]  # type: ignore[assignment]
        seconds: float = run["seconds"]  # type: ignore[assignment]
        need = needed.get(name)
        floor_s = None if need is None else need / rate
        print(f"| {name} | {sum(sent.values()):,} | "
              + " | ".join(f"{sent.get(kind, 0):,}" for kind in SENT)
              + f" | {seconds:.0f} | {'' if need is None else f'{need:,}'} | "
              + ("" if floor_s is None else f"{floor_s:.0f} | {seconds / floor_s:.2f}")
              + " |", flush=True)


def a_day_later(client: dialkit.Client) -> None:
    """The client's cache as it is a day later: every frame fetched (and read whole) and
    every number checked (and found listed) a day earlier than they were, as the
    emulator's clock moved on."""
    for path in client.cache.path.glob("*/manifest.json"):
        facts = orjson.loads(path.read_bytes())
        for name in ("fetched_at", "whole_at"):
            if isinstance(facts.get(name), str):
                facts[name] = (datetime.fromisoformat(facts[name]) - DAY).isoformat()
        path.write_bytes(orjson.dumps(facts))
    entry = client.cache.entry("dnc", {})
    checks = pd.read_parquet(entry.data_path)
    checks[["checked_at", "listed_at"]] -= DAY  # as the world's times, which moved on
    with entry.locked():
        entry.write(checks, fetched_at=(datetime.now().astimezone() - DAY).isoformat())


def floor(client: dialkit.Client) -> int:
    """The requests the first audit truly needs: every page of calls, leads and texts,
    and a DNC check per 100 of the numbers called, texted or held (none checked
    before), counted from the frames the audit read (the cache), with no request."""
    calls = client.frames.calls(refresh="offline")
    leads = client.frames.leads(refresh="offline")
    texts = client.frames.sms_reports(refresh="offline")
    numbers = set(calls["to_number"].dropna()) | set(leads["phone"].dropna()) | set(
        texts["to"].dropna())
    pages = sum(max(1, math.ceil(len(frame) / MAX_PAGE_LIMIT)) for frame in (calls, leads, texts))
    print(f"{len(leads):,} leads, {len(calls):,} calls, {len(texts):,} texts, "
          f"{len(numbers):,} numbers", flush=True)
    return pages + math.ceil(len(numbers) / MAX_PAGE_LIMIT)

if __name__ == "__main__":
    main()
