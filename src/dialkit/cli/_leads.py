"""``dialkit leads clean|import``: a thin layer over :func:`dialkit.leads.clean` and
:func:`dialkit.leads.import_leads`, for lists cleaned from a shell or a scheduler."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Annotated, Any

import typer

from dialkit._files._file_limits import SHELL_WAYS_OUT
from dialkit._shown._words import counted
from dialkit._utils._base_error import InputError
from dialkit.cli._shared import (
    ACCOUNT_FLAGS,
    LEAD_FILE_FLAGS,
    NO_SANDBOX_FLAGS,
    Csv,
    Json,
    cli_text,
    printed,
)

CLEAN_FLAGS = {**ACCOUNT_FLAGS, **NO_SANDBOX_FLAGS, **LEAD_FILE_FLAGS,
               "header=None": "--no-header",
               "client= and campaign_id=": "--campaign CAMPAIGN_ID", "client=": "--campaign",
               "or a country column": "or --country-column COLUMN",
               "extension_field=": "--extension-field", "alt_phone_field=": "--alt-phone-field",
               "or None to leave them out": "or '' to leave them out",
               "out=": "--out", "rejects=": "--rejects",
               **SHELL_WAYS_OUT}  # a file past a limit: no limits= here, its variable
"""``dialkit leads clean``'s flags for the arguments the library's messages name."""
IMPORT_FLAGS = {**CLEAN_FLAGS, "journal=": "--journal"}
"""``dialkit leads import``'s: ``clean``'s and the journal's folder."""
PLACED = re.compile(r"mapping=\{'(\w+)': (\d+)\}")
"""A refusal's way to name a column by its place (``mapping={'phone': 2}``), which the CLI
says as ``--map phone=2``."""
MAPPING = re.compile(r"mapping=\{'(\w+)': '<column>'\}")
"""A note's way to map one column (``mapping={'external_id': '<column>'}``), which the
CLI says as ``--map external_id=COLUMN``: a pattern, so a TAB imports no field table."""

leads_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None)

Input = Annotated[Path, typer.Argument(metavar="INPUT", help="The lead file.",
                                       show_default=False)]
Region = Annotated[str, typer.Option(metavar="REGION", help=(
    "Default region (ISO alpha-2) of numbers written nationally."))]
CountryColumn = Annotated[str | None, typer.Option(metavar="COLUMN", help=(
    "The column of each row's country; default the one named country."))]
Maps = Annotated[list[str] | None, typer.Option("--map", metavar="FIELD=COLUMN", help=(
    "Read a lead field from a column (repeatable): --map phone=Mobil."))]
Blocked = Annotated[str, typer.Option(metavar="CODES", help=(
    "Countries the account blocks, codes or names, comma-separated: KP,IR."))]
Sheet = Annotated[str | None, typer.Option(metavar="SHEET", help=(
    "The workbook's sheet, by name or 0-based number; default the first visible."))]
Encoding = Annotated[str | None, typer.Option(metavar="ENCODING", help=(
    "The text encoding; default detected."))]
Out = Annotated[Path | None, typer.Option(metavar="OUT", help=(
    "Write every row with its verdict: .csv, .parquet, or .xlsx (accepted, rejected, "
    "summary)."))]
Outcomes = Annotated[Path | None, typer.Option("--out", metavar="OUT", help=(
    "Write every row with its outcome: .csv or .parquet."))]
Rejects = Annotated[Path | None, typer.Option(metavar="PATH", help=(
    "Write the rejected rows alone as CSV."))]
ExtensionField = Annotated[str, typer.Option(metavar="NAME", help=(
    "The custom field a phone's extension is sent as; '' leaves extensions out."))]
AltPhoneField = Annotated[str, typer.Option(metavar="NAME", help=(
    "The custom field a lead's other numbers (a second number, the other phone "
    "columns) are sent as; '' leaves them out."))]
NoHeader = Annotated[bool, typer.Option("--no-header", help=(
    "The file has no header line (a dialer's list upload): its first line is a row, its "
    "columns named by place from 0 (as pandas' header=None); the one whose cells hold "
    "phones is the phone, or name it with --map phone=0."))]
