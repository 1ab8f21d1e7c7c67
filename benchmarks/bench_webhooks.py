"""Verified and durably stored webhook events per second on loopback, beside a plain route.

The webhooks issue's target: at least 2,000 events/s, verified (headers,
tolerance, HMAC-SHA256 in constant time) and committed before the 2xx, and no
slower than the baseline a user would write: a plain Starlette route that
verifies with ``hmac.compare_digest`` and inserts one row per request
(``INSERT OR IGNORE``, autocommit: one commit per request). Both run under
uvicorn in their own process (one core each at most: one Python process),
with the same SQLite durability, WAL and the same ``synchronous`` setting
(``full`` by default: an answered event survives a power loss; ``normal``:
only a crash of the process). The dialkit side is ``dialkit webhooks listen``
as a user runs it.

The load generator is this process: a lean asyncio HTTP/1.1 client (no HTTP
library, so that it leaves the servers most of a core) with ``--connections``
keep-alive connections posting distinct signed ``call.completed`` events
(~900 bytes, with ``call_details``) signed beforehand. Runs alternate between
the two servers (the order flips every run) and the figures are medians.
After the runs, each store must hold exactly the events it answered 2xx for.

Run: ``.venv/bin/python benchmarks/bench_webhooks.py [--seconds 8] [--runs 5]
[--connections 32] [--synchronous full]``. Results go to
``benchmarks/RESULTS.md`` by hand, with the command.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import hmac
import json
import os
import re
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

SECRET = "whsec_bench_0123456789abcdefghijklmnopqrstuv"
LISTENING = "listening on http://"
CONTENT_LENGTH = re.compile(rb"(?i)content-length: *(\d+)")


# --- the baseline server ---------------------------------------------------------------

def baseline_app(db: str, secrets: list[str], synchronous: str) -> Any:
    """A plain Starlette route: verify with hmac.compare_digest, insert one row, answer."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    conn = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute(f"PRAGMA synchronous = {synchronous.upper()}")
    conn.execute("CREATE TABLE IF NOT EXISTS events (id TEXT PRIMARY KEY, type TEXT, "
                 "created_at TEXT, body TEXT)")
    keys = [s.encode() for s in secrets]

    async def receive(request: Request) -> Response:
        body = await request.body()
        stamp = request.headers.get("service-timestamp", "")
        given = request.headers.get("service-signature", "")
        if not stamp.isdigit() or abs(time.time() - int(stamp)) > 300:
            return Response(status_code=400)
        signed = stamp.encode() + b"." + body
        signatures = [part.strip().removeprefix("sha256=") for part in given.split(",")]
        if not any(hmac.compare_digest(hmac.new(key, signed, hashlib.sha256).hexdigest(), sig)
                   for key in keys for sig in signatures):
            return Response(status_code=400)
        event = json.loads(body)
        conn.execute("INSERT OR IGNORE INTO events VALUES (?, ?, ?, ?)",
                     (event["id"], event["type"], event["created_at"], body.decode()))
        return Response(status_code=200)

    return Starlette(routes=[Route("/{path:path}", receive, methods=["POST"])])


def serve_baseline(db: str, synchronous: str) -> None:
    """Run the baseline like ``dialkit webhooks listen``: a free port, printed first."""
    import socket

    import uvicorn

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(2048)
    print(f"{LISTENING}127.0.0.1:{sock.getsockname()[1]}", flush=True)
    app = baseline_app(db, os.environ["DIALKIT_WEBHOOK_SECRETS"].split(","), synchronous)
    uvicorn.Server(uvicorn.Config(app, lifespan="off", log_level="warning",
                                  access_log=False)).run(sockets=[sock])


