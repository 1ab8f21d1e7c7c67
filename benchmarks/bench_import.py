"""``dialkit.leads.import_leads`` at the documented rate limits, beside its bound and a
plain httpx loop.

The lead-files issue's target: importing 20,000 accepted leads (100 batches
of 200) into the emulator at the documented limits (``rate_limit_scale = 1``:
per key 10 requests/s with a burst of 20) within 5% of the bound those limits
allow, ``(100 - 20) / 10 = 8 s``, with no 429. The file is cleaned offline
first, so only the import is timed (journal writes included). The baseline,
in the same run, posts the same batches with a plain ``httpx.Client`` that
sleeps on a 429's ``Retry-After`` and tries again. Each run imports fresh
numbers into the small world's paused campaign, with a pause between runs so
that the server's bucket refills; 429s are counted on the wire.

Run: ``.venv/bin/python benchmarks/bench_import.py [--leads 20000] [--repeats 3]``.
Results go to ``benchmarks/RESULTS.md`` by hand, with the command.
"""

from __future__ import annotations

import argparse
import math
import statistics
import tempfile
import time

import httpx
import pandas as pd

import dialkit
from _emulator import config_file, new_key, refill_pause, serve
from bench_client import CountingTransport
from dialkit.contract import MAX_IMPORT_BATCH, RATE_LIMIT_PER_KEY
from dialkit.leads import CleanResult, clean, import_leads

SCOPES = ("leads:read", "leads:write", "campaigns:read", "dnc:check")
TARGET = 1.05


def leads(count: int, run: int) -> CleanResult:
    """``count`` distinct valid US numbers, a different block for each run, cleaned offline."""
    phones = [f"+1{area}555{n % 10_000:04d}" for n in range(run * count, (run + 1) * count)
              for area in [(212, 312, 415, 512, 617, 702, 813, 919, 206, 303,
                            404, 503)[n // 10_000]]]
    result = clean(pd.DataFrame({"phone": phones, "name": ["Ada Lovelace"] * count}))
    assert len(result.accepted) == count
    return result


def bound_seconds(requests: int) -> float:
    """The fastest the key's bucket allows ``requests`` requests, starting full."""
    return max(0, requests - RATE_LIMIT_PER_KEY.burst) / RATE_LIMIT_PER_KEY.rate


def with_dialkit(base_url: str, key: str, campaign: str,
                 cleaned: CleanResult) -> tuple[float, int, int]:
    transport = CountingTransport()
    with dialkit.Client(key, base_url=base_url, transport=transport) as client:
        began = time.perf_counter()
        report = import_leads(client, cleaned, campaign, journal=tempfile.mkdtemp(),
                              progress=False)
        seconds = time.perf_counter() - began
    # a few numbers may already be the world's (in the campaign, or on its DNC list): one in
    # a thousand, and at least one, which the smoke mode's 200 leads met on some days
    allowed = max(1, len(cleaned.frame) // 1000)
    assert report.counts["imported"] >= len(cleaned.frame) - allowed, report.counts
    return seconds, transport.requests, transport.throttled


def with_httpx(base_url: str, key: str, campaign: str,
               cleaned: CleanResult) -> tuple[float, int, int]:
    records = cleaned.leads()
    requests = throttled = 0
    headers = {"Authorization": f"Bearer {key}"}
    with httpx.Client(base_url=base_url, headers=headers, timeout=30) as http:
        began = time.perf_counter()
        for at in range(0, len(records), MAX_IMPORT_BATCH):
            batch = {"leads": records[at:at + MAX_IMPORT_BATCH]}
            while True:
                answer = http.post("/v1/leads/import", params={"campaign_id": campaign},
                                   json=batch, headers={"Idempotency-Key": f"b{at}-{time.time()}"})
                requests += 1
                if answer.status_code != 429:
                    break
                throttled += 1
                time.sleep(float(answer.headers.get("retry-after", "1")))
            answer.raise_for_status()
            assert answer.json()["summary"]["received"] == len(batch["leads"])
        seconds = time.perf_counter() - began
    return seconds, requests, throttled


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--leads", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--pause", type=float, default=None,
                        help="seconds before each run (default: until the bucket refills)")
    options = parser.parse_args()
    pause = refill_pause(options.pause)
    key = new_key()
    config = config_file(key, scale="small", rate_limit_scale=1, scopes=SCOPES)
    results: dict[str, list[tuple[float, int, int]]] = {"dialkit": [], "httpx": []}
    with serve(config) as base_url:
        with dialkit.Client(key, base_url=base_url) as client:
            campaign = next(client.campaigns.list(status="paused")).id
        run = 0
        for _ in range(options.repeats):
            for name, side in (("dialkit", with_dialkit), ("httpx", with_httpx)):
                time.sleep(pause)
                results[name].append(side(base_url, key, campaign, leads(options.leads, run)))
                run += 1
                print(name, results[name][-1], flush=True)
    batches = -(-options.leads // MAX_IMPORT_BATCH)
    bound = bound_seconds(batches)
    print(f"\n{options.leads:,} leads in {batches} batches; bound {bound:.1f} s, target <= "
          f"{TARGET * bound:.2f} s and no 429")
    print("| import | median time | ratio to the bound | median requests | median 429s | "
          "runs (s / 429s) |")
    print("|---|---|---|---|---|---|")
    for name, runs in results.items():
        median = statistics.median(r[0] for r in runs)
        shown = ", ".join(f"{s:.2f} / {t}" for s, _, t in runs)
        print(f"| {name} | {median:.2f} s | {median / (bound or math.nan):.3f} | "
              f"{statistics.median(r[1] for r in runs):.0f} | "
              f"{statistics.median(r[2] for r in runs):.0f} | {shown} |")


if __name__ == "__main__":
    main()
