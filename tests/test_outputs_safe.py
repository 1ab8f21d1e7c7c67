"""Outputs are written whole, beside a link and never through it, and never over an input
(issue 46: items 2, 3 and 10, and the lows on two outputs that are one file, a full disk
that names nothing, and a killed export's parts found by a glob over its parent)."""

from __future__ import annotations

import gc
import os
import resource
import shutil
import signal
import subprocess
import sys
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from typer.testing import CliRunner

from conftest import KEYS, load_seeded
from dialkit import Client
from dialkit.cli import app
from dialkit.compliance import audit, load
from dialkit.frames import Cache, excel_writer, export, write_csv
from dialkit.leads import clean, import_leads
from dialkit.sandbox import Sandbox

SAMPLES = Path(__file__).resolve().parents[1] / "data_samples"
PRECIOUS = "the user's own words\n"
runner = CliRunner()


@pytest.fixture
def account(sandbox: Sandbox, client: Client, monkeypatch: pytest.MonkeyPatch) -> str:
    """The CLI attached to the session's emulator; a paused campaign's id."""
    monkeypatch.setenv("DIALKIT_API_KEY", KEYS["full"])
    monkeypatch.setenv("DIALKIT_BASE_URL", sandbox.base_url)
    return next(client.campaigns.list(status="paused")).id


@pytest.fixture(scope="module")
def exported(sandbox: Sandbox, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The session emulator's seeded calls, leads and DNC results as CSV files, loaded
    and written once for the module (a load is about a second)."""
    folder = tmp_path_factory.mktemp("exported")
    frames = load_seeded(sandbox, folder / "cache", load)
    for name, frame in frames.items():
        frame.to_csv(folder / f"{name}.csv", index=False)
    return {name: folder / f"{name}.csv" for name in frames}


@pytest.fixture
def exports(exported: dict[str, Path], tmp_path: Path) -> dict[str, Path]:
    """The exported files, copied into the test's own folder (where it links to them)."""
    return {name: Path(shutil.copy2(path, tmp_path)) for name, path in exported.items()}


@pytest.fixture
def file_size_limit() -> Iterator[Callable[[int], None]]:
    """Set this process's file-size limit (``ulimit -f``: a write past it fails with
    EFBIG, as a full disk fails with ENOSPC); put back after the test."""
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    yield lambda size: resource.setrlimit(resource.RLIMIT_FSIZE, (size, hard))
    resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))


def linked(folder: Path, name: str) -> tuple[Path, Path]:
    """``name`` in ``folder`` as a link to a file of the user's own beside it."""
    folder.mkdir(exist_ok=True)
    precious = folder / "precious.txt"
    precious.write_text(PRECIOUS)
    link = folder / name
    link.symlink_to(precious)
    return link, precious