@contextmanager
def server(side: str, db: Path, synchronous: str) -> Iterator[tuple[str, int, int]]:
    """One of the two servers in a child process; yields its host, port and pid."""
    if side == "dialkit":
        command = ["-m", "dialkit.cli", "webhooks", "listen", "--port", "0", "--db", str(db),
                   "--synchronous", synchronous]
    else:
        command = [__file__, "--serve-baseline", str(db), "--synchronous", synchronous]
    child = subprocess.Popen([sys.executable, *command], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True,
                             env={**os.environ, "DIALKIT_WEBHOOK_SECRETS": SECRET})
    try:
        assert child.stdout is not None
        first = child.stdout.readline().strip()
        if not first.startswith(LISTENING):
            raise RuntimeError(f"the {side} server did not start: {first!r}")
        host, port = first.removeprefix(LISTENING).rsplit(":", 1)
        yield host, int(port), child.pid
    finally:
        child.terminate()
        child.wait(timeout=30)
        assert child.stdout is not None
        child.stdout.close()


# --- the load ----------------------------------------------------------------------------

def requests(count: int) -> list[tuple[str, bytes]]:
    """Distinct signed deliveries of call.completed, as whole HTTP/1.1 requests."""
    stamp = int(time.time())
    made = []
    for _ in range(count):
        event_id = f"evt_{uuid.uuid4()}"
        body = json.dumps({
            "id": event_id, "type": "call.completed", "created_at": "2026-11-02T15:00:00.000Z",
            "api_version": "v1", "schema_version": 1,
            "data": {"call_id": f"call_{uuid.uuid4()}", "direction": "outbound",
                     "status": "completed", "from": "+14155550100", "to": "+12125550123",
                     "campaign_id": f"cmp_{uuid.uuid4()}",
                     "started_at": "2026-11-02T14:58:00.000Z",
                     "answered_at": "2026-11-02T14:58:09.000Z",
                     "ended_at": "2026-11-02T14:59:00.000Z", "duration_seconds": 51.0,
                     "hangup_cause": "normal_clearing"},
            "call_details": {"schema_version": 1, "summary": {
                "status": "processing", "text": None, "next_action": None, "language": None,
                "source": None, "generated_at": None, "truncated": False},
                "disposition": {"status": "ready", "code": "interested", "notes": None,
                                "follow_up_at": None, "logged_at": "2026-11-02T14:59:00.000Z"}},
        }, separators=(",", ":")).encode()
        signature = hmac.new(SECRET.encode(), f"{stamp}.".encode() + body,
                             hashlib.sha256).hexdigest()
        head = (f"POST /hooks/dialer HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json"
                f"\r\nContent-Length: {len(body)}\r\nService-Signature: sha256={signature}\r\n"
                f"Service-Timestamp: {stamp}\r\nService-Event-Id: {event_id}\r\n"
                f"Service-Event: call.completed\r\nService-Delivery-Id: whd_{uuid.uuid4()}"
                "\r\n\r\n").encode()
        made.append((event_id, head + body))
    return made


async def _connection(host: str, port: int, queue: list[tuple[str, bytes]], stop_at: float,
                      answered: list[str], latencies: list[float]) -> None:
    reader, writer = await asyncio.open_connection(host, port)
    while queue and time.perf_counter() < stop_at:
        event_id, request = queue.pop()
        began = time.perf_counter()
        writer.write(request)
        head = await reader.readuntil(b"\r\n\r\n")
        found = CONTENT_LENGTH.search(head)
        await reader.readexactly(int(found.group(1)) if found else 0)
        latencies.append(time.perf_counter() - began)
        if not head.startswith(b"HTTP/1.1 200"):
            raise RuntimeError(f"answered {head[:40]!r}")
        answered.append(event_id)
    writer.close()
    await writer.wait_closed()


