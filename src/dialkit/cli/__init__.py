"""The ``dialkit`` command: a thin layer over library functions a notebook can call too.

Each command group lives in its own ``dialkit.cli._*`` module, imported only when
that group runs (:class:`LazyGroups`): ``dialkit leads clean`` does not import the
emulator, the MCP server or uvicorn, and ``dialkit --help`` imports none of them.
"""

from __future__ import annotations

import gc
import importlib
import logging
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from difflib import get_close_matches
from enum import StrEnum
from pathlib import Path
from types import ModuleType
from typing import Annotated, Any, NamedTuple, TextIO

import typer
from typer.core import TyperCommand, TyperGroup

from dialkit.cli._shared import finite_seconds


class Group(NamedTuple):
    """A command group: the module and attribute of its ``typer.Typer``, and its help."""

    module: str
    attribute: str
    help: str


GROUPS = {
    "sandbox": Group("dialkit.cli._sandbox", "sandbox_app", "The local emulator of the service."),
    "cache": Group("dialkit.cli._cache", "cache_app", "The Parquet cache of client.frames."),
    "campaigns": Group("dialkit.cli._campaigns", "campaigns_app", "The account's campaigns."),
    "leads": Group("dialkit.cli._leads", "leads_app",
                   "Lead files: check them as the service will, then import them."),
    "compliance": Group("dialkit.cli._compliance", "compliance_app",
                        "Compliance audits of what the account did."),
    "mcp": Group("dialkit.cli._mcp", "mcp_app",
                 "The assistant-tool (MCP) server over your account."),
    "webhooks": Group("dialkit.cli._webhooks", "webhooks_app",
                      "Receiving the service's webhook events."),
    "samples": Group("dialkit.cli._samples", "samples_app",
                     "The sample lead files packaged with dialkit: list or copy them."),
    "profiles": Group("dialkit.cli._profiles", "profiles_app",
                      "Named accounts in the config file: list or add them."),
}
"""``dialkit``'s command groups, in the order ``--help`` lists them."""


class LazyGroups(TyperGroup):
    """``dialkit`` itself: a group of :data:`GROUPS` is imported when it is run (or asked
    for its own help), and listed from its entry there.

    The contexts, commands and formatters these methods take are click's classes, which
    typer keeps private (its own copy, ``typer._click``, from 0.26 on; ``click``
    before): typed ``Any`` here, so that no private module is imported."""

    listing = False

    def list_commands(self, ctx: Any) -> list[str]:
        return [*super().list_commands(ctx), *(name for name in GROUPS
                                               if name not in self.commands)]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        found = super().get_command(ctx, cmd_name)
        group = GROUPS.get(cmd_name)
        if found is not None or group is None:
            return found
        if self.listing:  # its name and help, without importing it
            return TyperCommand(cmd_name, help=group.help)
        command = typer.main.get_group(getattr(_imported(group.module), group.attribute))
        command.name, command.help = cmd_name, group.help
        self.commands[cmd_name] = command
        if ctx.resilient_parsing:
            _as_typed(command, ctx)
        return command

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        """As typer's, whose suggestion for a mistyped command is drawn from the groups
        loaded so far only (and, before 0.20, made none): here from every group."""
        name = args[0] if args else ""
        if name and not name.startswith("-") and name not in self.list_commands(ctx):
            matches = get_close_matches(name, self.list_commands(ctx))
            if matches:
                ctx.fail(f"No such command {name!r}. Did you mean "
                         f"{', '.join(map(repr, matches))}?")
        return super().resolve_command(ctx, args)

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        with self._listed():
            super().format_commands(ctx, formatter)

    def shell_complete(self, ctx: Any, incomplete: str) -> list[Any]:
        """The groups a TAB after ``dialkit`` offers, listed as ``--help`` lists them: it
        once imported all ten (4 s a TAB)."""
        with self._listed():
            return super().shell_complete(ctx, incomplete)

    @contextmanager
    def _listed(self) -> Iterator[None]:
        self.listing = True
        try:
            yield
        finally:
            self.listing = False

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if ctx.resilient_parsing:  # completion: see _as_typed
            _as_typed(self, ctx)
        return super().parse_args(ctx, args)


