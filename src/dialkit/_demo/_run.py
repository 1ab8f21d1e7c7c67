"""``dialkit demo``: the notebooks run against one emulator and written out as a report.

One emulator starts in this process; each notebook runs in a kernel of its own
(this interpreter, with ``ipykernel``) that attaches to it through the
variables of :func:`dialkit.sandbox.attach_environment`, and writes its files
into the output folder (``DIALKIT_OUTPUT_DIR``). Each executed notebook is
exported as one self-contained HTML page (plots embedded), and ``index.html``
links them with a few headline figures. A notebook that fails is still
exported, up to the failing cell, and makes :attr:`DemoReport.ok` false.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import subprocess
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from concurrent import futures
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, get_args

from .._files import _packaged
from .._files._outputs_written import why_not_written, written
from .._shown._progress import PROGRESS_VARIABLE
from .._utils._base_error import InputError
from .._utils._extras import needs
from ..client import API_KEY_VARIABLE, BASE_URL_VARIABLE
from ._index import headlines, write_index
from ._report import DemoReport, NotebookRun, title_of

with needs("demo"):  # the kernel's and the emulator's first: an install without either
    # is told so at once, not after nbformat's imports (its schema checks': seconds)
    import ipykernel.kernelspec

    from ..sandbox import Sandbox, SandboxConfig, Scale, attach_environment, default_config, start
with needs("demo"):
    import nbformat
    from jupyter_client.kernelspec import KernelSpec, KernelSpecManager
    from jupyter_client.manager import AsyncKernelManager
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError
    from nbconvert import HTMLExporter
    from traitlets.config import Config

    from ._pages import readable

NOTEBOOKS = ("lead_cleaning", "campaign_funnel", "compliance_audit", "live_compliance")
"""The notebooks the demo runs, in this order: the package's ``dialkit.notebooks``
(the repository's ``notebooks/`` folder, mapped there by pyproject.toml)."""
OUTPUT_DIR_VARIABLE = "DIALKIT_OUTPUT_DIR"
"""Where the notebooks write their files (each defaults to a fresh temporary folder)."""
DEFAULT_SCALE: Scale = "medium"
CELL_TIMEOUT_SECONDS = 300
DEMO_START = datetime(2026, 11, 2, 15, tzinfo=UTC)
"""The demo world's moment: the campaign funnel notebook's own pin, so its figures and
the demo's agree."""
_KERNEL_NAME = "dialkit-demo-python"
_INTERRUPT_GRACE_SECONDS = 10
_INLINE_PLOTS = "module://matplotlib_inline.backend_inline"

Echo = Callable[[str], None]
_EXPORT_LOG = logging.getLogger("dialkit.demo.export")
_EXPORT_LOG.setLevel(logging.ERROR)


def default_notebooks() -> list[Path]:
    """The files of :data:`NOTEBOOKS`, shipped in the package (the wheel's, or the
    clone's folder through the editable install)."""
    return [_packaged.file("dialkit.notebooks", f"{name}.ipynb") for name in NOTEBOOKS]


def demo_config(scale: str = DEFAULT_SCALE) -> SandboxConfig:
    """The default emulator (one account, one client with every scope) with a world of
    ``scale``, rate limiting off, and the world pinned: built at :data:`DEMO_START` on a
    manual clock, so no dialling goes on while the notebooks run and every figure of
    the pages is the same on every run and machine."""
    if scale not in get_args(Scale):
        raise InputError(f"scale {scale!r} is not a world the emulator has: pass "
                         f"{', '.join(get_args(Scale))}")
    base = default_config(start_time=DEMO_START, clock="manual", rate_limit_scale=0)
    accounts = [account.model_copy(update={"scale": scale}) for account in base.accounts]
    return base.model_copy(update={"accounts": accounts})


def run_demo(out: str | Path, *, scale: str = DEFAULT_SCALE,
             notebooks: Sequence[Path] | None = None, echo: Echo = print) -> DemoReport:
    """Run the notebooks against one emulator and write the report folder ``out``.

    Args:
        out: The folder for the HTML pages, the notebooks' files and ``index.html``
            (created if needed; files of an earlier run are replaced).
        scale: The emulator's world: ``small``, ``medium`` or ``large``.
        notebooks: The notebooks to run; default :func:`default_notebooks`.
        echo: Where progress lines go.

    Examples:
        >>> report = run_demo("reports", scale="small")  # about a minute  # doctest: +SKIP
        >>> report.ok, report.index  # doctest: +SKIP
        (True, PosixPath('.../reports/index.html'))
    """
    config = demo_config(scale)
    paths = list(default_notebooks() if notebooks is None else notebooks)
    _check_present(paths)
    out = Path(out).resolve()
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:  # a file at its name, no permission: said, not "[Errno 17]"
        cause, hint = why_not_written(error)
        raise OSError(f"the report's folder {out} cannot be made ({cause}): "
                      f"{hint or 'name a folder to write the report into'}") from None
    began = time.monotonic()
    echo(f"starting the emulator: a {scale} world, rate limiting off")
    with start(config) as sandbox, tempfile.TemporaryDirectory(
            prefix="dialkit-demo-", ignore_cleanup_errors=True) as cache:
        env = kernel_environment(sandbox, out, Path(cache))
        runs = tuple(_run_one(path, out, env, f"[{i}/{len(paths)}]", echo)
                     for i, path in enumerate(paths, 1))
    report = DemoReport(out, scale, runs, time.monotonic() - began, headlines(runs))
    write_index(report)
    return report


def _check_present(paths: Iterable[Path]) -> None:
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        raise FileNotFoundError(f"no such notebook: {', '.join(missing)}")


def kernel_environment(sandbox: Sandbox, out: Path, cache: Path) -> dict[str, str]:
    """This process's environment for a notebook's kernel: attached to ``sandbox`` (never
    to a real account), writing into ``out``, caching frames in ``cache``, plots inline,
    no progress bars (a page shows a widget bar only as it began: "0 pages")."""
    env = {name: value for name, value in os.environ.items()
           if name not in (API_KEY_VARIABLE, BASE_URL_VARIABLE)}
    return env | attach_environment(sandbox) | {
        OUTPUT_DIR_VARIABLE: str(out), "DIALKIT_CACHE_DIR": str(cache),
        "MPLBACKEND": _INLINE_PLOTS, PROGRESS_VARIABLE: "0"}


def _run_one(path: Path, out: Path, env: dict[str, str], step: str, echo: Echo) -> NotebookRun:
    name = path.stem
    echo(f"{step} {name}: running")
    before = _snapshot(out)
    began = time.monotonic()
    notebook, problem = execute(path, env)
    seconds = time.monotonic() - began
    html = out / f"{name}.html"
    with written(html, "--out") as partial:  # never through a link at its name
        partial.write_text(to_html(notebook, title_of(name)), encoding="utf-8")
    files = tuple(sorted(p for p, stamp in _snapshot(out).items()
                         if before.get(p) != stamp and p != html))
    if problem is not None:
        echo(f"{step} {name}: FAILED after {seconds:.1f} s at {problem}")
        return NotebookRun(name, "failed", seconds, html, files, problem)
    echo(f"{step} {name}: done in {seconds:.1f} s")
    return NotebookRun(name, "done", seconds, html, files)


def _snapshot(folder: Path) -> dict[Path, int]:
    return {p: p.stat().st_mtime_ns for p in folder.iterdir() if p.is_file()}


def execute(path: Path, env: dict[str, str],
            timeout: int = CELL_TIMEOUT_SECONDS) -> tuple[nbformat.NotebookNode, str | None]:
    """Run the notebook at ``path`` top to bottom in a new kernel of this interpreter, in
    its own folder; the executed notebook, and ``None`` or where and why it failed."""
    notebook = nbformat.read(path, as_version=4)  # type: ignore[no-untyped-call]
    started: list[int] = []
    kernel = AsyncKernelManager(kernel_name=_KERNEL_NAME, kernel_spec_manager=_ThisInterpreter())
    client = NotebookClient(
        notebook, km=kernel, timeout=timeout, resources={"metadata": {"path": str(path.parent)}},
        on_cell_start=lambda cell, cell_index: started.append(cell_index))
    try:
        _interruptible(kernel, lambda: asyncio.run(client.async_execute(
            env=env, stderr=subprocess.DEVNULL, cleanup_kc=True)))  # a loop closed after
    except CellExecutionError as exc:
        return notebook, _where(notebook, started, _first_line(f"{exc.ename}: {exc.evalue}"))
    except CellTimeoutError:
        return notebook, _where(notebook, started, f"no answer within {timeout} s")
    except DeadKernelError:
        return notebook, _where(notebook, started, "the kernel died")
    except RuntimeError as exc:  # the kernel did not start, or stopped answering
        return notebook, _where(notebook, started, f"the kernel stopped: {_first_line(str(exc))}")
    return notebook, None


def _interruptible(kernel: AsyncKernelManager, run: Callable[[], object]) -> None:
    """``run()`` on a worker thread, so that Ctrl-C stays a KeyboardInterrupt here: it
    interrupts the kernel's cell, waits for the notebook to stop, and goes on up.

    (On the main thread, nbclient would take SIGINT itself, shut the kernel down under
    the running cell and fail in its own cleanup.)
    """
    with ThreadPoolExecutor(1, thread_name_prefix="dialkit-demo-notebook") as pool:
        running = pool.submit(run)
        try:
            running.result()
        except KeyboardInterrupt:
            with contextlib.suppress(RuntimeError):  # no kernel yet, or no longer
                _wait_for(kernel.interrupt_kernel())
            futures.wait([running], timeout=_INTERRUPT_GRACE_SECONDS)
            if not running.done():
                _wait_for(kernel.shutdown_kernel(now=True))
            raise


def _wait_for(step: Awaitable[object]) -> None:
    async def waiting() -> None:
        await step

    asyncio.run(waiting())


def _where(notebook: nbformat.NotebookNode, started: list[int], error: str) -> str:
    """``cell 8 (In [4], 'report = audit(...')``: which cell failed, and how."""
    if not started:
        return f"the start, before any cell: {error}"
    cell = notebook.cells[started[-1]]
    count = cell.get("execution_count")
    shown = f"In [{count}], " if count else ""
    first = _first_line(cell.source)
    return f"cell {started[-1] + 1} ({shown}{first!r}): {error}"


def _first_line(text: str) -> str:
    lines = text.strip().splitlines()
    return lines[0] if lines else ""


def to_html(notebook: nbformat.NotebookNode, title: str) -> str:
    """The notebook as one HTML page titled ``title`` (nbconvert's default is "Notebook"),
    its plots and images embedded as data URIs, and a widget (``analytics.explore``)
    shown by what stands for it, as text, and the view as HTML it shows after itself
    (:meth:`~dialkit.analytics.Explorer.outputs`): a page has no kernel to drive the
    widget, and would load its renderer from a CDN. Tables and plots are then made for
    their readers (:func:`dialkit._demo._pages.readable`)."""
    exporter = HTMLExporter(config=_no_widgets(), embed_images=True)  # type: ignore[no-untyped-call]
    exporter.log = _EXPORT_LOG  # not its warning, per notebook, that plots lack alt text
    body: str = exporter.from_notebook_node(notebook, {"metadata": {"name": title}})[0]
    return readable(body)


def _no_widgets() -> Config:
    """nbconvert's order of output kinds for a page, without widgets."""
    default = HTMLExporter().default_config.NbConvertBase.display_data_priority  # type: ignore[no-untyped-call]
    return Config({"NbConvertBase": {"display_data_priority": [
        kind for kind in default if kind != _WIDGET_VIEW]}})


_WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


class _ThisInterpreter(KernelSpecManager):
    """Kernel specs as usual, plus :data:`_KERNEL_NAME`: ipykernel on ``sys.executable``,
    whatever ``python3`` kernel the user has installed elsewhere."""

    def get_kernel_spec(self, kernel_name: str) -> Any:
        if kernel_name != _KERNEL_NAME:
            return super().get_kernel_spec(kernel_name)
        return KernelSpec(resource_dir=ipykernel.kernelspec.RESOURCES,
                          **ipykernel.kernelspec.get_kernel_dict())  # argv: sys.executable
