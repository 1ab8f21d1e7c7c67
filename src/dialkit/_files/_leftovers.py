"""What a write killed half way leaves behind, removed by the next write.

A write that must not leave a file looking whole (an export's dataset, a cleaned lead
file, a streamed clean's spill in the temporary folder) writes under a temporary name
and renames or removes it when done. A ``kill -9`` or a power cut stops it before
either, and the temporary files stay: a streamed clean's spill is as large as the lead
file again. So each such name carries the writing process's id (:func:`tagged`), and
the next write of its kind removes those whose process no longer runs (:func:`sweep`):
a write still going on in another process is left alone.

Standard library only: shared by the frames' export, the leads' clean and the cache of
a sandbox world kept in memory.
"""

from __future__ import annotations

import glob
import os
import shutil
import tempfile
import uuid
import weakref
from pathlib import Path

PASSING_FRAMES = "dialkit-frames-"
"""The start of the name of the folder in the temporary folder that caches the frames of
a sandbox world kept in memory (:func:`passing_folder`)."""


def tagged(prefix: str) -> str:
    """``prefix`` followed by this process's id and a dot: the start of a temporary name
    that :func:`sweep` removes once this process has ended."""
    return f"{prefix}{os.getpid()}."


def partial_beside(path: Path) -> Path:
    """A hidden name beside ``path`` to write it under until it is complete (then
    renamed to ``path``): ``.NAME.PID.RANDOM.partial``. Those that earlier writes of
    ``path`` killed half way left are removed first."""
    sweep(path.parent, f".{path.name}.", suffix=".partial")
    return path.with_name(f"{tagged(f'.{path.name}.')}{uuid.uuid4().hex[:12]}.partial")


def passing_folder(prefix: str, owner: object) -> Path:
    """A new owner-only folder in the temporary folder, named by :func:`tagged` from
    ``prefix``, removed when ``owner`` is collected or the interpreter exits; the ones
    processes killed before either left are removed first (:func:`sweep`).

    For what no later session can read: the frames of a sandbox world kept in memory
    (``owner``: its client's transport, held by all it handed out), whose id never
    comes back, stayed in the user cache."""
    folder = Path(tempfile.gettempdir())
    sweep(folder, prefix)
    made = Path(tempfile.mkdtemp(prefix=tagged(prefix), dir=folder))  # 0700
    weakref.finalize(owner, shutil.rmtree, made, ignore_errors=True)
    return made


def sweep(folder: Path, prefix: str, *, suffix: str = "") -> None:
    """Remove the files and folders in ``folder`` whose names :func:`tagged` began with
    ``prefix`` (and that end with ``suffix``), left by processes no longer running; this
    user's only (a temporary folder such as ``/tmp`` is shared)."""
    for item in folder.glob(glob.escape(prefix) + "*" + glob.escape(suffix)):
        pid = item.name[len(prefix):].partition(".")[0]
        if not pid.isdigit() or running(int(pid)) or not _owned(item):
            continue
        if item.is_dir() and not item.is_symlink():
            shutil.rmtree(item, ignore_errors=True)
        else:
            item.unlink(missing_ok=True)


def running(pid: int) -> bool:
    """Whether a process ``pid`` runs on this machine (one of another user's counts).
    Elsewhere than POSIX, every process is taken to run: Windows' ``os.kill(pid, 0)``
    would send it a Ctrl-C, not ask."""
    if os.name != "posix":
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _owned(item: Path) -> bool:
    """Whether this user owns ``item``: another user's leftover is not ours to remove."""
    try:
        return item.lstat().st_uid == os.getuid()
    except OSError:  # gone meanwhile
        return False
