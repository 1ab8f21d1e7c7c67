"""A number's turn: one contact to it at a time, held from the guard's judgment
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

At their edges: a lock is waited for no longer than the call's deadline (a
holder stopped with Ctrl-Z would hold the numbers of its lock for every process of the
key), and the wait ends in :class:`TimeoutError` naming what held it; a lock file that
cannot be opened, or a token that cannot be read or written (a read-only folder, a full
disk), lets the number be held in this process alone, said once by the guard, and never
hides the answer of a contact that left. A lock folder is used only where no other user
can plant a file in it (:func:`trusted`).
"""

from __future__ import annotations

import hashlib
import logging
import math
import os
import stat
import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock, Timeout

from .._files._leftovers import partial_beside
from .._files._private import FILE_MODE, NO_FOLLOW, private_file
from .._utils._base_error import InputError

logger = logging.getLogger("dialkit.client.guard")

STRIPES = 64
"""The locks a key's numbers are spread over (a file lock and a token file each)."""


class Held:
    """A number's lock, held: its :attr:`token` (the last contact sent under it, by any
    client of the key here or any process sharing the folder), and :meth:`sent`.

    Attributes:
        folder: The folder whose lock file holds it across processes; None where it is
            held in this process alone (none was given, or it could not be used: the
            guard sets that folder aside).
    """

    def __init__(self, locks: NumberLocks, folder: Path | None, stripe: int) -> None:
        self.stripe = stripe
        self.folder = folder
        self._locks = locks
        self.token = self._across(lambda: locks.token(self.folder, stripe))

    def sent(self) -> str:
        """Say that a contact went under this lock (whatever the service answered: a lost
        answer may hide a send): a new token, in memory and in the folder; the token. A
        token the folder cannot take (a full disk) is kept in memory alone: the contact
        left, and its answer is the caller's, not this file's failure."""
        self.token = self._across(lambda: self._locks.renew(self.folder, self.stripe))
        return self.token

    def _across(self, step: Callable[[], str]) -> str:
        """``step``'s token, or where the folder fails it, the token of this process."""
        try:
            return step()
        except OSError as failed:
            logger.warning("the guard cannot use its lock folder %s (%s): numbers are "
                           "held in this process alone from now on", self.folder,
                           failed.strerror or failed)
            self.folder = None
            return step()


class NumberLocks:
    """The numbers' locks of one key in this process (one a key and service:
    ``Transport.shared``), with their tokens in memory."""

    def __init__(self) -> None:
        self._threads = [threading.Lock() for _ in range(STRIPES)]
        self._tokens = [""] * STRIPES

    @contextmanager
    def held(self, phone: str, folder: Path | None, *, wait: float) -> Iterator[Held]:
        """Hold ``phone``'s lock in this process and, with a ``folder`` (None: this
        process alone), in every process that shares it, waiting ``wait`` seconds at most
        (``math.inf``: as long as it takes).

        Raises:
            TimeoutError: The lock was not had in time; its message names the holder (a
                thread of this process, or a process holding the lock file).
        """
        stripe = hashlib.sha256(phone.encode()).digest()[0] % STRIPES
        if not self._threads[stripe].acquire(timeout=_timeout(wait)):
            raise TimeoutError("another thread of this process, sending to a number of "
                               "the same lock")
        try:
            with _across(folder, stripe, wait) as shared:
                yield Held(self, shared, stripe)
        finally:
            self._threads[stripe].release()

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


@contextmanager
def _across(folder: Path | None, stripe: int, wait: float) -> Iterator[Path | None]:
    """Hold the stripe's lock file in ``folder`` (waiting ``wait`` seconds at most); the
    folder, or None where there is none or its lock file cannot be opened (said)."""
    if folder is None:
        yield None
        return
    path = folder / f"{stripe:02x}.lock"
    lock = FileLock(path, mode=FILE_MODE, timeout=_timeout(wait))
    try:
        lock.acquire()
    except Timeout:
        raise TimeoutError(f"another process holding {path} (a process sending to a number "
                           "of the same lock: its answer is slow, or it is stopped, as by "
                           "Ctrl-Z or a debugger)") from None
    except OSError as cannot:
        logger.warning("the guard cannot hold its lock file %s (%s): numbers are held in "
                       "this process alone from now on", path, cannot.strerror or cannot)
        yield None
        return
    try:
        yield folder
    finally:
        lock.release()


def _timeout(wait: float) -> float:
    """``wait`` as a lock's timeout: -1 to wait as long as it takes, else 0 (one try) to
    the longest a thread's lock can wait."""
    return -1 if math.isinf(wait) else min(max(wait, 0), threading.TIMEOUT_MAX)


def _read_token(path: Path) -> str:
    """The token written in ``path`` ("": none yet)."""
    try:
        return path.read_text(encoding="ascii")
    except FileNotFoundError:
        return ""


def _write_token(path: Path, token: str) -> None:
    """Write ``token`` in ``path``, owner-only, as a new file renamed over it: a link
    planted at its name is replaced, never written through."""
    partial = partial_beside(path)
    try:
        descriptor = private_file(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL
                                          | NO_FOLLOW, FILE_MODE))
        with open(descriptor, "w", encoding="ascii") as out:
            out.write(token)
        os.replace(partial, path)
    except OSError:
        partial.unlink(missing_ok=True)
        raise


def trusted(folder: Path) -> Path:
    """``folder`` and ``guard/`` above it, where no other user can plant a file: folders
    (not links) of this user that others may not open.

    Raises:
        InputError: One is not, naming it and what to do (the guard then holds its
            numbers in this process alone: a link planted in a shared or group-writable
            cache folder would have its target written).
    """
    if os.name != "posix":  # elsewhere a mode is no access control
        return folder
    for each in (folder.parent, folder):
        found = each.lstat()
        if not stat.S_ISDIR(found.st_mode) or found.st_uid != os.geteuid():
            raise InputError(f"{each} is not a folder of this user: remove it, or pass "
                             "another cache_dir=")
        if stat.S_IMODE(found.st_mode) & 0o077:
            raise InputError(f"{each} is open to other users "
                             f"({stat.filemode(found.st_mode)}): make it the owner's alone "
                             f"(chmod 700 {each}), or pass another cache_dir=")
    return folder
