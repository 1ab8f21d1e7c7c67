"""Functions over frames as plans that run whole on pandas or partition by partition on Dask.

A :class:`Plan` names the pandas path's own functions: ``part`` computes an answer
from some rows, ``combine`` joins the answers of several parts into the one the whole
would give. The pandas path runs ``combine(part(frames))``; the Dask path
(:func:`dialkit._parallel._partitions_dask.run`) maps ``part`` over the partitions, first
shuffling the rows of each ``key`` value into one partition where ``part`` needs all
of them together (a campaign's leads and calls for the funnel), and combines the
parts' answers. So there is one implementation of every rule, and every plan is in
:data:`PLANS`, which a test holds equal to the Dask entry points.

Nothing here imports Dask: a frame is told to be Dask's by its class's module, and a
dataset's path is read with Dask only when Dask is installed (else with pyarrow, whole).
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar

import pandas as pd

DASK_EXTRA = "pip install 'dialkit[dask]'"
"""What installs Dask for dialkit (``dask[dataframe]``, ``distributed`` and ``bokeh``, which
draws its dashboard)."""

Answer = TypeVar("Answer", covariant=True)


class Lazy(Protocol[Answer]):
    """A Dask answer not computed yet (a Dask frame or a ``dask.delayed`` object), typed by
    what its ``compute()`` gives: the type ``compute=False`` returns, named without Dask's
    own classes, since Dask is an extra that a type checker may not have."""

    def compute(self, **options: Any) -> Answer:
        """The answer, computed (on the ``dask.distributed`` client in use, if any)."""


@dataclass(frozen=True)
class Plan:
    """One function over frames, as parts and their join.

    Attributes:
        name: The public function's name.
        part: The answer of some rows: takes the frames (all of one ``key`` value
            together, where ``key`` is set) and the function's options.
        combine: The whole's answer from the parts' answers stacked in one frame (in
            any order), and the options.
        key: The column whose rows ``part`` needs together in each frame, or ``None``
            when rows can be split anyhow.
        stacked: Whether ``part`` answers with a frame and ``combine`` takes the parts'
            frames stacked in one; else ``part`` answers with any object (the audit's
            part is three frames) and ``combine`` takes the list of them.
    """

    name: str
    part: Callable[..., Any]
    combine: Callable[..., Any]
    key: str | None = None
    stacked: bool = True

    def local(self, *frames: pd.DataFrame, **options: Any) -> pd.DataFrame:
        """The answer for pandas frames of a stacked plan: the whole as one part."""
        answer: pd.DataFrame = self.combine(self.part(*frames, **options), **options)
        return answer


PLANS: dict[str, Plan] = {}
"""Every plan by its function's name; the Dask entry points run these and no other."""


def register(plan: Plan) -> Plan:
    """Add ``plan`` to :data:`PLANS` (once per name) and return it."""
    if PLANS.setdefault(plan.name, plan) is not plan:
        raise ValueError(f"a plan named {plan.name!r} is registered already")
    return plan


def is_dask(value: Any) -> bool:
    """Whether ``value`` is a Dask collection (told without importing Dask)."""
    return type(value).__module__.partition(".")[0] in ("dask", "dask_expr")


def is_dataset(value: Any) -> bool:
    """Whether ``value`` is the path of a Parquet dataset: a folder, or a ``.parquet`` file
    (a lead file's path, ``vendor.csv``, is not)."""
    if not isinstance(value, str | os.PathLike):
        return False
    path = Path(value)
    return path.is_dir() or path.suffix == ".parquet"


def dask_installed() -> bool:
    """Whether ``dask.dataframe`` imports (asked only when a dataset's path is given)."""
    try:
        importlib.import_module("dask.dataframe")
    except ImportError:
        return False
    return True


def on_dask(frames: Sequence[Any], compute: bool) -> bool:
    """Whether a call with these inputs runs on Dask: a Dask frame among them, or a path
    with Dask installed. ``compute`` matters to Dask only: pandas frames give a pandas
    answer either way.

    Raises:
        ImportError: A path with ``compute=False`` (a lazy answer, which is Dask's)
            without Dask installed.
    """
    if any(is_dask(frame) for frame in frames):
        return True
    if not any(is_dataset(frame) for frame in frames):
        return False
    if dask_installed():
        return True
    if not compute:
        raise ImportError(f"compute=False asks Dask for a lazy answer, and Dask is not "
                          f"installed: {DASK_EXTRA}; or leave compute=True to read the "
                          "dataset whole with pandas")
    return False


def read_whole(source: Any) -> Any:
    """``source`` as a pandas frame when it is a dataset's path (its files checked against
    each other, :func:`checked`, then read whole with pyarrow, its partition columns beside
    the frame's), else as it is."""
    return pd.read_parquet(checked(source)) if is_dataset(source) else source


def checked(path: Any) -> Any:
    """A dataset's ``path``, its files checked against each other first: one that lacks a
    column or holds another kind of value in it (integers where the others hold phone
    numbers as text) is refused naming it, where a reader cast it and answered wrong.

    Raises:
        ColumnError: Such a file (:func:`dialkit._arrays._checked.checked_dataset`).
    """
    from .._arrays._checked import checked_dataset  # pyarrow's dataset: read paths only

    checked_dataset(path)
    return path
