"""dialkit: a Python toolkit for the accounts of an outbound dialing service.

:class:`Client` calls every operation of the service's v1 contract
(:mod:`dialkit.contract`), raising :mod:`dialkit.errors` exceptions; a
faithful local emulator of the service is in :mod:`dialkit.sandbox`.

Each export is imported on first use (:mod:`dialkit._utils._lazy`): ``import
dialkit.leads`` does not import the client's httpx.

Examples:
    >>> import dialkit
    >>> client = dialkit.Client.sandbox()  # doctest: +SKIP
    >>> next(client.calls.list()).status  # doctest: +SKIP
    'completed'
"""

import os as _os
from typing import TYPE_CHECKING

from ._shown._masked import library_logging as _library_logging
from ._utils import _lazy, _wiring

if TYPE_CHECKING:
    from . import errors
    from .client import ApiData, Client, ListIterator
    from .contract import ResponseInfo

__version__ = "0.1.0"
"""dialkit's version (as the installed package's metadata has it)."""

__all__ = ["ApiData", "Client", "ListIterator", "ResponseInfo", "__version__", "errors"]

__getattr__, __dir__ = _lazy.exports(__name__)  # the imports above, on first use
_library_logging()  # dialkit's loggers: a NullHandler, numbers masked


def _law_judge() -> object:
    """The judge of the law the client's guard asks (:mod:`dialkit._utils._wiring`): the
    compliance layer's :class:`~dialkit.compliance.LawJudge`, imported on its first use."""
    from .compliance import LawJudge

    return LawJudge()


def _frames(client: "Client", cache_dir: "str | _os.PathLike[str] | None") -> object:
    """``client.frames`` (:mod:`dialkit._utils._wiring`): the frames layer's
    :class:`~dialkit.frames.CachedFrames`, imported on first use."""
    from .frames import Cache, CachedFrames

    return CachedFrames(client, Cache.for_client(client, cache_dir))


_wiring.wire(law_judge=_law_judge, frames=_frames)
