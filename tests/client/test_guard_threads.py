"""The guard under concurrency (issue 71), over real HTTP: a number's judgment counts the
contacts judged beside it and still in flight, in every thread of a client, every client
of its key in the process, and every process of the machine that shares the cache folder.

Florida caps a person's calls at three in 24 hours, and a text is a call (Fla. Stat.
501.616(6)(b); 47 CFR 64.1200(e)). At the session emulator's clock it is 10:00 in Miami,
inside the hours, and the emulator keeps no caps itself: whatever the guard lets through
is sent. One after another, three texts to one Florida number leave and the other five
are refused ``call_frequency``; so must they be when sent all at once.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import textwrap
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from threading import Barrier

from conftest import KEYS
from dialkit import Client
from dialkit.errors import ContactForbiddenError
from dialkit.sandbox import Sandbox

from .test_guard_texts import MIAMI

SENDS = 8
AS_SENT_ONE_BY_ONE = Counter({"sent": 3, "call_frequency": 5})
"""What eight texts to :data:`MIAMI` come to, sent one after another."""


def _text(client: Client, n: int) -> str:
    """Send the ``n``-th text: ``sent``, or the rule that refused it."""
    try:
        client.sms.send(to=MIAMI, body="Your table is ready.", client_reference=f"fl-{n}")
    except ContactForbiddenError as refused:
        return refused.rule
    return "sent"


def _at_once(clients: Sequence[Client]) -> Counter[str]:
    """:data:`SENDS` texts from as many threads, released together, over ``clients`` in
    turn."""
    start = Barrier(SENDS)

    def one(n: int) -> str:
        start.wait()
        return _text(clients[n % len(clients)], n)

    with ThreadPoolExecutor(SENDS) as pool:
        return Counter(pool.map(one, range(SENDS)))


def _texts_sent(sandbox: Sandbox) -> int:
    """The texts to :data:`MIAMI` the service holds."""
    with Client(KEYS["full"], base_url=sandbox.base_url, rate_limit=None) as reader:
        return sum(report["to"] == MIAMI for report in reader.sms.delivery_reports())


def _sender(sandbox: Sandbox, cache_dir: Path | None = None) -> Client:
    return Client(KEYS["sending"], base_url=sandbox.base_url, rate_limit=None,
                  cache_dir=cache_dir)


def test_one_after_another_three_texts_leave(sandbox: Sandbox) -> None:
    with _sender(sandbox) as client:
        assert Counter(_text(client, n) for n in range(SENDS)) == AS_SENT_ONE_BY_ONE
    assert _texts_sent(sandbox) == 3


def test_eight_threads_sharing_one_client_send_as_many_as_one_by_one(
        sandbox: Sandbox) -> None:
    with _sender(sandbox) as client:
        assert _at_once([client]) == AS_SENT_ONE_BY_ONE
    assert _texts_sent(sandbox) == 3


def test_eight_threads_over_two_clients_of_one_key_send_as_many_as_one_by_one(
        sandbox: Sandbox, tmp_path: Path) -> None:
    """Two clients of one key, each with a cache folder of its own: within a process the
    key's clients share the number's lock and its counted contacts, as its bucket."""
    with _sender(sandbox, cache_dir=tmp_path / "a") as one, \
            _sender(sandbox, cache_dir=tmp_path / "b") as other:
        assert _at_once([one, other]) == AS_SENT_ONE_BY_ONE
    assert _texts_sent(sandbox) == 3


PROCESS = textwrap.dedent("""
    import sys, time
    from collections import Counter
    from concurrent.futures import ThreadPoolExecutor
    from pathlib import Path
    from dialkit import Client
    from dialkit.errors import ContactForbiddenError

    phone, cache, go, first = sys.argv[1], sys.argv[2], Path(sys.argv[3]), int(sys.argv[4])

    def text(n):
        try:
            client.sms.send(to=phone, body="Your table is ready.", client_reference=f"fl-{n}")
        except ContactForbiddenError as refused:
            return refused.rule
        return "sent"

    with Client(rate_limit=None, cache_dir=cache) as client:
        client.me()  # connected and ready before the start
        print("ready", flush=True)
        while not go.exists():
            time.sleep(0.005)
        with ThreadPoolExecutor(4) as pool:
            print(dict(Counter(pool.map(text, range(first, first + 4)))), flush=True)
""")


def test_two_processes_sharing_a_cache_folder_send_as_many_as_one_by_one(
        sandbox: Sandbox, tmp_path: Path) -> None:
    """Four texts from each of two processes (four threads each), started together:
    across processes the number's lock is a file in the cache folder, and a token beside
    it tells a process that another one contacted a number of that lock since it last
    read the account's texts."""
    cache, go = tmp_path / "cache", tmp_path / "go"
    env = {**os.environ, "DIALKIT_API_KEY": KEYS["sending"],
           "DIALKIT_BASE_URL": sandbox.base_url}
    runs = [subprocess.Popen([sys.executable, "-c", PROCESS, MIAMI, str(cache), str(go),
                              str(first)], env=env, stdout=subprocess.PIPE, text=True)
            for first in (0, 4)]
    for run in runs:
        assert run.stdout is not None and run.stdout.readline().strip() == "ready"
    go.touch()
    said = Counter[str]()
    for run in runs:
        out, _ = run.communicate(timeout=120)
        assert run.returncode == 0, out
        said.update(eval(out.strip()))  # noqa: S307 - the dict the child printed
    assert said == AS_SENT_ONE_BY_ONE
    assert _texts_sent(sandbox) == 3
    _assert_private_and_unnamed(cache / "guard")


def _assert_private_and_unnamed(folder: Path) -> None:
    """The guard's files are the owner's alone and name neither the key nor the number."""
    made = list(folder.rglob("*"))
    assert any(path.is_file() for path in made), made
    for path in made:
        mode = stat.S_IMODE(path.stat().st_mode)
        assert mode == (0o700 if path.is_dir() else 0o600), (path, oct(mode))
        for secret in (KEYS["sending"], KEYS["sending"].split("_")[2], MIAMI, MIAMI[2:]):
            assert secret not in str(path.relative_to(folder))


def test_one_after_another_over_two_clients_of_one_key_three_texts_leave(
        sandbox: Sandbox) -> None:
    """Without threads too: each client counts the texts the other sent a moment ago,
    not only those it read within its last few seconds."""
    with _sender(sandbox) as one, _sender(sandbox) as other:
        said = Counter(_text((one, other)[n % 2], n) for n in range(SENDS))
    assert said == AS_SENT_ONE_BY_ONE
    assert _texts_sent(sandbox) == 3
