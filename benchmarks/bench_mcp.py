"""Tool-call overhead of the emulator's MCP server against the same call through the client.

Issue 21's targets: the tool server's own share of a call under 1.5 ms, and
the whole call through the official SDK client, its check of the answer
included, under 5 ms. Side by side and interleaved, one call of each at a
time, against one emulator in its own process (rate limiting off, manual
clock): a read (``calls_list``, one page of 50) and a write (``leads_create``,
a new number each time, into a paused campaign, so no confirmation is asked;
the key holds ``calls:originate``, so the tool first reads the campaign's
status, as it does for any such key).

Four figures per operation, medians of the interleaved rounds (p90 beside):

- direct: the same operation through ``dialkit.Client``
  (``client.calls.list(limit=50)``'s first page, ``client.leads.create``) over
  the same loopback;
- server share: inside the emulator, the time from a ``tools/call`` request
  reaching ``/mcp`` to its answer's last byte handed to the socket, less the
  time spent waiting for the request's body and the time the executor spent
  running the operation(s) through the REST pipeline: what the tool server
  (the SDK's transport and JSON-RPC, our tool, its audit record) adds; and
  the same in CPU time of the server's thread, which a busy machine inflates
  less;
- MCP, unchecked: the whole call through the SDK's ``Client`` (one open
  Streamable HTTP session, protocol 2026-07-28) with its check of the answer
  against the output schema skipped (a second session);
- MCP, checked: the same with that check (``jsonschema``, pure Python), as an
  assistant built on the SDK pays it. The two sessions take turns to go first after
  the direct call (the first runs slower, whichever it is); the check's own cost is
  also printed as the median of each round's checked less unchecked call.

The emulator here is ``dialkit.sandbox.start`` in a child process, with two hooks that time each
``tools/call`` (``--profile`` also writes a cProfile of the server's side of
those calls only). Every ``calls_list`` answer is compared with the direct
call's page (the same ids in the same order).

Run: ``.venv/bin/python benchmarks/bench_mcp.py [--calls 300] [--profile FILE]``.
Results go to ``benchmarks/RESULTS.md`` by hand, with the command.
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import os
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx
import httpx2
import orjson
from mcp import Client as McpClient
from mcp.client.streamable_http import streamable_http_client

from _emulator import LISTENING, config_file, new_key
from dialkit import Client

SCOPES = ("calls:read", "campaigns:read", "leads:write", "calls:originate")
OPERATIONS = ("calls_list", "leads_create")
SHARES_PATH = "/_bench/mcp-shares"
"""Where the timed emulator answers (and forgets) the server shares timed so far."""
FAIR = ("Fair: the direct side is dialkit.Client, what a Python user calls instead of the "
        "tool, on the same loopback, emulator and data, interleaved call by call.")


def _ms(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered) * 1000, ordered[int(0.9 * (len(ordered) - 1))] * 1000


async def measure(base_url: str, key: str, calls: int, warm_up: int = 20
                  ) -> tuple[dict[str, dict[str, list[float]]], int]:
    """Per operation and side, the seconds of each call, interleaved direct then MCP
    (checked, unchecked); and how many ``calls_list`` answers were the direct page's."""
    times: dict[str, dict[str, list[float]]] = {
        op: {side: [] for side in ("direct", "checked", "unchecked", "share", "share_cpu")}
        for op in OPERATIONS}
    equal = 0
    with Client(key, base_url=base_url, rate_limit=None) as client:
        campaign = next(iter(client.campaigns.list(status="paused", limit=1))).id
        direct: dict[str, Callable[[int], Any]] = {
            "calls_list": lambda i: [c.id for c in next(client.calls.list(limit=50).pages()).data],
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
                sessions = [("checked", tools), ("unchecked", bare)]
                for i in range(-warm_up, calls):  # the first ones warm every side up
                    if i == 0:
                        _shares(base_url)  # forget the warm-up's
                    for op in OPERATIONS:
                        n = 3 * (i + warm_up)
                        began = time.perf_counter()
                        rest = direct[op](n)
                        took = {"direct": time.perf_counter() - began}
                        results = []
                        # each MCP session goes first in every other round: the call after
                        # the direct one runs slower (0.6 ms at load 5), whichever it is
                        order = sessions if i % 2 == 0 else sessions[::-1]
                        for k, (side, session) in enumerate(order, 1):
                            began = time.perf_counter()
                            results.append(await session.call_tool(op, arguments[op](n + k)))
                            took[side] = time.perf_counter() - began
                            assert not results[-1].is_error, results[-1].content
                        if i >= 0:
                            for side, seconds in took.items():
                                times[op][side].append(seconds)
                            equal += op == "calls_list" and all(
                                [c["id"] for c in r.structured_content["data"]] == rest
                                for r in results)
    for tool, wall, cpu in _shares(base_url):
        times[tool]["share"].append(wall)
        times[tool]["share_cpu"].append(cpu)
    return times, equal


def _shares(base_url: str) -> list[tuple[str, float, float]]:
    """The timed emulator's server shares so far (tool, wall and CPU seconds), which it
    then forgets."""
    answer = httpx.get(base_url + SHARES_PATH)
    answer.raise_for_status()
    return [(tool, wall, cpu) for tool, wall, cpu in answer.json()]


class _ShareTimer:
    """Hooks on the emulator's ``/mcp`` mount and executor that time each ``tools/call``'s
    server share (wall and CPU of the server's thread), optionally under cProfile."""

    def __init__(self, profile: bool) -> None:
        self.shares: list[tuple[str, float, float]] = []
        self.aside = [0.0, 0.0]  # wall and CPU seconds of this request spent elsewhere
        self.profiler = cProfile.Profile() if profile else None

    def _pause(self, paused: bool) -> None:
        if self.profiler is not None:
            (self.profiler.disable if paused else self.profiler.enable)()

    async def elsewhere(self, work: Awaitable[Any]) -> Any:
        """Await ``work`` (the executor's operation, the request body's arrival) and set
        its time aside."""
        self._pause(True)
        wall, cpu = time.perf_counter(), time.thread_time()
        try:
            return await work
        finally:
            self.aside[0] += time.perf_counter() - wall
            self.aside[1] += time.thread_time() - cpu
            self._pause(False)

    async def answer_shares(self, send: Any) -> None:
        body = orjson.dumps(self.shares)
        self.shares.clear()
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": body})

    async def timed(self, mount: Any, scope: Any, receive: Any, send: Any) -> None:
        """Run one ``POST /mcp`` through ``mount``; keep its share if it was a tool call."""
        body: list[bytes] = []
        whole = [False]  # the request's body has all arrived
        answered = [0.0, 0.0]

        async def waited() -> Any:
            if whole[0]:  # a watcher of the client's disconnect, while the server works
                return await receive()
            message = await self.elsewhere(receive())
            body.append(message.get("body", b""))
            whole[0] = not message.get("more_body", False)
            return message

        async def answer(message: Any) -> None:
            await send(message)
            if message["type"] == "http.response.body" and not message.get("more_body"):
                answered[:] = time.perf_counter(), time.thread_time()

        self.aside[:] = 0.0, 0.0
        self._pause(False)
        wall, cpu = time.perf_counter(), time.thread_time()
        await mount(scope, waited, answer)
        self._pause(True)
        request = orjson.loads(b"".join(body) or b"{}")
        if isinstance(request, dict) and request.get("method") == "tools/call":
            self.shares.append((request["params"]["name"], answered[0] - wall - self.aside[0],
                                answered[1] - cpu - self.aside[1]))


def timed_emulator(config: str, profile: str | None) -> None:
    """The emulator of ``config`` with each ``tools/call``'s server share kept, until SIGTERM.

    The executor's operations and the wait for a request's body are set aside; the
    ``/mcp`` mount times the rest of each ``POST``, to its answer's last byte sent.
    ``GET`` :data:`SHARES_PATH` answers the shares so far. With ``profile``, cProfile
    runs during those shares only and is written there at exit.
    """
    from dialkit.sandbox import start
    from dialkit.sandbox._http import _mcp, _mcp_mount

    timer = _ShareTimer(profile is not None)
    execute, mount = _mcp.PipelineExecutor.execute, _mcp_mount.McpMount.__call__

    async def timed_execute(self: Any, call: Any) -> Any:
        return await timer.elsewhere(execute(self, call))

    async def timed_mount(self: Any, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"] == SHARES_PATH:
            await timer.answer_shares(send)
        elif scope["type"] == "http" and scope["path"] == "/mcp" and scope["method"] == "POST":
            await timer.timed(functools.partial(mount, self), scope, receive, send)
        else:
            await mount(self, scope, receive, send)

    _mcp.PipelineExecutor.execute = timed_execute  # type: ignore[method-assign]
    _mcp_mount.McpMount.__call__ = timed_mount  # type: ignore[method-assign]
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})  # the server's thread too
    with start(config) as sandbox:
        print(LISTENING + sandbox.base_url, flush=True)
        signal.sigwait({signal.SIGTERM})
    if timer.profiler is not None and profile is not None:
        timer.profiler.dump_stats(profile)


