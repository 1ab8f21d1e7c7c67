"""The typed HTTP client for every operation of the v1 contract.

Most users need only :class:`Client` (also at ``dialkit.Client``); results are
the contract's models from :mod:`dialkit.contract`, plain :class:`ApiData`
where the contract does not show a shape, and lists are
:class:`ListIterator` objects; a lead import answers an :class:`ImportResult`;
``client.frames`` offers the :class:`Frames` declared here, which :mod:`dialkit.frames`
loads.
Errors are in :mod:`dialkit.errors`. Several accounts are kept apart as named
profiles of one config file (:func:`profiles`, :func:`save_profile`). :func:`batch_key`
is the Idempotency-Key a lead import derives, for a journal to record before sending
(public again: the leads' import journal takes it by name), and
:func:`stored_refusal` says whether a refusal is the stored answer to walk past under the
chain's next key (the journal asks it too); ``TokenBucket``
was internal and warns for a release.
"""

from .._guarding import GuardSettings, ResumeJudgment
from .._utils import _lazy
from ._client import API_KEY_VARIABLE, BASE_URL_VARIABLE, Client
from ._frames_offered import REFRESH_CHOICES, FrameCache, FrameOptions, Frames, Refresh
from ._guard import Guard, Override
from ._http._pagination import ListIterator, RawPage
from ._http._results import ApiData, ImportResult
from ._http._retry import stored_refusal
from ._own_writes import OwnWrites
from ._profiles import (
    CONFIG_VARIABLE,
    PROFILE_VARIABLE,
    Profile,
    config_path,
    profiles,
    save_profile,
)
from ._resources._base import UNSET, Options, Unset, WriteOptions
from ._resources._leads import batch_key

__all__ = [
    "API_KEY_VARIABLE",
    "ApiData",
    "BASE_URL_VARIABLE",
    "CONFIG_VARIABLE",
    "Client",
    "FrameCache",
    "FrameOptions",
    "Frames",
    "Guard",
    "GuardSettings",
    "ImportResult",
    "ListIterator",
    "Options",
    "Override",
    "OwnWrites",
    "PROFILE_VARIABLE",
    "Profile",
    "REFRESH_CHOICES",
    "RawPage",
    "Refresh",
    "ResumeJudgment",
    "UNSET",
    "Unset",
    "WriteOptions",
    "batch_key",
    "config_path",
    "profiles",
    "save_profile",
    "stored_refusal",
]

__getattr__, __dir__ = _lazy.exports(__name__, {}, retired={
    "TokenBucket": "._http._ratelimit"})
