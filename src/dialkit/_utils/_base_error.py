"""The base of every error dialkit raises, so one ``except dialkit.errors.DialkitError``
catches them all (issue 49).

A module without imports, so the lowest layers (the law's tables, the file limits) can
derive from it without loading the contract; :mod:`dialkit.errors` names it publicly.
"""

from __future__ import annotations


class DialkitError(Exception):
    """Base of every error dialkit raises.

    Each error also keeps the built-in base it had (``ValueError`` for bad input,
    ``RuntimeError``, ``LookupError``, ``OSError``) as its second parent, so an
    ``except ValueError`` written before this base existed still catches what it caught.
    """

    __module__ = "dialkit.errors"  # where users import it: a traceback names it so


class InputError(DialkitError, ValueError):
    """Input dialkit refuses on purpose, the caller's to fix: an argument, an option, a
    file or a frame's column; the message names it and what to pass instead.

    The command line answers it as ``error: <message>`` (exit status 2); any other
    exception is dialkit's own fault, answered as an internal error (issue 61). Every
    error of bad input derives from it, so ``except InputError`` catches no bug.
    """

    __module__ = "dialkit.errors"


class WorkerMemoryError(DialkitError, MemoryError):
    """A Dask worker died while running dialkit's work on it, every time it was tried
    (``distributed``'s ``KilledWorker``): most likely of memory, its nanny stopping it past
    95 % of its limit, or the system's. The message says what to do (smaller partitions,
    more memory a worker: ``docs/scale.md``, "Memory"); the ``KilledWorker`` is its cause.
    A ``MemoryError``, not bad input: the data may be fine, the cluster too small for it."""

    __module__ = "dialkit.errors"
