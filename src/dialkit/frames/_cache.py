"""The Parquet cache behind ``client.frames``: one folder per frame and filters.

Layout under the cache root (``$DIALKIT_CACHE_DIR``, else the platform's user
cache folder), every folder ``0700`` and every file ``0600`` because frames
hold personal data::

    <root>/<service>/<resource>-<filters digest>/
        data.parquet       the frame, written with page checksums
        manifest.json      what it holds: resource, filters, rows, bytes, CRC-32, when
        partial/           an interrupted load: page chunks and the next cursor
        .lock              held while a load reads or writes the entry
        .dialkit-cache     the mark that dialkit made the folder: only marked
                           folders (or, from before the mark, ones holding a
                           manifest) are ever deleted by a clear

``<service>`` is a digest of the service's identity and the key's credential
id (never its secret), so two keys or two services never share an entry. The
identity is the base URL, or for a sandbox started by ``Client.sandbox()`` its
world's id, so a world kept in a file (``db=``) finds its cache again in a new
session whatever port it gets. Every file is
written to a temporary name and renamed, so a crash leaves the old file or the
new one, never half of one. An entry is served only when its manifest is whole
(its format, the file's size and CRC-32, an aware ``fetched_at``) and its file
matches the manifest byte for byte and the frame's schema column for column
(:mod:`._cache_files`); anything else is treated as absent and fetched again. A
``fetched_at`` in the future is never fresh.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import re
import shutil
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeGuard

import orjson
import pandas as pd
import pyarrow as pa
from filelock import FileLock

from .._files._cache_folder import cache_root
from .._files._private import FILE_MODE, private_dir, refuse_link
from .._utils._base_error import (
    CacheMissError,  # noqa: F401
)
from .._utils._moments import utc_times
from ._cache_files import (
    read_json,
    read_parquet,
    read_table,
    write_json,
    write_parquet,
    write_table,
    written_time,
)
from ._schemas import Schema

if TYPE_CHECKING:
    from ..client import Client

logger = logging.getLogger("dialkit.frames")

FORMAT_VERSION = 2
"""Bumped when the layout or a schema changes; entries of another version are refetched.
2: the manifest holds the data file's CRC-32."""
MARK = ".dialkit-cache"
"""The file in each entry folder that says dialkit made it (see :func:`clear_cache`)."""
_MARK_DATA = {"kind": "dialkit.frames.cache", "about": "an entry of dialkit's frame cache: "
              "dialkit cache clear deletes it"}
_SERVICE = re.compile(r"[0-9a-f]{16}")
"""The name of a service's folder (:func:`digest` of its identity)."""
_TEMPORARY = re.compile(
    r"\.(?:data\.parquet|manifest\.json|state\.json|\.dialkit-cache|\d{6}\.parquet)\..+")
"""Names of the temporary files writes rename into place (``tempfile`` adds a suffix)."""

RESUME_WINDOW = timedelta(minutes=10)
"""How long the pages of an interrupted load may be resumed. Past it they are
dropped and the load starts again, so no load returns pages read long before
it; a cached frame's ``fetched_at`` is when its first page was read."""


def digest(value: Any) -> str:
    """A short stable digest of JSON-able data (filters, service identity)."""
    return hashlib.sha256(orjson.dumps(value, option=orjson.OPT_SORT_KEYS)).hexdigest()[:16]


def fresh(manifest: Mapping[str, Any], max_age: timedelta) -> bool:
    """Whether the manifest's frame was fetched less than ``max_age`` ago. One fetched
    "in the future" is not: the clock was put back, or the manifest is wrong."""
    fetched_at = written_time(manifest.get("fetched_at"))
    return fetched_at is not None and timedelta(0) <= datetime.now(UTC) - fetched_at < max_age


def lookup(entry: Entry, schema: Schema, refresh: str, max_age: timedelta,
           written: datetime | None = None) -> tuple[pd.DataFrame | None, pd.DataFrame | None]:
    """What the cache offers a load: (the frame to return as it is, the frame to refresh).

    ``refresh="offline"`` returns the cached frame or raises
    :class:`CacheMissError`; ``"auto"`` returns it while younger than
    ``max_age`` and fetched after ``written`` (the client's own last write to it);
    otherwise the cached frame (if any) is the base of a refresh.
    """
    cached = entry.read(schema)
    if refresh == "offline" and cached is None:
        raise CacheMissError(f"no cached {entry.resource} frame for {dict(entry.filters)}: "
                             "load it once online (refresh='auto' or 'full')")
    if cached is not None and (refresh == "offline" or (
            refresh == "auto" and fresh(cached[1], max_age)
            and (written is None or written < (written_time(cached[1].get("fetched_at"))
                                               or written)))):
        return cached[0], cached[0]
    return None, None if cached is None else cached[0]


