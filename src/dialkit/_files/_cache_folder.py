"""The cache folder: where the frames' Parquet cache (``dialkit.frames``) and the client
guard's locks across processes (``dialkit.client``) are kept, found one way by
both (the client may not import the frames: docs/design.md, "Layers")."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

CACHE_DIR_VARIABLE = "DIALKIT_CACHE_DIR"
"""The environment variable naming the cache folder, where not the user cache folder."""


def cache_root(root: str | os.PathLike[str] | None = None) -> Path:
    """The cache folder: ``root``, else ``$DIALKIT_CACHE_DIR``, else the platform's
    user cache folder (``~/.cache/dialkit`` on Linux)."""
    return Path(root or os.environ.get(CACHE_DIR_VARIABLE)
                or platformdirs.user_cache_dir("dialkit"))