async def _load(host: str, port: int, queue: list[tuple[str, bytes]], seconds: float,
                connections: int) -> tuple[list[str], list[float], float]:
    answered: list[str] = []
    latencies: list[float] = []
    began = time.perf_counter()
    await asyncio.gather(*(_connection(host, port, queue, began + seconds, answered, latencies)
                           for _ in range(connections)))
    return answered, latencies, time.perf_counter() - began


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process so far (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure(address: tuple[str, int, int], seconds: float, connections: int,
            ceiling: int) -> tuple[list[str], float, list[float], float]:
    """Events answered 2xx, per second, their latencies, and the server's CPU time per
    event (µs), over one run."""
    host, port, pid = address
    queue = requests(int(ceiling * seconds))
    cpu = cpu_seconds(pid)
    answered, latencies, elapsed = _run(_load(host, port, queue, seconds, connections))
    cpu = cpu_seconds(pid) - cpu
    if not queue:
        raise RuntimeError("the load ran out of requests: raise --ceiling")
    return answered, len(answered) / elapsed, latencies, cpu / len(answered) * 1e6


def _run(work: Any) -> Any:
    """Run the load on uvloop when it is there (it leaves the servers more of the CPU)."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(work)
    return uvloop.run(work)


def stored_ids(db: Path) -> set[str]:
    with sqlite3.connect(db) as conn:
        ids = {row[0] for row in conn.execute("SELECT id FROM events")}
    conn.close()
    return ids


def _ms(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100)[int(q * 100) - 1] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--synchronous", choices=["full", "normal"], default="full")
    parser.add_argument("--ceiling", type=int, default=12000, help="events signed per second "
                        "of a run, beforehand (more than either side can take)")
    parser.add_argument("--warm-up", type=float, default=1.0, help="seconds per side first")
    parser.add_argument("--serve-baseline", metavar="DB", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_baseline:
        serve_baseline(args.serve_baseline, args.synchronous)
        return
    sides = ("baseline", "dialkit")
    rates: dict[str, list[float]] = {side: [] for side in sides}
    latencies: dict[str, list[float]] = {side: [] for side in sides}
    answered: dict[str, list[str]] = {side: [] for side in sides}
    cpu: dict[str, list[float]] = {side: [] for side in sides}
    with tempfile.TemporaryDirectory() as folder:
        dbs = {side: Path(folder) / f"{side}.sqlite" for side in sides}
        with server("baseline", dbs["baseline"], args.synchronous) as baseline, \
                server("dialkit", dbs["dialkit"], args.synchronous) as dialkit:
            addresses = {"baseline": baseline, "dialkit": dialkit}
            for side in sides:  # warm up
                answered[side] += measure(addresses[side], args.warm_up, args.connections,
                                          args.ceiling)[0]
            for run in range(args.runs):
                for side in sides if run % 2 == 0 else sides[::-1]:
                    ids, rate, lat, per_event = measure(addresses[side], args.seconds,
                                                        args.connections, args.ceiling)
                    answered[side] += ids
                    rates[side].append(rate)
                    latencies[side] += lat
                    cpu[side].append(per_event)
                    print(f"run {run + 1} {side}: {rate:,.0f} events/s, server CPU "
                          f"{per_event:.0f} µs/event", flush=True)
        for side in sides:
            stored = stored_ids(dbs[side])
            assert set(answered[side]) <= stored, f"{side} lost answered events"
            assert len(stored) == len(set(answered[side])), f"{side} stored unanswered events"
    print(f"\nsynchronous={args.synchronous}, {args.connections} connections, {args.runs} runs "
          f"of {args.seconds:g} s, interleaved\n")
    print("| server | events/s (median) | runs | server CPU per event | latency p50 | p99 |")
    print("|---|---|---|---|---|---|")
    for side in sides:
        runs = ", ".join(f"{r:,.0f}" for r in rates[side])
        print(f"| {side} | {statistics.median(rates[side]):,.0f} | {runs} | "
              f"{statistics.median(cpu[side]):.0f} µs | {_ms(latencies[side], 0.5):.1f} ms | "
              f"{_ms(latencies[side], 0.99):.1f} ms |")
    ratio = statistics.median(rates["dialkit"]) / statistics.median(rates["baseline"])
    print(f"\ndialkit / baseline: {ratio:.2f}x")


if __name__ == "__main__":
    main()