@dataclass(frozen=True, slots=True)
class Entry:
    """The cache of one frame for one set of filters."""

    path: Path
    resource: str
    filters: Mapping[str, Any]
    identity: Mapping[str, str]

    @property
    def data_path(self) -> Path:
        """The Parquet file, readable by pandas, DuckDB, Polars or Dask."""
        return self.path / "data.parquet"

    @contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the entry's lock, so two notebooks never write it at once.

        Temporary files left by a process killed in the middle of a write are
        removed once the lock is held: every write happens under it, so none
        of them can be in use. Then the folder gets its :data:`MARK`.

        Raises:
            dialkit.errors.SymlinkError: The lock is a symbolic link.
        """
        private_dir(self.path)
        with FileLock(refuse_link(self.path / ".lock", "the frames' cache"), mode=FILE_MODE):
            _remove_temporaries(self.path)
            _remove_temporaries(self.path / "partial")
            _mark(self.path)
            yield

    def manifest(self) -> dict[str, Any] | None:
        """The entry's manifest, or ``None`` when absent, corrupt, of another version,
        or short of what a read relies on (see :func:`_whole`)."""
        manifest = read_json(self.path / "manifest.json")
        if not _whole(manifest):
            if manifest is not None:
                logger.warning("cache manifest in %s is spoilt; fetching it again", self.path)
            return None
        return manifest

    def read(self, schema: Schema) -> tuple[pd.DataFrame, dict[str, Any]] | None:
        """The cached frame and its manifest, or ``None`` if either is missing or bad."""
        manifest = self.manifest()
        if manifest is None:
            return None
        frame = read_parquet(self.data_path, schema, manifest)
        return None if frame is None else (frame, manifest)

    def write(self, frame: pd.DataFrame, **facts: Any) -> dict[str, Any]:
        """Store ``frame`` and a new manifest (``facts`` are kept in it); return the manifest."""
        private_dir(self.path)
        checks = write_parquet(self.data_path, frame)
        manifest = {
            "format": FORMAT_VERSION, **self.identity, "resource": self.resource,
            "filters": dict(self.filters), "rows": len(frame), **checks,
            "fetched_at": datetime.now(UTC).isoformat(), **facts,
        }
        write_json(self.path / "manifest.json", manifest)
        return manifest

    def partial(self) -> Partial:
        """The entry's record of an interrupted load."""
        return Partial(self.path / "partial")


@dataclass(frozen=True, slots=True)
class Partial:
    """Pages of a load in progress, kept so an interrupted load resumes.

    ``state.json`` holds the load's plan (its mode and where it must stop)
    and the cursor after the last chunk written; ``NNNNNN.parquet`` are the
    pages' rows. A chunk is written before the state that counts it.
    """

    path: Path

    def state(self) -> dict[str, Any] | None:
        """The saved state, or ``None`` when no load is in progress."""
        state = read_json(self.path / "state.json")
        return state if isinstance(state, dict) else None

    def resumable(self, plan: Mapping[str, Any]) -> dict[str, Any] | None:
        """The state of an interrupted load with ``plan``, begun within :data:`RESUME_WINDOW`."""
        state = self.state()
        if (state is None or state.get("plan") != dict(plan)
                or not _counts(state.get("chunks")) or not state.get("chunks")
                or not isinstance(state.get("cursor"), str | None)):
            return None
        started = written_time(state.get("started_at"))
        if started is None:
            return None
        return state if timedelta(0) <= datetime.now(UTC) - started < RESUME_WINDOW else None

    def start(self, plan: Mapping[str, Any]) -> str:
        """Forget any earlier progress and record a new load's plan; when it started."""
        self.clear()
        private_dir(self.path)
        started_at = datetime.now(UTC).isoformat()
        write_json(self.path / "state.json", {"plan": dict(plan), "chunks": 0, "cursor": None,
                                              "started_at": started_at})
        return started_at

    def add(self, number: int, page: pa.Table, cursor: str | None,
            plan: Mapping[str, Any], started_at: str) -> None:
        """Keep page ``number`` (0-based) of the load with ``plan``, and the cursor after it."""
        write_table(self.path / f"{number:06d}.parquet", page)
        write_json(self.path / "state.json", {"plan": dict(plan), "chunks": number + 1,
                                              "cursor": cursor, "started_at": started_at})

    def pages(self, schema: Schema) -> list[pa.Table] | None:
        """The saved pages (as :meth:`Schema.table` made them: Parquet reads a dictionary's
        values back as ``string``), or ``None`` if any of them is unreadable."""
        state = self.state() or {"chunks": 0}
        pages = [read_table(self.path / f"{n:06d}.parquet", schema)
                 for n in range(state["chunks"])]
        kept = [page.select(schema.arrow.names).cast(schema.arrow)
                for page in pages if page is not None]
        return kept if len(kept) == len(pages) else None

    def clear(self) -> None:
        """Forget the load in progress."""
        shutil.rmtree(self.path, ignore_errors=True)


