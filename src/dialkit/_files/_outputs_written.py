"""Outputs written whole, in their own place, or not at all.

Every file or folder dialkit writes for a user (a cleaned lead file, an import's or an
audit's report, an evidence workbook or page, an exported dataset, the demo's pages)
goes through :func:`written`, for three faults a plain ``open(path, "w")`` has:

- **An output over an input.** ``--out calls.csv`` beside ``--calls calls.csv`` would
  replace the calls with the findings. :func:`refuse_overlaps` refuses, before anything
  is read or written, an output that is an input (by resolved path, which follows
  links, and by device and inode, which catches hard links), that lies in an input's
  folder or holds one, and two outputs that are one file.
- **An output through a link.** ``report.csv -> precious.txt`` opened for writing
  writes into ``precious.txt``. The output is written under a new hidden name beside
  it and renamed over it: :func:`os.replace` replaces a link itself, never its target
  (a dataset's folder at a link replaces the link too).
- **A half output that looks whole.** A full disk or a file-size limit stops a write
  part way; a kill too. The hidden name is renamed only once the write is complete;
  a failed write removes it, and so does one ended by Ctrl-C, ``SIGTERM`` or ``SIGHUP``
  (:func:`dialkit._files._stopped.cleaned_up_on_signals`: an evidence workbook or an
  export holds the account's numbers); one killed outright (``kill -9``) leaves it for
  the next write of that output to remove
  (:func:`dialkit._files._leftovers.partial_beside`). An ``OSError`` is raised again
  naming the output and what to do, never the hidden name.

A folder of Parquet files (a dataset) is written the same way, with one more rule: a
glob over its parent (DuckDB's or Polars' ``**/*.parquet``, which skip no hidden
name) must not find the unfinished files, so they are written ending in
:data:`UNFINISHED` and take their names only when complete, just before the folder is
renamed into place.

Standard library only: shared by the frames, the leads, the compliance audit, the CLI
and the demo.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from .._utils._base_error import InputError
from ._leftovers import partial_beside
from ._private import NO_FOLLOW
from ._stopped import cleaned_up_on_signals

UNFINISHED = ".unfinished"
"""The end of the name of each file of a dataset being written; removed when complete."""

_HINTS: Mapping[int, str] = {
    errno.ENOSPC: "free space on that disk, or name a folder on another",
    errno.EDQUOT: "free space within your disk quota, or name a folder on another disk",
    errno.EFBIG: "the file-size limit (ulimit -f) is below the output's size: raise it, "
                 "or write less",
    errno.EACCES: "name a folder you may write in",
    errno.EPERM: "name a folder you may write in",
    errno.EROFS: "name a folder on a disk that is not read-only",
    errno.ENOENT: "create its folder first, or name one that exists",
    errno.EISDIR: "name a file, not a folder",
    errno.ENOTDIR: "a part of its path is a file, not a folder: name a path in a folder",
}
"""What to do about the causes of a failed write that a user can mend."""


def refuse_overlaps(outputs: Mapping[str, Any],
                    inputs: Mapping[str, Any] | None = None) -> None:
    """Refuse, with a ``ValueError`` naming both, an output that would replace or change
    an input, and two outputs that are one file (the second would replace the first).

    Args:
        outputs: Each output's option as the message should name it (``"out"``, or a
            flag such as ``"--out"``) and its path; ``None`` paths are skipped.
        inputs: What each input is, as the message should say it (``"the --calls
            file"``, ``"what is being cleaned"``), and its path; a value that is not a
            path (a DataFrame) is skipped.
    """
    given = [(option, Path(path)) for option, path in outputs.items() if path is not None]
    sources = [(what, Path(path)) for what, path in (inputs or {}).items()
               if isinstance(path, str | os.PathLike)]
    for n, (option, path) in enumerate(given):
        for what, source in sources:
            _refuse_input(option, path, what, source)
        for other, earlier in given[:n]:
            if same_file(path, earlier):
                raise InputError(f"{shown(option, path)} and {shown(other, earlier)} are one "
                                 "file, which the second would replace: name two paths")


def _refuse_input(option: str, path: Path, what: str, source: Path) -> None:
    if same_file(path, source):
        raise InputError(f"{shown(option, path)} is {what}, which it would replace: name "
                         "another path")
    out, into = path.resolve(), source.resolve()
    if source.is_dir() and out.is_relative_to(into):
        raise InputError(f"{shown(option, path)} is inside {what}, which it would change: "
                         "name a path outside it")
    if into.is_relative_to(out):
        raise InputError(f"{shown(option, path)} holds {what}, which it would replace: "
                         "name another path")


def same_file(first: Path, second: Path) -> bool:
    """Whether two paths are one file or folder: the same once links are resolved, or
    the same device and inode (a hard link, a case-insensitive disk)."""
    if first.resolve() == second.resolve():
        return True
    try:
        return os.path.samefile(first, second)
    except OSError:  # one of them does not exist (yet)
        return False


def shown(option: str, path: Path | str) -> str:
    """An option with its value as the user wrote it: ``out='x.csv'`` for an argument,
    ``--out 'x.csv'`` for a flag."""
    return f"{option} {str(path)!r}" if option.startswith("-") else f"{option}={str(path)!r}"


@contextlib.contextmanager
def written(path: str | os.PathLike[str], option: str, *,
            inputs: Mapping[str, Any] | None = None, folder: bool = False,
            mode: int | None = None) -> Iterator[Path]:
    """The hidden path to write ``path``'s content to, renamed to ``path`` when the block
    ends without an error; removed, and ``path`` left as it was, when it raises.

    Args:
        path: The output: a file, or with ``folder`` a folder (an earlier one there is
            replaced whole: the caller checks that it may be).
        option: The argument or flag that named it, for a refusal's message (``"out"``,
            ``"--out"``).
        inputs: What the write reads, refused as outputs (:func:`refuse_overlaps`).
        folder: Write a folder: the hidden path is made (an empty folder), and the files
            under it whose names end with :data:`UNFINISHED` lose that ending when done.
        mode: The file's permissions, else the user's umask decides.

    Raises:
        ValueError: ``path`` is an input, or (not ``folder``) an existing folder.
        OSError: The write failed: the message names ``path``, the cause and what to do.
    """
    target = Path(path)
    refuse_overlaps({option: target}, inputs)
    if not folder and target.is_dir() and not target.is_symlink():
        raise InputError(f"{shown(option, target)} is a folder: name a file")
    partial = partial_beside(target)
    with cleaned_up_on_signals():  # SIGTERM and SIGHUP remove the partial, as Ctrl-C does
        try:
            _made(partial, folder, mode)
            yield partial
            if folder:
                _finish_parts(partial)
            _put(partial, target, folder)
        except OSError as error:
            if not _about(error, partial):
                raise
            raise failed(error, target) from None
        finally:
            _remove(partial)


def _made(partial: Path, folder: bool, mode: int | None) -> None:
    """The hidden file or folder, made new (never an existing one, nor through a link)."""
    if folder:
        partial.mkdir(mode=0o777 if mode is None else mode)
        return
    os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL | NO_FOLLOW,
                     0o666 if mode is None else mode))


def _finish_parts(folder: Path) -> None:
    """Each file under ``folder`` named ``….parquet`` + :data:`UNFINISHED` takes its name."""
    for part in folder.rglob(f"*{UNFINISHED}"):
        part.rename(part.with_name(part.name.removesuffix(UNFINISHED)))


def _put(partial: Path, target: Path, folder: bool) -> None:
    """Rename ``partial`` to ``target``; an earlier folder there is moved aside first and
    removed after (a folder cannot be renamed over one that holds files), and a link
    there is removed first (a folder cannot be renamed over a link either): the link is
    replaced, as a file's is, never what it points to."""
    if folder and target.is_symlink():
        target.unlink()
    if not folder or not target.is_dir():
        os.replace(partial, target)
        return
    old = partial_beside(target)
    os.replace(target, old)
    try:
        os.replace(partial, target)
    except OSError:
        os.replace(old, target)
        raise
    shutil.rmtree(old, ignore_errors=True)


