"""A number's turn (issue 71): one contact to it at a time, held from the guard's judgment
until the service answers the send, in every thread and client of one key in this
process and, through files in the cache folder, in every process of this machine.

A cap counts the contacts made before the one judged. Judged apart from its send, a
contact cannot count those judged beside it and still in flight: eight threads texting
one Florida number all saw none before them, and all eight left where three may. So the
guard judges and sends under the number's lock, and counts what it sent before the lock
is let go (a text from its answer; a call by reading the calls again).

A client counts the contacts it sent itself; another client's (of the key, in this
process or another) it knows only by reading the account's calls and texts again. So
each lock has a token, written anew at every contact sent under it (in memory, and in
the lock's ``.sent`` file beside it): a guard that finds a token it did not see last
reads the account again before it judges.

The numbers are spread over :data:`STRIPES` locks by a digest of the number: a lock's
file names no number (nor the key: its folder is a digest of the service and the key's
credential id), a key keeps at most ``2 * STRIPES`` small files, and two numbers of one
lock wait for each other's send. What no lock of this machine can hold is a contact made
on another machine (or in a process with another cache folder): it is counted once it is
read back from the service, never while in flight (docs/client.md, "The guard").
"""

from __future__ import annotations

import hashlib
import os
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path

from filelock import FileLock

from .._files._private import FILE_MODE, private_file

STRIPES = 64
"""The locks a key's numbers are spread over (a file lock and a token file each)."""


class Held:
    """A number's lock, held: its :attr:`token` (the last contact sent under it, by any
    client of the key here or any process sharing the folder), and :meth:`sent`."""

    def __init__(self, locks: NumberLocks, folder: Path | None, stripe: int) -> None:
        self.stripe = stripe
        self._locks, self._folder = locks, folder
        self.token = locks.token(folder, stripe)

    def sent(self) -> str:
        """Say that a contact went under this lock (whatever the service answered: a lost
        answer may hide a send): a new token, in memory and in the folder; the token."""
        self.token = self._locks.renew(self._folder, self.stripe)
        return self.token


class NumberLocks:
    """The numbers' locks of one key in this process (one a key and service:
    ``Transport.shared``), with their tokens in memory."""

    def __init__(self) -> None:
        self._threads = [threading.Lock() for _ in range(STRIPES)]
        self._tokens = [""] * STRIPES

    @contextmanager
    def held(self, phone: str, folder: Path | None) -> Iterator[Held]:
        """Hold ``phone``'s lock in this process and, with a ``folder`` (None: this
        process alone), in every process that shares it."""
        stripe = hashlib.sha256(phone.encode()).digest()[0] % STRIPES
        across = nullcontext() if folder is None else FileLock(
            folder / f"{stripe:02x}.lock", mode=FILE_MODE)
        with self._threads[stripe], across:
            yield Held(self, folder, stripe)

    def token(self, folder: Path | None, stripe: int) -> str:
        """The lock's token: this process's, and the folder's (its ``.sent`` file)."""
        kept = "" if folder is None else _read_token(folder / f"{stripe:02x}.sent")
        return f"{self._tokens[stripe]}/{kept}"

    def renew(self, folder: Path | None, stripe: int) -> str:
        """A new token for the lock, kept in memory and written owner-only in the folder."""
        self._tokens[stripe] = uuid.uuid4().hex
        if folder is not None:
            _write_token(folder / f"{stripe:02x}.sent", self._tokens[stripe])
        return self.token(folder, stripe)


def _read_token(path: Path) -> str:
    """The token written in ``path`` ("": none yet)."""
    try:
        return path.read_text(encoding="ascii")
    except FileNotFoundError:
        return ""


def _write_token(path: Path, token: str) -> None:
    """Write ``token`` in ``path``, owner-only (an existing file's mode made so too)."""
    descriptor = private_file(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE))
    with open(descriptor, "w", encoding="ascii") as out:
        out.write(token)