RawCsv = Annotated[bool, typer.Option("--raw-csv", help=(
    "Write CSV cells as they are, for programs; by default a text cell starting with "
    "= + - @, a tab or a carriage return gets a leading ' (a spreadsheet shows it as "
    "text)."))]


def _arrow_memory_pool() -> None:
    """Have pyarrow allocate from jemalloc in this process, unless the user chose an
    allocator (``ARROW_DEFAULT_MEMORY_POOL``) or this build of pyarrow has none.

    A streamed clean allocates and lets go of a chunk's buffers over and over. pyarrow's
    default, mimalloc, hands freed pages back to the system, and the kernel zeroes
    each one again when it is asked for (a sixth of the 1,000,000-row clean's samples,
    in ``clear_page``); jemalloc keeps them for the next chunk: the clean takes 0.92-0.98x
    the time of the clean before streaming, against 1.04-1.13x with mimalloc
    (``benchmarks/RESULTS.md``). The command owns its process; the library leaves the
    caller's allocator alone."""
    if os.environ.get("ARROW_DEFAULT_MEMORY_POOL", "").strip():
        return
    import pyarrow as pa

    with suppress(NotImplementedError):  # a build without it (pyarrow's Windows wheels)
        pa.set_memory_pool(pa.jemalloc_memory_pool())


@leads_app.command("clean")
def clean_command(
    source: Input, region: Region = "US", country_column: CountryColumn = None,
    mapping: Maps = None, blocked_countries: Blocked = "", sheet: Sheet = None,
    encoding: Encoding = None, out: Out = None, rejects: Rejects = None,
    campaign: Annotated[str | None, typer.Option(metavar="CAMPAIGN_ID", help=(
        "Also check the campaign's leads and the DNC list, with the account of "
        "DIALKIT_API_KEY."))] = None,
    raw_csv: RawCsv = False, extension_field: ExtensionField = "phone_extension",
    alt_phone_field: AltPhoneField = "alt_phone", as_json: Json = False, as_csv: Csv = False,
    no_header: NoHeader = False,
) -> None:
    """Check every row of a lead file (CSV, TSV, XLSX, XLS) as the service will; print
    the verdicts' summary (with --json or --csv: the summary alone, notes on standard
    error)."""
    from dialkit.leads import run_clean

    _arrow_memory_pool()
    with _errors(CLEAN_FLAGS):
        options = _options(region, country_column, mapping, blocked_countries, sheet, encoding)
        options.update(_custom_names(extension_field, alt_phone_field))
        if no_header:
            options["header"] = None
        result = run_clean(source, campaign_id=campaign, out=out, rejects=rejects,
                           escape_formulas=not raw_csv, **options)  # progress: a bar, or lines
    if printed(result.summary, as_json=as_json, as_csv=as_csv):
        _notes(result.notes, CLEAN_FLAGS, err=True)
        return
    accepted = result.counts.get("accepted", 0)
    typer.echo(f"{source}: {counted(result.rows, 'row')}, {accepted:,} accepted, "
               f"{result.rows - accepted:,} rejected")
    typer.echo(result.summary.fillna("").to_string(index=False))
    _notes(result.notes, CLEAN_FLAGS)
    if result.skipped:
        typer.echo(f"not checked: {', '.join(result.skipped)} (--campaign CAMPAIGN_ID checks "
                   "them with the account of DIALKIT_API_KEY)")