def _about(error: OSError, partial: Path) -> bool:
    """Whether ``error`` is the output's: about the hidden path (a copy's second file),
    or about no file named (pyarrow's), not about an input the write was reading."""
    if error.filename is None:
        return True
    return any(str(name).startswith(str(partial))
               for name in (error.filename, error.filename2) if name is not None)


def failed(error: OSError, target: Path) -> OSError:
    """``error`` told of the output: its path as the file, the cause (in the system's
    words: pyarrow wraps them in its own) and what to do."""
    cause, hint = why_not_written(error)
    return OSError(error.errno, f"{cause}, so it was not written: "
                   f"{hint or 'name another path'}", str(target))


def why_not_written(error: OSError) -> tuple[str, str | None]:
    """A failed write's cause in the system's words (``no space left on device``), and
    what a user can do about it, if anything: one table for every file dialkit writes,
    outputs and import journals alike."""
    cause = os.strerror(error.errno) if error.errno else error.strerror or str(error)
    return f"{cause[:1].lower()}{cause[1:]}", _HINTS.get(error.errno or 0)


def _remove(partial: Path) -> None:
    """Remove the hidden path if it is there: under a "folder" that is a file it never
    was (``NotADirectoryError``, which would hide why the write failed)."""
    if partial.is_dir() and not partial.is_symlink():
        shutil.rmtree(partial, ignore_errors=True)
    else:
        with contextlib.suppress(FileNotFoundError, NotADirectoryError):
            partial.unlink()
