"""The monitor's state in one SQLite file: every fact read, each call's folded row, the
events held, the findings announced and the clock, written in one transaction an
observation.

One transaction is what makes a kill harmless: killed before it commits, the observation
left nothing and is read again from the receiver's store (its events are new to the
state); after, everything it changed is there. A fact is kept once by its event id, so a
replay adds nothing. The findings themselves are not kept: they are the audit's of the
calls kept, judged again on a restart; what is kept is each finding as it was announced
(its row as JSON, by its key), so that a restart announces only what changed since, and
never a finding twice.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

import pandas as pd
from filelock import FileLock, Timeout

from ..._files._private import open_no_link, private_file, refuse_link
from ..._utils._base_error import MonitorStateError
from ._facts import Fact, Held
from ._settle import Settled
from ._snapshot import from_blob, to_blob

FORMAT = 4
"""The state's format: a file of another is refused, not read as this one (2: the
findings announced are keyed by their ids written after their lengths; 3: the findings
settled are kept, their calls dropped; the calls and their judgment kept whole now and
then, and each call's row as it was then where it changed since; 4: the calls whose facts
wait for their record are listed)."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS facts (event_id TEXT PRIMARY KEY, call_id TEXT NOT NULL,
                                  fact TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS facts_by_call ON facts (call_id);
CREATE TABLE IF NOT EXISTS calls (id TEXT PRIMARY KEY, row TEXT NOT NULL,
                                  fresh INTEGER NOT NULL DEFAULT 1, was TEXT);
