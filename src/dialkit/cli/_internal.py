"""An exception no command answered: dialkit's own fault, told as such (issue 61).

Each command answers the errors it expects: bad input (an
:class:`~dialkit.errors.InputError`) as ``error: ...`` with exit status 2, a refusal of
the service with 1. Anything else is a bug in dialkit, never the user's input: it is
told as an internal error with exit status :data:`EXIT_INTERNAL`, its traceback written
to an owner-only file (or shown, with ``-v``), so that the user can report it.
"""

from __future__ import annotations

import logging
import os
import sys
import tempfile
import traceback
from pathlib import Path

from dialkit._files._private import private_file

EXIT_INTERNAL = 70
"""The exit status of an internal error: ``EX_SOFTWARE`` of sysexits.h, apart from 1
(found, or refused by the service) and 2 (bad input)."""


def internal_error(error: BaseException) -> int:
    """Tell ``error`` on standard error as dialkit's own fault, its traceback shown (at
    ``-v``) or written to a file; :data:`EXIT_INTERNAL`."""
    text = "".join(traceback.format_exception(error))
    head = f"internal error: {type(error).__name__}: {error}"
    where = None if _verbose() else _written(text)
    if where is None:
        sys.stderr.write(text)
        told = "the traceback is above"
    else:
        told = f"the traceback is in {where} (or run the command again with -v to see it)"
    sys.stderr.write(f"{head}\nThis is a bug in dialkit, not in your input: please report "
                     f"it with the traceback; {told}.\n")
    return EXIT_INTERNAL


def _verbose() -> bool:
    """Whether ``-v`` was given: dialkit's records from INFO on are shown."""
    return logging.getLogger("dialkit").isEnabledFor(logging.INFO)


def _written(text: str) -> Path | None:
    """``text`` in a new owner-only file of the temporary folder (paths and values of the
    user's data may be in it); its path, or None where it cannot be written."""
    try:
        descriptor, name = tempfile.mkstemp(prefix="dialkit-error-", suffix=".txt")
        with os.fdopen(private_file(descriptor), "w", encoding="utf-8") as file:
            file.write(text)
    except OSError:
        return None
    return Path(name)
