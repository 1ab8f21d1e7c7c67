"""What the ``dialkit`` package itself, the application layer, wires into a layer below it:
the guard's judge.

Every client holds the guard, and the guard asks the law's one judge,
:class:`dialkit.compliance.LawJudge`, which judges by the audit's own code. The client may
not import the compliance layer (docs/design.md, "Layers"): it would close a circle, the
audit importing the client. So the guard asks for its judge here, by its interface
(:class:`dialkit._guarding.Judge`), and ``dialkit/__init__.py``, which Python runs before
any module of the package, says here how one is made, importing the compliance layer on
the judge's first use. This module is light (no import), as ``import dialkit`` must be.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_make_law_judge: Callable[[], Any] | None = None
"""How the law's judge is made, as ``dialkit/__init__.py`` wired it."""


def wire_law_judge(make: Callable[[], Any]) -> None:
    """Make the law's judge by ``make`` (``dialkit/__init__.py``, once)."""
    global _make_law_judge
    _make_law_judge = make


def law_judge() -> Any:
    """A new judge of the law, as the application layer wired it."""
    if _make_law_judge is None:  # dialkit/__init__.py runs first: a bug of ours if not
        raise RuntimeError("dialkit's guard found no judge of the law wired: dialkit/"
                           "__init__.py wires it, so this is a bug of dialkit's; please "
                           "report it")
    return _make_law_judge()
