"""The Parquet cache behind ``client.frames``: one folder per frame and filters.

Layout under the cache root (``$DIALKIT_CACHE_DIR``, else the platform's user
cache folder), every folder ``0700`` and every file ``0600`` because frames
hold personal data::

    <root>/<service>/<resource>-<filters digest>/
        data.parquet       the frame, written with page checksums
        manifest.json      what it holds: resource, filters, rows, bytes, when
        partial/           an interrupted load: page chunks and the next cursor
        .lock              held while a load reads or writes the entry

``<service>`` is a digest of the service's identity and the key's credential
id (never its secret), so two keys or two services never share an entry. The
identity is the base URL, or for a sandbox started by ``Client.sandbox()`` its
world's id, so a world kept in a file (``db=``) finds its cache again in a new
session whatever port it gets. Every file is
written to a temporary name and renamed, so a crash leaves the old file or the
new one, never half of one; a file that fails its size or checksum on reading
is treated as absent and fetched again.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import shutil
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson
import pandas as pd
import platformdirs
import pyarrow as pa
import pyarrow.parquet as pq
from filelock import FileLock

from ._schemas import Schema

if TYPE_CHECKING:
    from ..client import Client

logger = logging.getLogger("dialkit.frames")

CACHE_DIR_VARIABLE = "DIALKIT_CACHE_DIR"
"""The environment variable naming the cache folder, where not the user cache folder."""
FORMAT_VERSION = 1
"""Bumped when the layout or a schema changes; entries of another version are refetched."""

_DIRECTORY_MODE = 0o700
_FILE_MODE = 0o600
_TEMPORARY = re.compile(r"\.(?:data\.parquet|manifest\.json|state\.json|\d{6}\.parquet)\..+")
"""Names of the temporary files writes rename into place (``tempfile`` adds a suffix)."""

RESUME_WINDOW = timedelta(minutes=10)
"""How long the pages of an interrupted load may be resumed. Past it they are
dropped and the load starts again, so no load returns pages read long before
it; a cached frame's ``fetched_at`` is when its first page was read."""


def digest(value: Any) -> str:
    """A short stable digest of JSON-able data (filters, service identity)."""
    return hashlib.sha256(orjson.dumps(value, option=orjson.OPT_SORT_KEYS)).hexdigest()[:16]


def _private_dir(path: Path) -> Path:
    """Make ``path`` and every missing folder above it, each owner-only."""
    for folder in [*reversed(path.parents), path]:
        if not folder.exists():
            folder.mkdir(mode=_DIRECTORY_MODE, exist_ok=True)
            folder.chmod(_DIRECTORY_MODE)
    return path


def _replace(temporary: Path, target: Path) -> None:
    """Make ``temporary`` owner-only and rename it over ``target`` (atomic on one file system).

    No fsync: the rename protects against a crashed or interrupted process,
    which is what a notebook meets; a lost machine loses at most a cache.
    """
    temporary.chmod(_FILE_MODE)
    os.replace(temporary, target)


def write_json(path: Path, data: Any) -> None:
    """Write JSON atomically, owner-only."""
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    with os.fdopen(fd, "wb") as handle:
        handle.write(orjson.dumps(data, option=orjson.OPT_INDENT_2))
    _replace(Path(name), path)


def read_json(path: Path) -> Any:
    """Read JSON, or ``None`` when the file is absent or not valid JSON."""
    try:
        return orjson.loads(path.read_bytes())
    except (FileNotFoundError, orjson.JSONDecodeError):
        return None


def write_parquet(path: Path, frame: pd.DataFrame) -> int:
    """Write ``frame`` atomically with page checksums; its size in bytes."""
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    os.close(fd)
    table = pa.Table.from_pandas(frame, preserve_index=False)
    pq.write_table(table, name, write_page_checksum=True)
    _replace(Path(name), path)
    return path.stat().st_size