class _AsTyped:
    """A parameter's value left as typed, where typer (0.26 on) would check it with a
    pydantic ``TypeAdapter``."""

    @staticmethod
    def coerce(value: Any, **_: Any) -> Any:
        return value


def _as_typed(command: Any, ctx: Any) -> None:
    """Leave the values of ``command``'s parameters, and its subcommands', as typed.

    Completion parses the words typed so far without acting on them (click's
    ``resilient_parsing``), and reads no value but to tell an option's name from its
    value; typer's check of each value imported pydantic and built an adapter per
    parameter: 0.15-0.25 s of a TAB's 0.3 s. A typer that checks values with
    click's types has no ``_runtime_param``: nothing to do there."""
    for param in command.get_params(ctx):  # its help option too
        if hasattr(param, "_runtime_param"):
            param._runtime_param = _AsTyped
    for subcommand in getattr(command, "commands", {}).values():
        _as_typed(subcommand, ctx)


def _imported(name: str) -> ModuleType:
    """A command group's module, imported, then frozen with all the process holds so far.

    A group's imports (pandas, pyarrow, pydantic ...) make about 145,000 objects that
    live as long as the process; frozen, the collector's full passes (the interpreter's
    last ones at the exit among them) no longer read them: the exit after ``dialkit
    leads clean`` of the 1M-row mix took 0.031 s instead of 0.131 s (from the ``atexit``
    handlers to the process's end, medians of 8 interleaved fresh processes). Paused
    while the group was imported too, the collector left the imports' garbage to the
    freeze: 0.02-0.06 s less, but peak RSS 4-9 MiB more."""
    if name in sys.modules:
        return sys.modules[name]
    module = importlib.import_module(name)
    gc.freeze()
    return module


HELP_OPTIONS = {"help_option_names": ["-h", "--help"]}
"""``-h`` as well as ``--help``, on every command (click hands it down to subcommands)."""

app = typer.Typer(cls=LazyGroups, no_args_is_help=True, rich_markup_mode=None,
                  context_settings=HELP_OPTIONS,
                  help="dialkit: a toolkit for the accounts of an outbound dialing service.")


def _print_version(asked: bool) -> None:
    if asked:
        from importlib.metadata import version  # 0.08 s to import: only when asked

        typer.echo(f"dialkit {version('dialkit')}")
        raise typer.Exit()


@app.callback()
def _options(
    ctx: typer.Context,
    show_version: Annotated[bool, typer.Option(
        "--version", help="Show dialkit's version and exit.", is_eager=True,
        callback=_print_version)] = False,
    profile: Annotated[str | None, typer.Option(
        metavar="NAME", envvar="DIALKIT_PROFILE", show_envvar=False, help=(
            "Use the account of this profile of the config file (also DIALKIT_PROFILE); "
            "see `dialkit profiles`."))] = None,
    verbose: Annotated[int, typer.Option(
        "--verbose", "-v", count=True, show_default=False, help=(
            "Log what dialkit does to standard error: -v its steps and each HTTP "
            "request, -vv everything (keys stay masked)."))] = 0,
    timeout: Annotated[float | None, typer.Option(
        metavar="SECONDS", envvar="DIALKIT_TIMEOUT", show_envvar=False, min=0.001,
        callback=finite_seconds, help=(
            "Give up on a request to the service after this many seconds, retries and "
            "waits on the key's rate limit included (also DIALKIT_TIMEOUT; default "
            "120)."))] = None,
) -> None:
    """dialkit: a toolkit for the accounts of an outbound dialing service."""
    if profile:
        os.environ["DIALKIT_PROFILE"] = profile  # read by every Client() the command makes
    if timeout is not None:
        os.environ["DIALKIT_TIMEOUT"] = str(timeout)  # as the profile, by every Client()
    _log_to_stderr(verbose, ctx)