def hidden(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def test_the_import_report_replaces_a_link_and_never_writes_through_it(
        account: str, tmp_path: Path) -> None:
    out, precious = linked(tmp_path, "report.csv")
    result = runner.invoke(app, ["leads", "import", str(SAMPLES / "dnc_list.csv"),
                                 "--campaign", account, "--journal", str(tmp_path / "journals"),
                                 "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert precious.read_text() == PRECIOUS
    assert not out.is_symlink() and "outcome" in pd.read_csv(out).columns
    assert hidden(tmp_path) == []


@pytest.mark.parametrize("same", ["path", "dot", "hard link", "link to it"])
def test_the_import_refuses_to_write_its_report_over_the_lead_file(
        account: str, client: Client, tmp_path: Path, same: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    source = tmp_path / "in.csv"
    shutil.copyfile(SAMPLES / "dnc_list.csv", source)
    monkeypatch.chdir(tmp_path)
    out = {"path": source, "dot": Path("./in.csv"), "hard link": tmp_path / "also.csv",
           "link to it": tmp_path / "link.csv"}[same]
    if same == "hard link":
        os.link(source, out)
    if same == "link to it":
        out.symlink_to(source)
    before = len(client.frames.leads(campaign_id=account, refresh="full"))
    result = runner.invoke(app, ["leads", "import", str(source), "--campaign", account,
                                 "--journal", str(tmp_path / "journals"), "--out", str(out)])
    assert result.exit_code == 2, result.output
    assert result.output.startswith(f"error: --out '{out}' is the lead file being imported")
    assert source.read_bytes() == (SAMPLES / "dnc_list.csv").read_bytes()
    assert not (tmp_path / "journals").exists()  # refused before anything was sent
    assert len(client.frames.leads(campaign_id=account, refresh="full")) == before


@pytest.mark.parametrize(("output", "input_"), [
    ("--out", "calls"), ("--workbook", "calls"), ("--html", "leads"), ("--out", "dnc"),
])
def test_the_audit_refuses_an_output_that_is_one_of_its_inputs(
        exports: dict[str, Path], tmp_path: Path, output: str, input_: str) -> None:
    before = {name: path.read_bytes() for name, path in exports.items()}
    result = runner.invoke(app, ["compliance", "audit", "--calls", str(exports["calls"]),
                                 "--leads", str(exports["leads"]), "--dnc", str(exports["dnc"]),
                                 output, str(exports[input_])])
    assert result.exit_code == 2, result.output
    assert result.output.startswith(
        f"error: {output} '{exports[input_]}' is what --{input_} reads, which it would replace")
    assert {name: path.read_bytes() for name, path in exports.items()} == before


def test_the_audit_refuses_a_hard_link_to_an_input_and_two_outputs_that_are_one(
        exports: dict[str, Path], tmp_path: Path) -> None:
    os.link(exports["calls"], tmp_path / "findings.csv")
    calls = exports["calls"].read_bytes()
    linked_out = runner.invoke(app, ["compliance", "audit", "--calls", str(exports["calls"]),
                                     "--out", str(tmp_path / "findings.csv")])
    assert linked_out.exit_code == 2 and "is what --calls reads" in linked_out.output
    both = tmp_path / "report.html"
    twice = runner.invoke(app, ["compliance", "audit", "--calls", str(exports["calls"]),
                                "--workbook", str(both), "--html", str(tmp_path / "." / both.name)])
    assert twice.exit_code == 2, twice.output
    assert "--html" in twice.output and "are one file" in twice.output
    assert exports["calls"].read_bytes() == calls and not both.exists()


def test_the_audit_replaces_links_at_its_outputs_and_never_writes_through_them(
        exports: dict[str, Path], tmp_path: Path) -> None:
    outputs = {flag: linked(tmp_path / flag.strip("-"), f"x{suffix}")
               for flag, suffix in (("--out", ".csv"), ("--workbook", ".xlsx"),
                                    ("--html", ".html"))}
    flags = [item for flag, (link, _) in outputs.items() for item in (flag, str(link))]
    result = runner.invoke(app, ["compliance", "audit", "--calls", str(exports["calls"]), *flags])
    assert result.exit_code == 0, result.output
    for link, precious in outputs.values():
        assert precious.read_text() == PRECIOUS and not link.is_symlink()
        assert link.stat().st_size > 100


WRITERS: dict[str, Callable[[dict[str, Any], Path], object]] = {
    "write_csv": lambda made, path: write_csv(made["frame"], path),
    "excel_writer": lambda made, path: _workbook(made["frame"], path),
    "CleanResult.to_csv": lambda made, path: made["cleaned"].to_csv(path),
    "CleanResult.to_excel": lambda made, path: made["cleaned"].to_excel(path),
    "AuditReport.to_csv": lambda made, path: made["audit"].to_csv(path),
    "AuditReport.to_excel": lambda made, path: made["audit"].to_excel(path),
    "AuditReport.to_html": lambda made, path: made["audit"].to_html(path),
}


def _workbook(frame: pd.DataFrame, path: Path) -> None:
    with excel_writer(path) as book:
        frame.to_excel(book, index=False)


@pytest.fixture(scope="module")
def made() -> Iterator[dict[str, Any]]:
    """What the library's writers write: a frame, a clean, an audit of the emulator."""
    with Client.sandbox() as client:
        yield {"frame": pd.DataFrame({"note": ["=1+1", "x"]}),
               "cleaned": clean(SAMPLES / "dnc_list.csv"), "audit": audit(**load(client)),
               "large": clean(SAMPLES / "messy_us.csv")}


@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_every_writer_of_the_library_replaces_a_link_never_its_target(
        made: dict[str, Any], tmp_path: Path, writer: str) -> None:
    link, precious = linked(tmp_path, "out.xlsx" if "excel" in writer else "out.csv")
    WRITERS[writer](made, link)
    assert precious.read_text() == PRECIOUS
    assert not link.is_symlink() and link.stat().st_size > 10
    assert hidden(tmp_path) == []


@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_a_write_cut_short_leaves_the_output_as_it_was_and_names_it(
        made: dict[str, Any], tmp_path: Path, writer: str,
        file_size_limit: Callable[[int], None]) -> None:
    """A file-size limit stops the write part way, as a full disk would."""
    out = tmp_path / ("out.xlsx" if "excel" in writer else "out.csv")
    out.write_text(PRECIOUS)
    frame = pd.DataFrame({"note": [f"row {n} " * 20 for n in range(5_000)]})
    big = {**made, "frame": frame, "cleaned": made["large"]}
    file_size_limit(2_000)
    with pytest.raises(OSError, match="file too large, so it was not written: the "
                       r"file-size limit \(ulimit -f\)") as raised:
        WRITERS[writer](big, out)
    file_size_limit(resource.RLIM_INFINITY)
    assert raised.value.filename == str(out)
    assert out.read_text() == PRECIOUS
    assert hidden(tmp_path) == []
    del raised  # its frames hold what xlsxwriter left open: the limit stopped its own
    with warnings.catch_warnings():  # temporary files too, which a full disk need not
        warnings.simplefilter("ignore", ResourceWarning)
        gc.collect()  # here, not in a later test


def test_the_import_report_cut_short_leaves_nothing_that_looks_whole(
        client: Client, tmp_path: Path, file_size_limit: Callable[[int], None]) -> None:
    campaign = next(client.campaigns.list(status="paused")).id
    report = import_leads(client, SAMPLES / "international.csv", campaign,
                          journal=tmp_path / "journals", progress=False)
    for name in ("report.csv", "report.parquet"):
        file_size_limit(4_096)
        with pytest.raises(OSError, match="file too large") as raised:
            if name.endswith(".csv"):
                report.to_csv(tmp_path / name)
            else:
                report.to_parquet(tmp_path / name)
        file_size_limit(resource.RLIM_INFINITY)
        assert raised.value.filename == str(tmp_path / name)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["journals"]
    with pytest.raises(ValueError, match="is the report's own file"):
        report.to_csv(report.path)


def test_a_full_output_ends_the_command_naming_the_file(
        exports: dict[str, Path], tmp_path: Path, file_size_limit: Callable[[int], None]) -> None:
    out = tmp_path / "findings.csv"
    file_size_limit(4_096)
    result = runner.invoke(app, ["compliance", "audit", "--calls", str(exports["calls"]),
                                 "--policy", "house-rules", "--out", str(out)])
    file_size_limit(resource.RLIM_INFINITY)
    assert result.exit_code == 2, result.output
    assert result.output.startswith(f"error: {out}: file too large, so it was not written")
    assert not out.exists() and hidden(tmp_path) == []


def test_clean_refuses_out_and_rejects_that_are_one_file(tmp_path: Path) -> None:
    both = tmp_path / "cleaned.csv"
    result = runner.invoke(app, ["leads", "clean", str(SAMPLES / "dnc_list.csv"),
                                 "--out", str(both), "--rejects", str(both)])
    assert result.exit_code == 2, result.output
    assert result.output.startswith(f"error: --rejects '{both}' and --out '{both}' are one file")
    assert list(tmp_path.iterdir()) == []


KILLED_EXPORT = """
import os, sys
from dialkit.frames import Cache, _export
def killed(*args, **kwargs):  # the moment the export has written its parts
    os.kill(os.getpid(), 9)
_export.write_json = killed
_export.export(Cache(sys.argv[1], "b", "cred_b"), sys.argv[2])
"""


def test_a_killed_exports_parts_are_not_found_by_a_glob_over_its_parent(
        client: Client, tmp_path: Path) -> None:
    duckdb = pytest.importorskip("duckdb")
    cache = Cache(tmp_path / "cache", "b", "cred_b")
    cache.entry("calls", {}).write(client.frames.calls())
    cache.entry("leads", {}).write(client.frames.leads())
    data = tmp_path / "data"
    data.mkdir()
    killed = subprocess.run([sys.executable, "-c", KILLED_EXPORT, str(tmp_path / "cache"),
                             str(data / "account")], capture_output=True, check=False)
    assert killed.returncode == -9, killed.stderr
    assert hidden(data)  # what it left, for the next export to remove
    for pattern in ("*/*.parquet", "*/*/*.parquet", "**/*.parquet"):
        assert duckdb.sql(f"SELECT * FROM glob('{data}/{pattern}')").fetchall() == []
    export(cache, data / "account")
    assert sorted(p.name for p in data.iterdir()) == ["account"]
    found = duckdb.sql(f"SELECT count(*) FROM glob('{data}/**/*.parquet')").fetchall()
    assert found[0][0] > 0


ENDED_EXPORT = """
import os, signal, sys
from dialkit.frames import Cache, _export
signal.signal(signal.SIGHUP, signal.SIG_DFL)  # as a terminal's shell starts it
def ended(*args, **kwargs):  # the moment the export has written its parts
    os.kill(os.getpid(), int(sys.argv[3]))
_export.write_json = ended
_export.export(Cache(sys.argv[1], "b", "cred_b"), sys.argv[2])
"""


@pytest.mark.parametrize("ending", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_an_export_ended_by_a_signal_leaves_nothing_beside_its_output(
        client: Client, tmp_path: Path, ending: signal.Signals) -> None:
    """``kill`` or a closed terminal ends an export as Ctrl-C does: its hidden parts (the
    account's numbers) are removed, and the process ends as the signal asks. Before, they
    were left for the next export to remove, as ``kill -9`` still leaves them."""
    cache = Cache(tmp_path / "cache", "b", "cred_b")
    cache.entry("calls", {}).write(client.frames.calls())
    data = tmp_path / "data"
    data.mkdir()
    ended = subprocess.run([sys.executable, "-c", ENDED_EXPORT, str(tmp_path / "cache"),
                            str(data / "account"), str(int(ending))],
                           capture_output=True, check=False)
    assert ended.returncode == -ending, ended.stderr
    assert list(data.iterdir()) == []
