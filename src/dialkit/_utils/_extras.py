"""The optional parts of dialkit, and the ImportError that says which one to install.

``pip install dialkit`` installs what every user needs: the client, frames and their
cache, leads, compliance, analytics and plots, and uvicorn for ``dialkit webhooks
listen``. The emulator, the MCP server, the notebook explorer, the demo and Dask need
packages most users never load, so they are extras (pyproject.toml's
``[project.optional-dependencies]``). Each extra's modules
import its packages under :func:`needs`: used without the extra, the feature fails at
once with ``pip install 'dialkit[sandbox]'`` in its message, not with "No module
named 'fastapi'" from deep inside.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

_MCP = frozenset({"mcp", "mcp_types", "starlette"})
_SANDBOX = _MCP | {"fastapi", "h11", "httptools"}  # the emulator serves MCP too
_NOTEBOOK = frozenset({"ipywidgets", "ipykernel", "IPython"})
_DEMO = _SANDBOX | _NOTEBOOK | {"nbclient", "nbconvert", "nbformat", "jupyter_client",
                                "traitlets", "bs4"}

PACKAGES: dict[str, frozenset[str]] = {
    "sandbox": _SANDBOX, "mcp": _MCP, "notebook": _NOTEBOOK, "demo": _DEMO,
    "dask": frozenset({"dask", "distributed"})}
"""By extra, the top-level modules dialkit imports from the packages it installs."""

FEATURES = {"sandbox": "the emulator (dialkit.sandbox, Client.sandbox)",
            "mcp": "the MCP server (dialkit.mcp)",
            "notebook": "the notebook explorer (dialkit.analytics.explore)",
            "demo": "dialkit demo",
            "dask": "running on Dask (a Dask frame or a dataset's path with compute=False)"}
"""What each extra is for, as its error names it."""


@contextmanager
def needs(extra: str) -> Iterator[None]:
    """Imports under this block that fail for want of one of ``extra``'s packages raise
    an :class:`ImportError` naming the extra and the command that installs it.

    An import error of any other module (a bug of dialkit's own) goes up unchanged.
    Blocks nest: the demo's block turns the emulator's error into one naming
    ``dialkit[demo]``, which brings the emulator too.
    """
    try:
        yield
    except ImportError as exc:
        missing = (exc.name or "").partition(".")[0]
        if missing not in PACKAGES[extra]:
            raise
        raise ImportError(f"{FEATURES[extra]} needs the {extra!r} extra of dialkit, "
                          f"which is not installed here ({missing} could not be "
                          f"imported); install it with: pip install 'dialkit[{extra}]'",
                          name=exc.name) from exc
