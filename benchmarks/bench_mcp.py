"""Tool-call overhead of the emulator's MCP server against the same REST call.

The MCP issue's target: a tool call at ``/mcp`` adds under 5 ms to the REST
call it stands for, on loopback. Side by side and interleaved, one call of
each at a time, against one emulator in its own process (rate limiting off,
manual clock): a read (``calls_list``, one page of 50) and a write
(``leads_create``, a new number each time, into a paused campaign, so no
confirmation is asked; the key holds ``calls:originate``, so the tool first
reads the campaign's status, as it does for any such key). Baseline: the same
operation through ``dialkit.Client`` (``client.calls.list(limit=50)``'s first
page, ``client.leads.create``) over the same loopback. The MCP side is one
open Streamable HTTP session of the SDK's ``Client`` (protocol 2026-07-28).
Figures are medians of each operation's calls, and the added milliseconds per
call is the difference of the medians; p90 beside them, for the noisy cores.
The SDK's client checks every structured answer against the tool's output
schema with ``jsonschema`` (pure Python, about 0.1 ms per item of a list):
the table shows the MCP side with that check, as an assistant built on the
SDK pays it, and without it (a second session that skips the check), which
is what the tool server and the transport add.

Run: ``.venv/bin/python benchmarks/bench_mcp.py [--calls 300]``.
Results go to ``benchmarks/RESULTS.md`` by hand, with the command.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import anyio
import httpx2
from mcp import Client as McpClient
from mcp.client.streamable_http import streamable_http_client

from _emulator import config_file, new_key, serve
from dialkit import Client

SCOPES = ("calls:read", "campaigns:read", "leads:write", "calls:originate")


def _ms(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered) * 1000, ordered[int(0.9 * (len(ordered) - 1))] * 1000


async def measure(base_url: str, key: str, calls: int,
                  warm_up: int = 20) -> dict[str, dict[str, list[float]]]:
    """Per operation and side, the seconds of each call, interleaved REST then MCP."""
    times: dict[str, dict[str, list[float]]] = {
        op: {"rest": [], "mcp": [], "bare": []} for op in ("calls_list", "leads_create")}
    with Client(key, base_url=base_url, rate_limit=None) as client:
        campaign = next(iter(client.campaigns.list(status="paused", limit=1))).id
        rest: dict[str, Callable[[int], Any]] = {
            "calls_list": lambda i: next(client.calls.list(limit=50).pages()),
            "leads_create": lambda i: client.leads.create(
                campaign_id=campaign, phone=f"+121255{i:05d}"),
        }
        arguments: dict[str, Callable[[int], dict[str, Any]]] = {
            "calls_list": lambda i: {"limit": 50},
            "leads_create": lambda i: {"campaign_id": campaign, "phone": f"+121255{i:05d}"},
        }
        async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {key}"},
                                      timeout=30) as http:
            checked = streamable_http_client(base_url + "/mcp", http_client=http)
            unchecked = streamable_http_client(base_url + "/mcp", http_client=http)
            async with McpClient(checked) as tools, McpClient(unchecked) as bare:
                await bare.list_tools()
                bare.session._tool_output_schemas = dict.fromkeys(times)  # skip the check
                for i in range(-warm_up, calls):  # the first ones warm every side up
                    for op in times:
                        n = 3 * (i + warm_up)
                        began = time.perf_counter()
                        rest[op](n)
                        first = time.perf_counter()
                        result = await tools.call_tool(op, arguments[op](n + 1))
                        second = time.perf_counter()
                        plain = await bare.call_tool(op, arguments[op](n + 2))
                        ended = time.perf_counter()
                        assert not result.is_error and not plain.is_error, result.content
                        if i >= 0:
                            times[op]["rest"].append(first - began)
                            times[op]["mcp"].append(second - first)
                            times[op]["bare"].append(ended - second)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=300, help="calls of each kind per side")
    parser.add_argument("--warm-up", type=int, default=20, help="unmeasured calls first")
    options = parser.parse_args()
    calls = options.calls
    key = new_key()
    with serve(config_file(key, scale="small", rate_limit_scale=0, scopes=SCOPES)) as url:
        times = anyio.run(measure, url, key, calls, options.warm_up)
    print(f"{calls} calls of each, interleaved; median (p90) ms per call")
    print("| operation | REST via dialkit.Client | MCP, SDK client | added | "
          "MCP, answer not re-checked | added |")
    print("|---|---|---|---|---|---|")
    for op, sides in times.items():
        rest, rest90 = _ms(sides["rest"])
        mcp, mcp90 = _ms(sides["mcp"])
        bare, bare90 = _ms(sides["bare"])
        print(f"| {op} | {rest:.2f} ({rest90:.2f}) | {mcp:.2f} ({mcp90:.2f}) | "
              f"{mcp - rest:+.2f} ms | {bare:.2f} ({bare90:.2f}) | {bare - rest:+.2f} ms |")


if __name__ == "__main__":
    main()
