"""A griffe extension for the docs site: the docstrings' Sphinx roles as code.

The docstrings name other objects as Sphinx does (``:func:`read```,
``:class:`~dialkit.leads.CleanResult```), which editors and ``help()`` read as
they are, but Markdown shows as ``:func:`` followed by code. This extension, named in
``mkdocs.yml``, leaves the name alone in code (``~`` keeps its last part, as Sphinx
shows it) before mkdocstrings renders each docstring.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(?:func|class|meth|mod|data|attr|exc|obj|const):`(~?)([^`]+)`")
"""A Sphinx role and its target; ``~`` asks for the target's last part alone."""


def plain(text: str) -> str:
    """``text`` with each role replaced by its target in code.

    Examples:
        >>> plain("As for :func:`read`; see :class:`~dialkit.leads.CleanResult`.")
        'As for `read`; see `CleanResult`.'
    """
    return ROLE.sub(lambda m: f"`{m[2].rpartition('.')[2] if m[1] else m[2]}`", text)


class SphinxRolesAsCode(griffe.Extension):
    """Rewrites every docstring griffe loads with :func:`plain`."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = plain(obj.docstring.value)