CREATE TABLE IF NOT EXISTS held (event_id TEXT PRIMARY KEY, kind TEXT NOT NULL,
                                 why TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS announced (key TEXT PRIMARY KEY, row TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS settled (step INTEGER PRIMARY KEY, findings BLOB NOT NULL);
CREATE INDEX IF NOT EXISTS calls_fresh ON calls (id) WHERE fresh = 1;
CREATE TABLE IF NOT EXISTS snapshot (name TEXT PRIMARY KEY, frame BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS waiting (call_id TEXT PRIMARY KEY);
"""

SNAPSHOT_FRAMES = ("calls", "findings", "opened", "dropped", "answered")
"""The frames a snapshot keeps: the calls, and the judgment's (:class:`._scope.Judged`)."""
TOLD = "told"
"""The frame a snapshot keeps beside them once its findings were told: each one's key and
row hash as the monitor last told them (:class:`._monitor.Told`)."""


def _parts(values: Iterable[str]) -> Iterator[tuple[list[str], str]]:
    """``values`` (each once, in order) 500 at a time, with the ``?`` marks of an ``IN``
    of them: SQLite's bound parameters are limited."""
    given = sorted(set(values))
    for start in range(0, len(given), 500):
        part = given[start:start + 500]
        yield part, ",".join("?" * len(part))


def _held(path: Path) -> FileLock:
    """``path`` made (owner-only: phone numbers; a link refused, not followed) and held for
    one monitor: two monitors of one state would each write the other's snapshot and
    findings over. The hold is a lock on a file beside it, which the kernel releases when
    the process ends however it ends (a kill -9 too), so a killed monitor never blocks its
    restart."""
    os.close(private_file(open_no_link(path, os.O_CREAT | os.O_RDONLY, "the monitor's state")))
    lock = FileLock(refuse_link(path.with_name(path.name + ".lock"), "the monitor's lock"),
                    mode=0o600)
    try:
        lock.acquire(timeout=0)
    except Timeout:
        raise MonitorStateError(f"{path} is held by another monitor (its lock, "
                                f"{lock.lock_file}): close that monitor, or stop its process, "
                                "or name another file") from None
    return lock


_CALL_CHANGED = """INSERT INTO calls (id, row) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET
    was = CASE WHEN calls.fresh = 0 THEN calls.row ELSE calls.was END,
    row = excluded.row, fresh = 1"""
"""A call's row in place of the one kept: the row the last snapshot held kept beside it."""


class State:
    """The SQLite file (or memory) a :class:`~._monitor.Monitor` keeps."""

    def __init__(self, path: str | Path | None) -> None:
        self.path = None if path is None else Path(path)
        self._lock = None if self.path is None else _held(self.path)
        try:
            self._db = sqlite3.connect(":memory:" if self.path is None else self.path,
                                       isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode = WAL")
            self._db.executescript(_SCHEMA)
        except sqlite3.DatabaseError as error:
            self._release()
            raise MonitorStateError(f"{self.path} is not a monitor's state ({error}): name a new "
                             "file, or the one a Monitor wrote") from None
        kept = self.meta("format")
        if kept is None:
            self._db.execute("INSERT INTO meta VALUES ('format', ?)", (str(FORMAT),))
        elif kept != str(FORMAT):
            self.close()
            raise MonitorStateError(f"{self.path} is a monitor's state of format {kept}; this "
                             f"dialkit reads format {FORMAT}: name a new file")

    def close(self) -> None:
        """Close the file, and let another monitor hold it."""
        self._db.close()
        self._release()

    def _release(self) -> None:
        if self._lock is not None:
            self._lock.release()

    def meta(self, key: str) -> str | None:
        """A value the state keeps beside its tables (the clock, the inputs' fingerprint)."""
        found = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if found is None else str(found[0])

    def known(self, event_ids: Sequence[str]) -> set[str]:
        """Which of the events are kept already."""
        return {event_id for (event_id,) in self._each(
            "SELECT event_id FROM facts WHERE event_id", event_ids)}

    def facts_of(self, call_ids: Iterable[str]) -> dict[str, list[Fact]]:
        """Every fact kept of each call."""
        found: dict[str, list[Fact]] = {}
        for call_id, fact in self._each("SELECT call_id, fact FROM facts WHERE call_id",
                                        call_ids):
            found.setdefault(call_id, []).append(Fact.from_json(fact))
        return found

    def rows_of(self, call_ids: Iterable[str]) -> dict[str, dict[str, Any]]:
        """The folded row kept of each of the calls that has one."""
        return {call_id: json.loads(row)
                for call_id, row in self._each("SELECT id, row FROM calls WHERE id", call_ids)}

    def _each(self, select: str, values: Iterable[str]) -> Iterator[tuple[Any, ...]]:
        """The rows of ``select ... IN (values)``."""
        for part, marks in _parts(values):
            yield from self._db.execute(f"{select} IN ({marks})", part)

    def calls(self) -> list[dict[str, Any]]:
        """Every call's folded row."""
        return [json.loads(row) for (row,) in self._db.execute("SELECT row FROM calls")]

    def held(self) -> list[Held]:
        """The events held, as they came."""
        return [Held(*row) for row in self._db.execute(
            "SELECT event_id, kind, why FROM held ORDER BY rowid")]

    def announced(self) -> dict[str, str]:
        """Each finding announced and not withdrawn: its row as JSON, by its key."""
        return dict(self._db.execute("SELECT key, row FROM announced"))

    def settled(self) -> Settled:
        """The findings settled (:mod:`._settle`), as each step settled them."""
        before = self.meta("settled_before")
        if before is None:
            return Settled()
        try:
            steps = [from_blob(blob) for (blob,) in self._db.execute(
                "SELECT findings FROM settled ORDER BY step")]
        except (ValueError, KeyError, OSError) as error:  # no calls left to judge them by
            raise MonitorStateError(
                f"{self.path}: the findings it settled cannot be read ({error}), and their "
                "calls were dropped: restore the file from a copy, or name a new one") from None
        return Settled(pd.Timestamp(before), frozenset(json.loads(
            self.meta("settled_open") or "[]")),
            pd.concat(steps, ignore_index=True) if steps else pd.DataFrame())

    def waiting(self) -> list[Fact]:
        """The facts of calls whose record has not come (a disposition before its call),
        as each observation listed those calls: finding them among a million facts' calls
        took 0.6-2.4 s a step of settling."""
        return [Fact.from_json(fact) for (fact,) in self._db.execute(
            "SELECT fact FROM facts WHERE call_id IN (SELECT call_id FROM waiting)")]

    def settle(self, findings: pd.DataFrame, calls: Sequence[str], keys: Sequence[str],
               meta: Mapping[str, str], unwaited: Sequence[Fact] = (),
               held: Sequence[Held] = ()) -> None:
        """One step of settling, in one transaction: the ``findings`` it settled kept
        (Feather: their types as judged), the ``calls`` it dropped and their facts deleted,
        the settled findings' ``keys`` no longer among those announced (never told again),
        and the facts no call will come for (``unwaited``) ``held`` in their place."""
        with self._transaction() as cursor:
            if len(findings):
                cursor.execute("INSERT INTO settled (findings) VALUES (?)",
                               (to_blob(findings.reset_index(drop=True)),))
            for part, marks in _parts(calls):
                cursor.execute(f"DELETE FROM calls WHERE id IN ({marks})", part)
                cursor.execute(f"DELETE FROM facts WHERE call_id IN ({marks})", part)
            cursor.executemany("DELETE FROM facts WHERE event_id = ?",
                               [(f.event_id,) for f in unwaited])
            cursor.executemany("DELETE FROM waiting WHERE call_id = ?",
                               [(call_id,) for call_id in {f.call_id for f in unwaited}])
            cursor.executemany("INSERT OR IGNORE INTO held VALUES (?, ?, ?)",
                               [(h.event_id, h.kind, h.why) for h in held])
            cursor.executemany("DELETE FROM announced WHERE key = ?", [(k,) for k in keys])
            cursor.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", meta.items())

    def snapshot(self) -> dict[str, pd.DataFrame] | None:
        """The frames kept whole at the last snapshot, by name (None: none yet, or one
        that cannot be read: it only saves judging the calls, whose rows are kept)."""
        try:
            kept = {name: from_blob(blob) for name, blob in self._db.execute(
                "SELECT name, frame FROM snapshot")}
        except (ValueError, KeyError, OSError):  # Arrow's errors are ValueErrors or OSErrors
            return None
        return kept if set(SNAPSHOT_FRAMES) <= set(kept) <= {*SNAPSHOT_FRAMES, TOLD} else None

    def since_snapshot(self) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
        """The rows of the calls changed since the last snapshot (new ones too), and of
        those it held, the row it held, by call id."""
        now, was = {}, {}
        for call_id, row, then in self._db.execute(
                "SELECT id, row, was FROM calls WHERE fresh = 1"):
            now[call_id] = json.loads(row)
            if then is not None:
                was[call_id] = json.loads(then)
        return now, was

    def keep_snapshot(self, frames: dict[str, bytes], meta: Mapping[str, str]) -> None:
        """A snapshot: ``frames`` (written by :func:`._snapshot.to_blob`) in place of the
        last one's, every call's row now the one it holds, in one transaction."""
        with self._transaction() as cursor:
            cursor.execute("DELETE FROM snapshot")
            cursor.executemany("INSERT INTO snapshot VALUES (?, ?)", frames.items())
            cursor.execute("UPDATE calls SET fresh = 0, was = NULL WHERE fresh = 1")
            cursor.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", meta.items())

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Cursor]:
        """A cursor whose work is committed whole, or rolled back whole."""
        with closing(self._db.cursor()) as cursor:
            cursor.execute("BEGIN IMMEDIATE")
            try:
                yield cursor
                cursor.execute("COMMIT")
            except BaseException:
                cursor.execute("ROLLBACK")
                raise

    def commit(self, facts: Sequence[Fact], calls: Mapping[str, dict[str, Any]],
               waiting: Sequence[str], held: Sequence[Held], announced: Mapping[str, str],
               withdrawn: Iterable[str], meta: Mapping[str, str]) -> None:
        """Everything one observation changed, in one transaction (``waiting``: the calls
        whose facts have no record yet)."""
        with self._transaction() as cursor:
            cursor.executemany("INSERT OR REPLACE INTO facts VALUES (?, ?, ?)",
                               [(f.event_id, f.call_id, f.to_json()) for f in facts])
            cursor.executemany(_CALL_CHANGED, [(k, json.dumps(row)) for k, row in calls.items()])
            cursor.executemany("INSERT OR IGNORE INTO waiting VALUES (?)",
                               [(call_id,) for call_id in waiting])
            cursor.executemany("DELETE FROM waiting WHERE call_id = ?",
                               [(call_id,) for call_id in calls])
            cursor.executemany("INSERT OR IGNORE INTO held VALUES (?, ?, ?)",
                               [(h.event_id, h.kind, h.why) for h in held])
            cursor.executemany("DELETE FROM announced WHERE key = ?",
                               [(key,) for key in withdrawn])
            cursor.executemany("INSERT OR REPLACE INTO announced VALUES (?, ?)",
                               announced.items())
            cursor.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", meta.items())