def _remove_temporaries(folder: Path) -> None:
    """Delete the temporary files a killed write left in ``folder``."""
    if folder.is_dir():
        for item in folder.iterdir():
            if _TEMPORARY.fullmatch(item.name):
                item.unlink(missing_ok=True)


_COLUMNS = ("resource", "filters", "rows", "bytes", "fetched_at", "whole_at", "path")


def cache_info(root: str | os.PathLike[str] | None = None) -> pd.DataFrame:
    """One row per cached frame of every service and key under the cache folder:
    ``service``, ``credential_id``, then the columns of :meth:`Cache.info`.

    Examples:
        >>> import dialkit.frames
        >>> client = dialkit.Client.sandbox()
        >>> calls = client.frames.calls()
        >>> info = dialkit.frames.cache_info(client.cache.root)
        >>> info.columns[:3].tolist(), "calls" in set(info["resource"])
        (['service', 'credential_id', 'resource'], True)
        >>> client.close()
    """
    return _info(_entries(cache_root(root)), ("service", "credential_id", *_COLUMNS))


@dataclass(frozen=True, slots=True)
class Cleared:
    """What :func:`clear_cache` did.

    Attributes:
        removed: How many cached frames it deleted.
        left_alone: What it found under the cache folder and kept, not being a cache
            entry dialkit can prove it wrote: the user's own files and folders, import
            journals (``<service>/imports``), an entry of an older dialkit that never
            got a manifest.
    """

    removed: int
    left_alone: tuple[Path, ...]


def clear_cache(root: str | os.PathLike[str] | None = None) -> Cleared:
    """Delete every cached frame under the cache folder, of every service and key.

    Only what dialkit can prove it wrote goes: an entry folder holding its
    :data:`MARK` (or, from before the mark, a manifest of its resource), each under
    its lock so that a load in progress finishes first, then a service's folder
    left empty. The cache folder may be one the user keeps other things in
    (``$DIALKIT_CACHE_DIR=~/Documents``): whatever else is there stays, and is named
    in :attr:`Cleared.left_alone`.
    """
    top = cache_root(root)
    removed = _clear(_entries(top))
    for service in filter(_is_service, _children(top)):
        with contextlib.suppress(OSError):  # not empty: something was left alone
            service.rmdir()
    return Cleared(removed, tuple(_left_alone(top)))


def _entries(top: Path) -> list[Path]:
    """What the service folders under ``top`` hold: entry folders, and whatever else."""
    return [entry for service in filter(_is_service, _children(top))
            for entry in _children(service)]


def _children(folder: Path) -> list[Path]:
    """What ``folder`` holds, sorted; nothing when it is missing or not a folder (the
    root may be a link to one; service and entry folders never are)."""
    return sorted(folder.iterdir()) if folder.is_dir() else []


def _is_service(path: Path) -> bool:
    """Whether ``path`` is named and made as a service's folder (links are never)."""
    return bool(_SERVICE.fullmatch(path.name)) and path.is_dir() and not path.is_symlink()


def _left_alone(top: Path) -> list[Path]:
    """What is still under ``top`` after a clear: the service folders' leftovers, and
    everything else at the top."""
    return [kept for path in _children(top)
            for kept in (_children(path) if _is_service(path) else [path])]


def _resource(folder: Path) -> str:
    """The resource an entry folder is named for (``calls`` of ``calls-<digest>``)."""
    return folder.name.rsplit("-", 1)[0]


def _ours(folder: Path) -> bool:
    """Whether dialkit made the entry ``folder``: it holds the :data:`MARK`, or a
    manifest of its resource (an entry written before the mark). A link is never."""
    if folder.is_symlink() or not folder.is_dir():
        return False
    manifest = read_json(folder / "manifest.json")
    return read_json(folder / MARK) == _MARK_DATA or (
        isinstance(manifest, dict) and manifest.get("resource") == _resource(folder))


def _mark(folder: Path) -> None:
    """Put the :data:`MARK` in an entry folder (under its lock: the mark is written
    under a temporary name that the lock's holder may remove)."""
    if read_json(folder / MARK) != _MARK_DATA:
        write_json(folder / MARK, _MARK_DATA)