def _log_to_stderr(verbose: int, command: Any = None) -> None:
    """The standard ``logging`` output on standard error: dialkit's and httpx's records
    from INFO on at ``-v``, every library's from DEBUG on at ``-vv``; without ``-v``, the
    progress lines (``dialkit.progress``), logged where standard error is no terminal to
    draw a bar on (an import under nohup or cron once said nothing until its end),
    and dialkit's warnings (:class:`_Warnings`), for the time of ``command`` (a click
    context) where given. dialkit's records show their phone numbers masked
    (:func:`~dialkit._shown._masked.library_logging`)."""
    from dialkit._shown._masked import LOGGER, library_logging
    from dialkit._shown._progress_lines import PROGRESS_LOGGER

    library_logging()  # the NullHandler that masks numbers, as `import dialkit` puts it
    shape = "%(asctime)s %(levelname)s %(name)s: %(message)s"
    if not verbose:
        progress, handler = logging.getLogger(PROGRESS_LOGGER), logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter(shape))
        progress.addHandler(handler)
        warnings = _Warnings(sys.stderr)
        logging.getLogger(LOGGER).addHandler(warnings)
        level = progress.level
        progress.setLevel(logging.INFO)

        def ended() -> None:
            progress.removeHandler(handler)
            logging.getLogger(LOGGER).removeHandler(warnings)
            progress.setLevel(level)

        if command is not None:  # the command's own: gone when it ends (one run in-process)
            command.call_on_close(ended)
        return
    logging.basicConfig(stream=sys.stderr, format=shape,
                        level=logging.DEBUG if verbose > 1 else logging.WARNING)
    if verbose == 1:
        for name in ("dialkit", "httpx"):
            logging.getLogger(name).setLevel(logging.INFO)


class _Warnings(logging.StreamHandler[TextIO]):
    """dialkit's warnings (an override the guard let through, a spoilt cache file) on
    standard error, as Python's last-resort handler printed them before dialkit's loggers
    had a ``NullHandler`` of their own: the message alone, and only while the
    root logger has no handler (``sandbox serve`` gives it one, which shows them then)."""

    def __init__(self, stream: TextIO) -> None:
        super().__init__(stream)
        self.setLevel(logging.WARNING)

    def emit(self, record: logging.LogRecord) -> None:
        if not logging.getLogger().handlers:
            super().emit(record)


class DemoScale(StrEnum):
    """The worlds ``dialkit demo`` offers."""

    small = "small"
    medium = "medium"


@app.command()
def demo(
    out: Annotated[Path, typer.Option(metavar="DIR", help=(
        "Folder to write the report into: a page per notebook, the files they write, "
        "index.html."))] = Path("reports"),
    scale: Annotated[DemoScale, typer.Option(metavar="SCALE", help=(
        "The emulator's world: small or medium."))] = DemoScale.medium,
) -> None:
    """Run the notebooks against the emulator and write them, their files and an index."""
    from dialkit._demo._index import summary
    from dialkit._demo._run import run_demo

    try:
        report = run_demo(out, scale=scale.value, echo=typer.echo)
    except OSError as exc:  # a notebook missing, an --out that cannot be written
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    for line in summary(report):
        typer.echo(line, err=line.startswith("error:"))
    if not report.ok:
        raise typer.Exit(1)


def main() -> None:
    """Entry point of the ``dialkit`` console script. An exception no command answered
    (click has answered its own: usage, ``--help``, exits) is a bug in dialkit, told as
    an internal error (:mod:`dialkit.cli._shared`), never as the user's bad input."""
    _one_blas_thread()
    try:
        app()
    except Exception as error:  # noqa: BLE001 - every other one is ours: told as such
        from dialkit.cli._shared import internal_error

        raise SystemExit(internal_error(error)) from None


def _one_blas_thread() -> None:
    """Have numpy's OpenBLAS start one thread, not one a core, unless the user chose
    (``OPENBLAS_NUM_THREADS``): it must be set before numpy is imported, which no
    command has done yet.

    No command multiplies matrices, but OpenBLAS starts its threads when numpy is
    imported, and they spin waiting for work that never comes: a ``dialkit leads clean``
    of ten rows takes 0.46 CPU s without them, against 0.64 (``benchmarks/RESULTS.md``).
    The command owns its process; the library leaves the caller's threads alone."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
