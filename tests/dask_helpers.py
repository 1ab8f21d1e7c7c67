"""What the Dask tests share: a local cluster, and a generated account exported as a
client's cache would export it (issue 25)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from dialkit.frames import Cache, export


@contextmanager
def local_cluster(*, processes: bool = True, memory_limit: int | str = "auto") -> Iterator[Any]:
    """A 2-worker ``LocalCluster`` of one thread each, and a client of it. Worker processes
    (the default) are what a cluster has, and have their memory limit enforced."""
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=processes,
                                  memory_limit=memory_limit, dashboard_address=":0") as local, \
            distributed.Client(local) as client:
        yield client


def exported(frames: Mapping[str, pd.DataFrame], cache_folder: Path, folder: Path) -> Path:
    """The calls and leads of ``frames`` cached as a client caches them, then exported by
    day (many partitions); the export's path."""
    cache = Cache(cache_folder, "generated", "cred_generated")
    for name in ("calls", "leads"):
        cache.entry(name, {}).write(frames[name])
    return export(cache, folder / "account", partition_by="day")