@leads_app.command("import")
def import_command(
    source: Input,
    campaign: Annotated[str, typer.Option(metavar="CAMPAIGN_ID", help=(
        "The draft, ready or paused campaign to import into."), show_default=False)],
    region: Region = "US", country_column: CountryColumn = None, mapping: Maps = None,
    blocked_countries: Blocked = "", sheet: Sheet = None, encoding: Encoding = None,
    journal: Annotated[Path | None, typer.Option(metavar="PATH", help=(
        "The folder of import journals; default imports/ in the key's cache folder."))] = None,
    out: Outcomes = None, raw_csv: RawCsv = False,
    extension_field: ExtensionField = "phone_extension",
    alt_phone_field: AltPhoneField = "alt_phone", as_json: Json = False, as_csv: Csv = False,
    screen: Annotated[bool, typer.Option("--screen", help=(
        "Also check every number against the DNC list and the campaign's leads before "
        "sending (as leads clean --campaign); by default the service screens each lead "
        "it is sent, and the import costs a request per 200 rows."))] = False,
    no_header: NoHeader = False,
) -> None:
    """Clean a lead file (CSV, TSV, XLSX, XLS), import its accepted rows once (run
    again, it resumes), and print the outcomes' summary (with --json or --csv: the
    summary alone, notes on standard error)."""
    from dialkit.leads import ImportRunningError, ImportStoppedError, run_import

    _arrow_memory_pool()
    with _errors(IMPORT_FLAGS):
        options = _options(region, country_column, mapping, blocked_countries, sheet, encoding)
        options.update(_custom_names(extension_field, alt_phone_field))
        if no_header:
            options["header"] = None
        try:
            report = run_import(source, campaign, out=out, escape_formulas=not raw_csv,
                                journal=journal, screen=screen, **options)
        except ImportStoppedError as stop:
            typer.echo(stop.report.summary.fillna("").to_string(index=False))
            _notes(stop.report.notes, IMPORT_FLAGS)
            typer.echo(f"error: {cli_text(str(stop), IMPORT_FLAGS)}", err=True)
            raise typer.Exit(1) from None
        except ImportRunningError as running:
            typer.echo(f"error: {running}", err=True)
            raise typer.Exit(1) from None
    if printed(report.summary, as_json=as_json, as_csv=as_csv):
        _notes(report.notes, IMPORT_FLAGS, err=True)
        return
    typer.echo(f"{source} into {campaign}: {report.headline}")
    typer.echo(report.summary.fillna("").to_string(index=False))
    _notes(report.notes, IMPORT_FLAGS)


def _custom_names(extension: str, alt_phone: str) -> dict[str, str | None]:
    """The custom fields' names, an empty one (``--extension-field ''``) left out."""
    return {"extension_field": extension.strip() or None,
            "alt_phone_field": alt_phone.strip() or None}


def _notes(notes: Sequence[str], flags: dict[str, str], *, err: bool = False) -> None:
    """What the verdicts and outcomes do not show (what reading found, what the import
    settled from the campaign's leads), one line each, in the command's flags (on
    standard error with ``err``, where standard output holds a table for programs)."""
    for note in notes:
        note = MAPPING.sub(r"--map \1=COLUMN", note)
        typer.echo(f"note: {cli_text(note, flags)}", err=err)


@contextmanager
def _errors(flags: dict[str, str]) -> Iterator[None]:
    """A bad file, option or answer ends the command with its message in the command's
    flags, not a traceback: status 2 for a bad file or option (an unknown campaign
    too), 1 for what the account answered (a campaign that takes no leads now)."""
    from dialkit.errors import ApiError
    from dialkit.leads import CampaignError

    try:
        yield
    except InputError as error:
        said = PLACED.sub(r"--map \1=\2", str(error))
        typer.echo(f"error: {cli_text(said, flags)}", err=True)
        known = isinstance(error, CampaignError) and error.status is not None
        raise typer.Exit(1 if known else 2) from None
    except ApiError as error:
        typer.echo(f"error: {cli_text(str(error), flags)}", err=True)
        raise typer.Exit(1) from None
    except OSError as error:  # a --journal or --out that cannot be written
        typer.echo(f"error: {error.filename or 'a file'}: {error.strerror or error}", err=True)
        raise typer.Exit(2) from None


def _options(region: str, country_column: str | None, mapping: list[str] | None,
             blocked: str, sheet: str | None, encoding: str | None) -> dict[str, Any]:
    pairs = {}
    for item in mapping or []:
        field, sep, column = item.partition("=")
        if not sep or not field or not column:
            raise InputError(f"--map {item!r}: write FIELD=COLUMN, as in --map phone=Mobil")
        pairs[field.strip()] = column.strip()
    return {"region": region, "country_column": country_column, "mapping": pairs or None,
            "blocked_countries": blocked,
            "sheet": int(sheet) if sheet is not None and sheet.isdigit() else sheet,
            "encoding": encoding}
