"""What the ``dialkit`` package itself, the application layer, wires into the client: the
guard's judge and the frames.

Every client holds the guard, and the guard asks the law's one judge,
:class:`dialkit.compliance.LawJudge`, which judges by the audit's own code; every client
offers ``client.frames``, which the frames layer loads and caches. The client may import
neither layer (docs/design.md, "Layers"): each imports the client, so the client importing
it back would close a circle. So the client asks for them here, by what it knows of them
(the judge's interface, :class:`dialkit._guarding.Judge`; the frames it declares,
:class:`dialkit.client.Frames`), and ``dialkit/__init__.py``, which Python runs before any
module of the package, says here how each is made, importing its layer on first use. This
module imports nothing at run time but ``collections.abc`` and ``typing``: ``import
dialkit`` must stay light.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path

_make_law_judge: Callable[[], Any] | None = None
"""How the law's judge is made, as ``dialkit/__init__.py`` wired it."""
_make_frames: Callable[[Any, Any], Any] | None = None
"""How a client's frames are made, as ``dialkit/__init__.py`` wired it."""

_UNWIRED = ("dialkit's client found no {} wired: dialkit/__init__.py wires it, so this is a "
            "bug of dialkit's; please report it")


def wire(*, law_judge: Callable[[], Any],
         frames: Callable[[Any, Any], Any]) -> None:
    """Make the law's judge by ``law_judge()`` and a client's frames by ``frames(client,
    cache_dir)`` (``dialkit/__init__.py``, once)."""
    global _make_law_judge, _make_frames
    _make_law_judge, _make_frames = law_judge, frames


def law_judge() -> Any:
    """A new judge of the law, as the application layer wired it."""
    if _make_law_judge is None:  # dialkit/__init__.py runs first: a bug of ours if not
        raise RuntimeError(_UNWIRED.format("judge of the law"))
    return _make_law_judge()


def frames_of(client: Any, cache_dir: str | Path | None) -> Any:
    """``client``'s frames, cached under ``cache_dir``, as the application layer wired
    them."""
    if _make_frames is None:
        raise RuntimeError(_UNWIRED.format("frames"))
    return _make_frames(client, cache_dir)