def _clear(folders: list[Path], resource: str | None = None) -> int:
    """Delete those entry ``folders`` (of ``resource`` only, when given) that dialkit
    made, each under its lock; how many held anything."""
    removed = 0
    for folder in folders:
        name = _resource(folder)
        if (resource is None or name == resource) and _ours(folder):
            with Entry(folder, name, {}, {}).locked():
                held = any(item.name not in (".lock", MARK) for item in folder.iterdir())
                shutil.rmtree(folder, ignore_errors=True)
            removed += held
    return removed


def _info(folders: list[Path], columns: tuple[str, ...]) -> pd.DataFrame:
    """The manifests of entry ``folders`` as a frame of ``columns`` (a value of the
    wrong type shown as missing)."""
    rows = [_row(folder, manifest, columns) for folder in folders if _ours(folder)
            and isinstance(manifest := read_json(folder / "manifest.json"), dict)
            and isinstance(manifest.get("resource"), str)]
    frame = pd.DataFrame(rows, columns=list(columns))
    for column in ("fetched_at", "whole_at"):
        frame[column] = utc_times(frame[column], f"the cache's manifests' {column}")
    return frame.astype({"rows": "Int64", "bytes": "Int64"})


def _row(folder: Path, manifest: dict[str, Any], columns: tuple[str, ...]) -> dict[str, Any]:
    """One entry's row of :func:`_info`."""
    def count(name: str) -> int | None:
        return manifest[name] if _counts(manifest.get(name)) else None

    filters = manifest.get("filters")
    return {**{name: manifest.get(name) for name in columns},
            "filters": filters if isinstance(filters, dict) else {},
            "rows": count("rows"), "bytes": count("bytes"),
            "fetched_at": written_time(manifest.get("fetched_at")),
            "whole_at": written_time(manifest.get("whole_at")),
            "path": str(folder / "data.parquet")}


def _counts(value: Any) -> bool:
    """Whether ``value`` is a count (an ``int`` not below zero, not a ``bool``)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _whole(manifest: Any) -> TypeGuard[dict[str, Any]]:
    """Whether a manifest holds what a read relies on: this format, the data file's
    rows, size and CRC-32, and an aware ``fetched_at``."""
    return (isinstance(manifest, dict) and manifest.get("format") == FORMAT_VERSION
            and all(_counts(manifest.get(name)) for name in ("rows", "bytes", "crc32"))
            and written_time(manifest.get("fetched_at")) is not None)


class Cache:
    """The cache of one client: its service and key's credential id.

    Args:
        root: The cache folder shared by every service and key.
        service: The service's identity: its base URL, or ``sandbox:<world id>``.
        credential_id: The key's credential id (never the secret).
    """

    def __init__(self, root: Path, service: str, credential_id: str) -> None:
        self.root = Path(root)
        self.identity = {"service": service, "credential_id": credential_id}
        self.path = self.root / digest(self.identity)

    @classmethod
    def for_client(cls, client: Client, root: str | os.PathLike[str] | None = None) -> Cache:
        """The cache of ``client`` under ``root`` (default: :func:`cache_root`)."""
        return cls(cache_root(root), client.service_identity, client.credential_id)

    def entry(self, resource: str, filters: Mapping[str, Any]) -> Entry:
        """The entry of ``resource`` with ``filters`` (``None`` values ignored)."""
        kept = {name: value for name, value in sorted(filters.items()) if value is not None}
        return Entry(self.path / f"{resource}-{digest(kept)}", resource, kept, self.identity)

    def info(self) -> pd.DataFrame:
        """One row per cached frame: resource, filters, rows, bytes, fetched_at, whole_at
        (when it was last read whole), path.

        Examples:
            >>> client = dialkit.Client.sandbox()
            >>> calls = client.frames.calls()
            >>> info = client.cache.info()
            >>> int(info.loc[info["resource"] == "calls", "rows"].max()) == len(calls)
            True
            >>> client.close()
        """
        return _info(self._folders(), _COLUMNS)

    def clear(self, resource: str | None = None) -> int:
        """Delete the cached frames of ``resource`` (every resource by default); how many.

        Every entry folder dialkit made goes (see :func:`clear_cache`), including
        one that holds only an interrupted load's pages or an unreadable manifest:
        those pages are personal data too, and a load after a clear must not
        resume from them. A folder here that dialkit did not make stays.
        """
        return _clear(self._folders(), resource)

    def remove(self) -> None:
        """Delete every entry of this service and key, and their folder."""
        self.clear()
        shutil.rmtree(self.path, ignore_errors=True)

    def _folders(self) -> list[Path]:
        """The entry folders (``<resource>-<digest>``) of this service and key."""
        return sorted(self.path.glob("*-*")) if self.path.is_dir() else []

    def __repr__(self) -> str:
        return f"Cache({str(self.path)!r})"
