"""The client's guard (issue 50): what it adds to an operation, and what judging a resume
of a large campaign costs.

Issue 50's targets: the guard adds at most 5 ms to a call's client-side time at p50 with a
warm DNC cache (one number), and judges the ``campaigns.resume`` of a 100,000-lead
campaign in under 2 s.

1. **One operation**, against the emulator in this process (manual clock at Monday
   15:00 UTC, so New York is in its hours): ``sms.send`` to one number, ``--calls``
   times, with the guard on (law) and off, interleaved, each with a fresh
   ``client_reference``. After the first (the DNC check, the calls' first read), a
   guarded send finds the number's DNC answer (60 s), the calls read (5 s) and its
   verdict (the minute) kept. ``calls.create`` is measured to a new number each time
   (a DNC check each, the hours judged) and to one number again and again: from its
   third call a cap could count its calls, so ``next_allowed`` runs the audit's own
   count of the caps for each.
2. **A resume's judgment**: :meth:`LawJudge.campaign` (``next_allowed`` of every lead's
   number and address state, and a refusal per forbidden lead) over ``--leads``
   synthetic leads (the numbers of ``bench_when.py``: every area code, some Canadian,
   UK, toll-free and numbers no zone is known for). Loading the leads over HTTP is the
   resume's other cost, not the guard's: measured apart on the emulator's largest
   campaign (``client.leads.list``), per lead.

Run: ``.venv/bin/python benchmarks/bench_guard.py [--calls 200] [--leads 100000]
[--runs 5]``. Results go to ``benchmarks/RESULTS.md`` by hand, with the command.
"""

from __future__ import annotations

import argparse
import statistics
import time
from datetime import UTC, datetime

import dialkit
from _timing import timed
from bench_when import numbers
from dialkit.client import GuardSettings
from dialkit.compliance import LawJudge
from dialkit.contract import Lead
from dialkit.sandbox import SandboxConfig
from dialkit.sandbox._config import ServerConfig, default_config

START = datetime(2026, 11, 2, 15, 0, tzinfo=UTC)
EASTERN = "+12125550142"
STATES = ("TX", "FL", None, "CA", "NY", None, "UT", "WA")


def emulator_config() -> SandboxConfig:
    """The default world with a manual clock at :data:`START` and no rate limit."""
    default = default_config(START)
    return SandboxConfig(server=ServerConfig(start_time=START, clock="manual",
                                             rate_limit_scale=0),
                         accounts=default.accounts)


def one_operation(on: dialkit.Client, calls: int) -> None:
    """Median and p90 of ``sms.send`` and ``calls.create`` with the guard on and off."""
    assert on.emulator is not None
    off = dialkit.Client(on.emulator.key("sending"), base_url=on.base_url,
                         rate_limit=None, guard="off")
    n = iter(range(10**9))

    def sms(client: dialkit.Client) -> None:
        client.sms.send(to=EASTERN, body="hi", client_reference=f"b-{next(n)}")

    for client in (on, off):
        sms(client)  # the warm-up: the DNC check, the calls' first read
    times: dict[str, list[float]] = {"on": [], "off": []}
    for _ in range(calls):
        times["on"].append(timed(lambda: sms(on)))
        times["off"].append(timed(lambda: sms(off)))
    report("sms.send, one number", times)
    store = on.emulator.service.store

    def call(client: dialkit.Client, to: str = EASTERN) -> None:
        with store.lock:
            store.conn.execute("UPDATE agents SET state = 'ready', held_until = NULL")
        client.calls.create(to=to, agent_extension="1001")

    fresh = iter(f"+1212555{n:04d}" for n in range(200, 10_000))
    times = {"on": [], "off": []}
    for _ in range(max(2, calls // 10)):
        times["on"].append(timed(lambda: call(on, next(fresh))))
        times["off"].append(timed(lambda: call(off, next(fresh))))
    report("calls.create, a new number each time (a cold DNC check each)", times)
    times = {"on": [], "off": []}
    for _ in range(max(2, calls // 10)):
        times["on"].append(timed(lambda: call(on)))
        times["off"].append(timed(lambda: call(off)))
    report("calls.create, one number again and again (3 calls on: a cap could count "
           "them, so the audit judges each)", times)
    off.close()


def report(what: str, times: dict[str, list[float]]) -> None:
    on, off = (statistics.median(times[k]) * 1000 for k in ("on", "off"))
    p90 = {k: sorted(v)[int(0.9 * (len(v) - 1))] * 1000 for k, v in times.items()}
    print(f"{what}: guard on {on:.2f} ms, off {off:.2f} ms (p50); the guard adds "
          f"{on - off:.2f} ms; p90 on {p90['on']:.2f}, off {p90['off']:.2f} ms "
          f"({len(times['on'])} each)")


def synthetic_leads(count: int) -> list[Lead]:
    """``count`` leads of one campaign, with ``bench_when``'s numbers and some states."""
    phones = numbers(count).tolist()
    return [Lead.model_construct(id=f"lead_{i}", phone=phone, status="new",
                                 custom_fields={"state": STATES[i % len(STATES)]})
            for i, phone in enumerate(phones)]


def resume_judgment(client: dialkit.Client, count: int, runs: int) -> None:
    """The judge's time over ``count`` leads, and the emulator's leads' load per lead."""
    leads = synthetic_leads(count)
    judge, settings = LawJudge(), GuardSettings()
    for at in (START, datetime(2026, 11, 3, 3, 0, tzinfo=UTC)):
        times, cpu = [], []
        for _ in range(runs):
            started, used = time.perf_counter(), time.process_time()
            judged = judge.campaign("cmp_bench", leads, at, settings)
            times.append(time.perf_counter() - started)
            cpu.append(time.process_time() - used)
        print(f"judge {count:,} leads at {at:%a %H:%M} UTC: {statistics.median(times):.3f} s "
              f"wall, {statistics.median(cpu):.3f} s CPU, median of {runs} "
              f"({judged.forbidden:,} forbidden)")
    campaign = max(client.campaigns.list(), key=lambda c: sum(
        1 for _ in client.leads.list(campaign_id=c.id)))
    started = time.perf_counter()
    loaded = list(client.leads.list(campaign_id=campaign.id))
    took = time.perf_counter() - started
    print(f"load {len(loaded):,} leads of a campaign over HTTP: {took:.3f} s "
          f"({took / max(1, len(loaded)) * 1e6:.0f} us a lead; "
          f"{took / max(1, len(loaded)) * 100_000:.1f} s for 100,000)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--leads", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=5)
    options = parser.parse_args()
    with dialkit.Client.sandbox(emulator_config(), key="sending", rate_limit=None) as client:
        one_operation(client, options.calls)
        resume_judgment(client, options.leads, options.runs)


if __name__ == "__main__":
    main()