def read_parquet(path: Path, schema: Schema, size: int | None = None) -> pd.DataFrame | None:
    """Read a frame, or ``None`` if the file is absent, cut short or corrupt."""
    try:
        if size is not None and path.stat().st_size != size:
            raise OSError(f"{path.name} has {path.stat().st_size} bytes, expected {size}")
        table = pq.read_table(path, page_checksum_verification=True, memory_map=True)
        # One block per column, each Arrow column freed once converted: half the
        # peak memory of a plain to_pandas(), and far fewer page faults.
        return schema.conform(table.to_pandas(split_blocks=True, self_destruct=True))
    except FileNotFoundError:
        return None
    except (OSError, ValueError, pa.ArrowException) as exc:
        logger.warning("cache file %s is unreadable (%s); fetching it again", path, exc)
        return None


class CacheMissError(LookupError):
    """``refresh="offline"`` asked for a frame the cache does not hold."""


def age(manifest: Mapping[str, Any]) -> timedelta:
    """How long ago the manifest's frame was fetched."""
    return datetime.now(UTC) - datetime.fromisoformat(manifest["fetched_at"])


def lookup(entry: Entry, schema: Schema, refresh: str,
           max_age: timedelta) -> tuple[pd.DataFrame | None, pd.DataFrame | None]:
    """What the cache offers a load: (the frame to return as it is, the frame to refresh).

    ``refresh="offline"`` returns the cached frame or raises
    :class:`CacheMissError`; ``"auto"`` returns it while younger than
    ``max_age``; otherwise the cached frame (if any) is the base of a refresh.
    """
    cached = entry.read(schema)
    if refresh == "offline" and cached is None:
        raise CacheMissError(f"no cached {entry.resource} frame for {dict(entry.filters)}: "
                             "load it once online (refresh='auto' or 'full')")
    if cached is not None and (refresh == "offline"
                               or (refresh == "auto" and age(cached[1]) < max_age)):
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
        of them can be in use.
        """
        _private_dir(self.path)
        with FileLock(self.path / ".lock", mode=_FILE_MODE):
            _remove_temporaries(self.path)
            _remove_temporaries(self.path / "partial")
            yield

    def manifest(self) -> dict[str, Any] | None:
        """The entry's manifest, or ``None`` when absent, corrupt or of another version."""
        manifest = read_json(self.path / "manifest.json")
        if not isinstance(manifest, dict) or manifest.get("format") != FORMAT_VERSION:
            return None
        return manifest

    def read(self, schema: Schema) -> tuple[pd.DataFrame, dict[str, Any]] | None:
        """The cached frame and its manifest, or ``None`` if either is missing or bad."""
        manifest = self.manifest()
        if manifest is None:
            return None
        frame = read_parquet(self.data_path, schema, manifest.get("bytes"))
        return None if frame is None else (frame, manifest)

    def write(self, frame: pd.DataFrame, **facts: Any) -> dict[str, Any]:
        """Store ``frame`` and a new manifest (``facts`` are kept in it); return the manifest."""
        _private_dir(self.path)
        size = write_parquet(self.data_path, frame)
        manifest = {
            "format": FORMAT_VERSION, **self.identity, "resource": self.resource,
            "filters": dict(self.filters), "rows": len(frame), "bytes": size,
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
        if state is None or state.get("plan") != dict(plan) or not state.get("chunks"):
            return None
        try:
            started = datetime.fromisoformat(state["started_at"])
        except (KeyError, TypeError, ValueError):
            return None
        return state if datetime.now(UTC) - started < RESUME_WINDOW else None

    def start(self, plan: Mapping[str, Any]) -> str:
        """Forget any earlier progress and record a new load's plan; when it started."""
        self.clear()
        _private_dir(self.path)
        started_at = datetime.now(UTC).isoformat()
        write_json(self.path / "state.json", {"plan": dict(plan), "chunks": 0, "cursor": None,
                                              "started_at": started_at})
        return started_at

    def add(self, number: int, frame: pd.DataFrame, cursor: str | None,
            plan: Mapping[str, Any], started_at: str) -> None:
        """Keep page ``number`` (0-based) of the load with ``plan``, and the cursor after it."""
        write_parquet(self.path / f"{number:06d}.parquet", frame)
        write_json(self.path / "state.json", {"plan": dict(plan), "chunks": number + 1,
                                              "cursor": cursor, "started_at": started_at})

    def frames(self, schema: Schema) -> list[pd.DataFrame] | None:
        """The saved pages, or ``None`` if any of them is unreadable."""
        state = self.state() or {"chunks": 0}
        pages = [read_parquet(self.path / f"{n:06d}.parquet", schema)
                 for n in range(state["chunks"])]
        return None if any(page is None for page in pages) else pages

    def clear(self) -> None:
        """Forget the load in progress."""
        shutil.rmtree(self.path, ignore_errors=True)


def _remove_temporaries(folder: Path) -> None:
    """Delete the temporary files a killed write left in ``folder``."""
    if folder.is_dir():
        for item in folder.iterdir():
            if _TEMPORARY.fullmatch(item.name):
                item.unlink(missing_ok=True)


_COLUMNS = ("resource", "filters", "rows", "bytes", "fetched_at", "path")


def cache_root(root: str | os.PathLike[str] | None = None) -> Path:
    """The cache folder: ``root``, else ``$DIALKIT_CACHE_DIR``, else the platform's
    user cache folder (``~/.cache/dialkit`` on Linux)."""
    return Path(root or os.environ.get(CACHE_DIR_VARIABLE)
                or platformdirs.user_cache_dir("dialkit"))


def cache_info(root: str | os.PathLike[str] | None = None) -> pd.DataFrame:
    """One row per cached frame of every service and key under the cache folder:
    ``service``, ``credential_id``, then the columns of :meth:`Cache.info`.

    Examples:
        >>> import dialkit.frames
        >>> client = dialkit.Client.sandbox()
        >>> calls = client.frames.calls()
        >>> info = dialkit.frames.cache_info()
        >>> info.columns[:3].tolist(), "calls" in set(info["resource"])
        (['service', 'credential_id', 'resource'], True)
        >>> client.close()
    """
    folders = sorted(cache_root(root).glob("*/*-*"))
    return _info(folders, ("service", "credential_id", *_COLUMNS))


def clear_cache(root: str | os.PathLike[str] | None = None) -> int:
    """Delete every cached frame under the cache folder, of every service and key;
    how many. Each entry is removed under its lock, so a load in progress finishes
    first."""
    services = sorted(path for path in cache_root(root).glob("*") if path.is_dir())
    removed = _clear(sorted(cache_root(root).glob("*/*-*")))
    for service in services:
        shutil.rmtree(service, ignore_errors=True)
    return removed


def _clear(folders: list[Path], resource: str | None = None) -> int:
    """Delete the entry ``folders`` (of ``resource`` only, when given), each under its
    lock; how many held anything."""
    removed = 0
    for folder in folders:
        name = folder.name.rsplit("-", 1)[0]
        if folder.is_dir() and (resource is None or name == resource):
            with Entry(folder, name, {}, {}).locked():
                held = any(item.name != ".lock" for item in folder.iterdir())
                shutil.rmtree(folder, ignore_errors=True)
            removed += held
    return removed


def _info(folders: list[Path], columns: tuple[str, ...]) -> pd.DataFrame:
    """The manifests of entry ``folders`` as a frame of ``columns``."""
    rows = []
    for folder in folders:
        manifest = read_json(folder / "manifest.json")
        if isinstance(manifest, dict) and "resource" in manifest:
            rows.append({**{name: manifest.get(name) for name in columns},
                         "filters": manifest.get("filters", {}),
                         "path": str(folder / "data.parquet")})
    frame = pd.DataFrame(rows, columns=list(columns))
    frame["fetched_at"] = pd.to_datetime(frame["fetched_at"], utc=True, format="ISO8601")
    return frame.astype({"rows": "Int64", "bytes": "Int64"})


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
        """One row per cached frame: resource, filters, rows, bytes, fetched_at, path.

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

        Every entry folder goes, including one that holds only an interrupted
        load's pages or an unreadable manifest: those pages are personal data
        too, and a load after a clear must not resume from them.
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
