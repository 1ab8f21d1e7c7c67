"""A signal that ends the process (``SIGTERM``: ``kill``, a stopped job, a service
manager; ``SIGHUP``: a closed terminal) cleans up first, as Ctrl-C does.

Ctrl-C raises ``KeyboardInterrupt`` in the main thread, so every ``with`` and
``finally`` on the way out runs: a clean's hidden outputs (:mod:`._outputs_written`)
and its spill in the temporary folder (as large as the lead file again, with its phone
numbers) are removed. ``SIGTERM`` and ``SIGHUP`` end the process at once by default,
and leave both behind. Within :func:`cleaned_up_on_signals` they raise
:class:`Stopped` instead, so the same clean-up runs; then the signal is sent again with
its default action, and the process ends as the signal asked (its exit status says
so), not as if the work had failed.

Only a signal whose handler is the default is taken, and only for the block: a
notebook's or a server's own handler is left alone, and the default is put back after.
Standard library only.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Iterator
from types import FrameType

ENDING = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))
"""The signals whose default is to end the process that are taken: ``SIGHUP`` exists
on POSIX only."""


class Stopped(BaseException):
    """A signal arrived that ends the process: raised in the main thread so that every
    clean-up on the way out runs. A ``BaseException``, as ``KeyboardInterrupt`` is: no
    ``except Exception`` on the way swallows it."""

    def __init__(self, signum: int) -> None:
        super().__init__(f"stopped by {signal.Signals(signum).name}")
        self.signum = signum


def _raise(signum: int, frame: FrameType | None) -> None:
    """The handler: later signals are ignored while the clean-up runs (a second
    ``SIGTERM`` would cut it short), then :class:`Stopped` is raised."""
    for taken in ENDING:
        if signal.getsignal(taken) is _raise:
            signal.signal(taken, signal.SIG_IGN)
    raise Stopped(signum)


@contextlib.contextmanager
def cleaned_up_on_signals() -> Iterator[None]:
    """Within the block, :data:`ENDING` signals left to their default raise
    :class:`Stopped`; when one arrives, the block's clean-up runs, then the signal is
    sent again with its default action and the process ends. Outside the main thread
    (where no handler can be set), the block runs as it is."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    taken = [each for each in ENDING if signal.getsignal(each) is signal.SIG_DFL]
    for each in taken:
        signal.signal(each, _raise)
    try:
        yield
    except Stopped as stop:
        _restore(taken)
        os.kill(os.getpid(), stop.signum)  # its default action: the process ends here
        raise  # only if the signal did not end it
    finally:
        _restore(taken)


def _restore(taken: list[int]) -> None:
    """The default action of each signal taken, put back."""
    for each in taken:
        signal.signal(each, signal.SIG_DFL)
