"""A pinned world is the same on every run and every machine (issue 22, "Determinism").

Each build runs in a process of its own, started with another day on the machine's
clock (``time.time`` moved by weeks, and ``datetime.now`` in every loaded module
that names ``datetime``: faketime as far as Python code sees it; the ``datetime``
type itself stays, as compiled extensions check its size), another local time zone
(``TZ``) and another ``PYTHONHASHSEED``. The emulator is started the way the demo and the
notebooks start it, from a configuration with a pinned ``start_time``; the hashes of
its seeded frames must be equal.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

from conftest import START

TABLES = {"calls": "id", "leads": "id", "campaigns": "id", "dnc": "phone",
          "planted": "call_id, kind"}

_BUILD = textwrap.dedent("""
    import datetime as _dt, hashlib, json, sys, time

    import dialkit.compliance, dialkit.sandbox._http._app  # every module first: then patched
    from dialkit.sandbox import parse_config, start
    from dialkit.sandbox._state._clock import Clock

    shift = float(sys.argv[1])
    real_time, real_time_ns = time.time, time.time_ns
    time.time = lambda: real_time() + shift
    time.time_ns = lambda: real_time_ns() + int(shift * 1e9)

    class _Shifted(_dt.datetime):
        @classmethod
        def now(cls, tz=None):
            return real.fromtimestamp(time.time(), tz)

        @classmethod
        def today(cls):
            return cls.now()

    real = _dt.datetime
    for module in list(sys.modules.values()):  # every module that asks the clock by name
        if module is not _dt and getattr(module, "datetime", None) is real:
            module.datetime = _Shifted

    config = {"server": {"rate_limit_scale": 0, "clock": "manual", "start_time": sys.argv[2]},
              "accounts": [{"name": "acme", "seed": 7, "scale": "small"}]}
    tables = json.loads(sys.argv[3])
    with start(parse_config(config)) as sandbox:
        store = sandbox.service.store
        seen = Clock(manual=False).now()  # the emulator's own reading of the machine's clock
        digests = {"machine day": seen.date().isoformat()}
        for table, order in tables.items():
            rows = store.rows(f"SELECT * FROM {table} ORDER BY {order}")
            digest = hashlib.sha256()
            for row in rows:
                digest.update(repr(tuple(row)).encode())
            digests[table] = f"{len(rows)} rows {digest.hexdigest()}"
    print(json.dumps(digests))
""")


def _build(shift_days: int, tz: str, hash_seed: str) -> dict[str, str]:
    env = {**os.environ, "TZ": tz, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run(
        [sys.executable, "-c", _BUILD, str(shift_days * 86_400), START, json.dumps(TABLES)],
        capture_output=True, text=True, env=env, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    digests: dict[str, str] = json.loads(done.stdout.strip().splitlines()[-1])
    return digests


def test_two_machines_on_two_days_build_the_same_world() -> None:
    today = _build(0, "UTC", "1")
    later = _build(-40, "Pacific/Chatham", "2")
    assert today.pop("machine day") != later.pop("machine day")  # the clocks did differ
    assert set(today) == set(TABLES)
    assert all(" rows " in digest and not digest.startswith("0 rows") for digest in today.values())
    assert later == today
