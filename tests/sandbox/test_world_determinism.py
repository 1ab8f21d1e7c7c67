"""A pinned world is the same on every run and every machine (issue 22, "Determinism").

Each build runs in a process of its own, started with another day on the machine's
clock (``time.time`` and ``datetime.now`` moved by weeks before dialkit is
imported: faketime as far as Python code sees it), another local time zone (``TZ``)
and another ``PYTHONHASHSEED``. The emulator is started the way the demo and the
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

    shift = float(sys.argv[1])
    real_time, real_time_ns = time.time, time.time_ns
    time.time = lambda: real_time() + shift
    time.time_ns = lambda: real_time_ns() + int(shift * 1e9)

    class _Shifted(_dt.datetime):
        @classmethod
        def now(cls, tz=None):
            return _dt.datetime.fromtimestamp(time.time(), tz)

        @classmethod
        def utcnow(cls):
            return _dt.datetime.now(_dt.UTC).replace(tzinfo=None) + _dt.timedelta(seconds=shift)

    _dt.datetime = _Shifted

    from dialkit.sandbox import parse_config, start

    config = {"server": {"rate_limit_scale": 0, "clock": "manual", "start_time": sys.argv[2]},
              "accounts": [{"name": "acme", "seed": 7, "scale": "small"}]}
    tables = json.loads(sys.argv[3])
    with start(parse_config(config)) as sandbox:
        store = sandbox.service.store
        digests = {"machine day": _dt.datetime.now(_dt.UTC).date().isoformat()}
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
