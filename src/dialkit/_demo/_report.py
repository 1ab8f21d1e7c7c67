"""What a demo run did: each notebook's run (:class:`NotebookRun`) and the whole
(:class:`DemoReport`), plain records that :mod:`._run` fills and :mod:`._index` reads
back into the page and the summary. They sit below both, in a module of their own, so
the runner can write the index without the index importing the runner.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal


@dataclass(frozen=True)
class NotebookRun:
    """How one notebook went: ``done``, or ``failed`` (and where)."""

    name: str
    status: Literal["done", "failed"]
    seconds: float
    html: Path
    files: tuple[Path, ...] = ()
    """The files the notebook wrote into the output folder."""
    problem: str | None = None
    """Where and why it failed, in one line."""

    @property
    def title(self) -> str:
        """``Lead cleaning``: how the index and the page's browser tab name the notebook."""
        return title_of(self.name)


def title_of(name: str) -> str:
    """A notebook's title from its file's stem (``lead_cleaning`` → ``Lead cleaning``)."""
    return name.replace("_", " ").capitalize()


@dataclass(frozen=True)
class DemoReport:
    """What :func:`~._run.run_demo` did: where, on which world, each notebook's run."""

    out: Path
    scale: str
    runs: tuple[NotebookRun, ...]
    seconds: float
    headlines: dict[str, list[str]] = field(default_factory=dict)
    """Headline figures by notebook name, read from the files it wrote."""

    @property
    def index(self) -> Path:
        """The page that links everything."""
        return self.out / "index.html"

    @property
    def ok(self) -> bool:
        """Whether no notebook failed."""
        return all(run.status != "failed" for run in self.runs)
