"""The service's own deliveries into a monitor (issue 83, item 5): the emulator dials its
running campaigns for an hour of its clock (``Sandbox.advance``), delivers each call's end
and disposition to a real ``Receiver`` served on loopback in this process
(``Receiver.serve``), and the receiver's handlers hand each event to a ``Monitor``: the
public path a notebook takes. Its findings then equal the audit's of the same calls as the
API lists them (without the agent join times, which no event carries), as of the latest
event."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pandas as pd
from pandas.testing import assert_frame_equal

from conftest import KEYS, START, base_config
from dialkit import Client
from dialkit.compliance import Monitor, audit
from dialkit.sandbox import Sandbox
from dialkit.webhooks import Receiver
from dialkit.webhooks.handlers import Handlers
from receivers import wait_for

KINDS = ["call.completed", "disposition.logged"]


def test_an_hour_of_the_emulators_deliveries_judged_as_they_land_equals_the_audit(
        make_sandbox: Callable[..., Sandbox], tmp_path: Path) -> None:
    config = base_config()
    config["accounts"] = config["accounts"][:1]
    config["server"]["allow_loopback_webhooks"] = True
    world = make_sandbox(config)
    inputs = {"verified_caller_ids": ()}  # every caller id unverified: findings to compare
    with Client(KEYS["full"], base_url=world.base_url, rate_limit=None) as client, \
            Monitor(**inputs) as monitor:
        handlers = Handlers()
        for kind in KINDS:
            handlers.on(kind)(monitor.observe)
        receiver = Receiver(tmp_path / "events.sqlite", "whsec_until_the_hook_exists",
                            now=world.now, handlers=handlers)
        with receiver.serve() as served:
            hook = client.webhooks.create(url=served.url, events=KINDS)
            receiver.rotate_secrets(hook.secret)
            placed = world.advance(3600).simulated["calls_placed"]
            assert placed > 0
            wait_for(lambda: len(monitor.calls) >= placed, timeout=30,
                     what="the monitor to read every call's end")
        listed = client.frames.calls(refresh="full", progress=False)
    calls = listed[listed["ended_at"] > pd.Timestamp(START)]  # the seeded world's ended before
    calls = calls.assign(agent_joined_at=calls["agent_joined_at"].where(
        calls["agent_joined_at"].isna())).sort_values(["created_at", "id"], ignore_index=True)
    assert sorted(calls["id"]) == sorted(monitor.calls["id"])
    assert_frame_equal(monitor.calls.drop(columns="agent_joined_at"),
                       calls.drop(columns="agent_joined_at"), check_categorical=False)
    found = monitor.findings
    assert len(found) and "unverified_caller_id" in set(found["rule"])
    assert_frame_equal(found, audit(calls, **inputs, as_of=monitor.as_of).findings)
