"""What ``dialkit.leads.import_leads`` of the realistic mix costs on the wire: requests by
kind and time at one key's documented limit, with and without the client-side screen.

Issue 48: a 2,000,000-row import checked every number against the DNC list (100 a
request) and read the campaign's leads page by page before its first batch, though
the service screens each imported lead itself. The target: an import sends at most
1.05 x rows/200 requests. Each run imports the mix's lead file (:mod:`leads_mix`,
10 % repeats, 4 % junk; ``--country-column Country``) into the paused campaign of a
fresh emulator in a process of its own, at ``rate_limit_scale = 1`` (per key 10
requests/s, a burst of 20), with a fresh cache folder (no DNC answer cached), through
a transport that counts the requests it forwards by path. ``screen=False`` is this
code's default; ``screen=True`` is the path every import took before (the baseline).
The projection takes the batches and DNC checks per row to ``--project`` rows and the
other requests (the campaign, the leads already there) as they were, at 10 requests/s.

Run: ``.venv/bin/python benchmarks/bench_import_requests.py [--rows 20000] [--runs 1]
[--project 2000000]``. Results go to ``benchmarks/RESULTS.md`` by hand, with the command.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import tempfile
import time
from pathlib import Path

import dialkit
from _emulator import PathCounter, config_file, new_key, serve
from dialkit.contract import MAX_IMPORT_BATCH, RATE_LIMIT_PER_KEY
from dialkit.leads import import_leads
from leads_mix import write_leads

SCOPES = ("leads:read", "leads:write", "campaigns:read", "dnc:check")
TARGET = 1.05



def import_once(path: Path, screen: bool) -> dict[str, float]:
    """One import of ``path`` into a fresh emulator: requests by kind, seconds, rows."""
    key = new_key()
    with serve(config_file(key, scale="small", rate_limit_scale=1, scopes=SCOPES)) as url:
        os.environ["DIALKIT_CACHE_DIR"] = tempfile.mkdtemp(prefix="dialkit-bench-cache-")
        wire = PathCounter(("/v1/leads/import", "/v1/dnc/check", "/v1/leads", "/v1/campaigns"))
        with dialkit.Client(key, base_url=url, transport=wire) as client:
            campaign = next(client.campaigns.list(status="paused")).id
            wire.sent.clear()
            began = time.perf_counter()
            report = import_leads(client, path, campaign, country_column="Country",
                                  journal=tempfile.mkdtemp(), progress=False, screen=screen)
            seconds = time.perf_counter() - began
    return {"seconds": seconds, "rows": report.rows, "requests": sum(wire.sent.values()),
            "batches": wire.sent["POST /v1/leads/import"],
            "dnc": wire.sent["POST /v1/dnc/check"], "leads": wire.sent["GET /v1/leads"],
            "imported": int(report.counts["imported"])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--project", type=int, default=2_000_000)
    args = parser.parse_args()
    path = Path(tempfile.mkdtemp()) / f"leads_mix_{args.rows}.csv"
    write_leads(args.rows, path)
    bound = TARGET * args.rows / MAX_IMPORT_BATCH
    print(f"{args.rows:,} rows; target <= {bound:,.0f} requests (1.05 x rows/200)")
    print("| import | requests | batches | DNC checks | lead pages | requests / (rows/200) "
          f"| median s | {args.project:,} rows at 10/s |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for screen in (True, False):
        found = [import_once(path, screen) for _ in range(args.runs)]
        run = found[-1]
        growing = run["batches"] + run["dnc"]
        projected = growing * args.project / run["rows"] + run["requests"] - growing
        minutes = projected / RATE_LIMIT_PER_KEY.rate / 60
        print(f"| {'screen=True (before)' if screen else 'default (after)'} | "
              f"{run['requests']:,} | {run['batches']:,} | {run['dnc']:,} | {run['leads']:,} | "
              f"{run['requests'] / (run['rows'] / MAX_IMPORT_BATCH):.2f} | "
              f"{statistics.median(r['seconds'] for r in found):.1f} | {minutes:.0f} min |",
              flush=True)
        if not screen:  # whole batches, and the campaign read once before the file
            assert run["requests"] <= math.ceil(bound) + 1, (run, bound)


if __name__ == "__main__":
    main()
