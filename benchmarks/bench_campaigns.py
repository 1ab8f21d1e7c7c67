"""``dialkit.leads.campaigns`` (``dialkit campaigns list``) at the documented rate
limits, as the account's lead count grows, beside the baseline that counted leads
from the lead list (issue 48, item 2).

After a 2,000,000-lead import, ``dialkit campaigns list --importable`` read every
lead, 100 a page at the key's 10 requests/s, for 23 minutes before it printed
anything. The listing now reads each campaign's progress: its requests must not
grow with the leads. Each step imports ``--step`` more leads into the small
world's paused campaign (fresh numbers, 200 a batch), then times both ways with
the bucket refilled before each; requests are counted on the wire.

Run: ``.venv/bin/python benchmarks/bench_campaigns.py [--steps 2] [--step 10000]``.
Results go to ``benchmarks/RESULTS.md`` by hand, with the command.
"""

from __future__ import annotations

import argparse
import statistics
import time

import dialkit
from _emulator import config_file, new_key, refill_pause, serve
from bench_client import CountingTransport
from dialkit.contract import MAX_IMPORT_BATCH
from dialkit.leads import campaigns

SCOPES = ("leads:read", "leads:write", "campaigns:read")


def fill(client: dialkit.Client, campaign: str, count: int, first: int) -> None:
    """Import ``count`` fresh US numbers into ``campaign``, numbering them from ``first``."""
    for at in range(first, first + count, MAX_IMPORT_BATCH):
        numbers = range(at, min(first + count, at + MAX_IMPORT_BATCH))
        client.leads.import_batch(campaign, [
            {"phone": f"+1{(212, 312, 415, 512, 617, 702, 813, 919)[n // 10_000 % 8]}"
                      f"555{n % 10_000:04d}"} for n in numbers])


def listed(base_url: str, key: str) -> tuple[float, int]:
    """Seconds and requests of ``campaigns(client)``: progress, a request per campaign."""
    transport = CountingTransport()
    with dialkit.Client(key, base_url=base_url, transport=transport,
                        cache_dir="/tmp/dialkit-bench-campaigns-cache") as client:
        began = time.perf_counter()
        campaigns(client, refresh="full", progress=False)
        return time.perf_counter() - began, transport.requests


def lead_count(client: dialkit.Client) -> int:
    """The account's leads, as the listing counts them."""
    return int(campaigns(client, refresh="full", progress=False)["leads"].sum())


def baseline(base_url: str, key: str) -> tuple[float, int]:
    """The listing before issue 48: the campaigns, then every lead, counted by campaign."""
    transport = CountingTransport()
    with dialkit.Client(key, base_url=base_url, transport=transport,
                        cache_dir="/tmp/dialkit-bench-campaigns-cache") as client:
        began = time.perf_counter()
        client.frames.campaigns(refresh="full", progress=False)
        client.frames.leads(refresh="full", progress=False)["campaign_id"].value_counts()
        return time.perf_counter() - began, transport.requests


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=2)
    parser.add_argument("--step", type=int, default=10_000, help="leads imported per step")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--pause", type=float, default=None,
                        help="seconds before each run (default: until the bucket refills)")
    options = parser.parse_args()
    pause = refill_pause(options.pause)
    key = new_key()
    rows = []
    config = config_file(key, scale="small", rate_limit_scale=1, scopes=SCOPES)
    with serve(config) as base_url, dialkit.Client(key, base_url=base_url) as client:
        campaign = next(client.campaigns.list(status="paused")).id
        for step in range(options.steps + 1):
            if step:
                fill(client, campaign, options.step, (step - 1) * options.step)
            leads = lead_count(client)
            runs: dict[str, list[tuple[float, int]]] = {"progress": [], "lead list": []}
            for _ in range(options.repeats):
                for name, side in (("progress", listed), ("lead list", baseline)):
                    time.sleep(pause)
                    runs[name].append(side(base_url, key))
            rows.append((leads, runs))
            print(leads, runs, flush=True)
    print("\n| leads | listing | median time | median requests | runs (s) |")
    print("|---|---|---|---|---|")
    for leads, runs in rows:
        for name, measured in runs.items():
            print(f"| {leads:,} | {name} | {statistics.median(s for s, _ in measured):.2f} s | "
                  f"{statistics.median(r for _, r in measured):.0f} | "
                  f"{', '.join(f'{s:.2f}' for s, _ in measured)} |")


if __name__ == "__main__":
    main()