@contextmanager
def serve_timed(config: Path, profile: str | None) -> Iterator[str]:
    """Run :func:`timed_emulator` in a child process; yield ``http://HOST:PORT``."""
    command = [sys.executable, __file__, "--emulator", str(config)]
    server = subprocess.Popen([*command, *(["--profile", profile] if profile else [])],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        first = server.stdout.readline().strip()
        if not first.startswith(LISTENING):
            raise RuntimeError(f"the emulator did not start: {first!r}")
        yield first.removeprefix(LISTENING)
    finally:
        server.terminate()
        server.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=300, help="calls of each kind per side")
    parser.add_argument("--warm-up", type=int, default=20, help="unmeasured calls first")
    parser.add_argument("--profile", metavar="FILE",
                        help="write a cProfile of the server's side of the tool calls here")
    parser.add_argument("--emulator", metavar="CONFIG", help=argparse.SUPPRESS)
    options = parser.parse_args()
    profile = None if options.profile is None else os.path.abspath(options.profile)
    if options.emulator is not None:
        timed_emulator(options.emulator, profile)
        return
    calls = options.calls
    key = new_key()
    load = os.getloadavg()[0]
    with serve_timed(config_file(key, scale="small", rate_limit_scale=0, scopes=SCOPES),
                     profile) as url:
        times, equal = anyio.run(measure, url, key, calls, options.warm_up)
    print(f"{calls} calls of each, interleaved; median (p90) ms per call; load average "
          f"{load:.2f} before, {os.getloadavg()[0]:.2f} after")
    print(FAIR)
    print("| operation | direct, dialkit.Client | server share | server share, CPU | "
          "MCP, unchecked | MCP, SDK check | added, unchecked | added, checked |")
    print("|---|---|---|---|---|---|---|---|")
    for op, sides in times.items():
        shown = {side: _ms(samples) for side, samples in sides.items()}
        direct = shown["direct"][0]
        cells = " | ".join(f"{shown[side][0]:.2f} ({shown[side][1]:.2f})" for side in
                           ("direct", "share", "share_cpu", "unchecked", "checked"))
        print(f"| {op} | {cells} | {shown['unchecked'][0] - direct:+.2f} ms | "
              f"{shown['checked'][0] - direct:+.2f} ms |")
    for op, sides in times.items():
        paired = [checked - bare for checked, bare in
                  zip(sides["checked"], sides["unchecked"], strict=True)]
        print(f"{op}: the SDK client's check, checked less unchecked call of each round: "
              f"median {statistics.median(paired) * 1000:+.2f} ms")
    print(f"calls_list answers equal to the direct page (both sessions): {equal} of {calls}")
    if profile:
        print(f"profile of the server's side: {profile}")


if __name__ == "__main__":
    main()
