"""``dialkit demo``: the notebooks run against one emulator, written out with an index; a
notebook that fails names its cell; a kernel attaches to the demo's emulator."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import httpx
import nbformat
import pandas as pd
import pytest
from bs4 import BeautifulSoup
from click.testing import Result
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook
from typer.testing import CliRunner

import dialkit._demo._run
from demo_run import HOSTILE_NAMES, RUNS_THE_DEMO, live_markup, small_demo
from dialkit import Client
from dialkit._demo._pages import readable
from dialkit._demo._run import DEMO_START, NOTEBOOKS, demo_config, run_demo
from dialkit._utils import _tuning
from dialkit.cli import app
from dialkit.sandbox import RemoteSandbox, SandboxConfig, attach_environment, start

pytestmark = RUNS_THE_DEMO

runner = CliRunner()
NOTEBOOK_PAGES = [f"{name}.html" for name in NOTEBOOKS]
FILES = ["messy_us_cleaned.xlsx", "messy_us_cleaned.csv", "funnel.csv", "evidence.xlsx",
         "report.html"]


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Result]:
    """One run of the real demo on a small world (shared with ``test_browser``): its
    folder and what it printed."""
    return small_demo(tmp_path_factory.getbasetemp())


def test_the_demo_writes_each_notebook_its_files_and_an_index(demo: tuple[Path, Result]) -> None:
    out, result = demo

    assert result.exit_code == 0, result.output
    for name in NOTEBOOKS:
        assert re.search(rf"^\[\d/4\] {name}: running$", result.output, re.MULTILINE)
        assert re.search(rf"^\[\d/4\] {name}: done in \d+\.\d s$", result.output, re.MULTILINE)
    assert "small world with rate limiting off" in result.output
    assert result.output.rstrip().endswith(f"open {out / 'index.html'}")
    index = (out / "index.html").read_text()
    links = set(re.findall(r'href="([^"]+)"', index))
    assert links == {*NOTEBOOK_PAGES, *FILES}
    assert all((out / link).is_file() for link in links)
    assert "rate limiting off" in index and "<strong>small</strong> world" in index
    for page in NOTEBOOK_PAGES:
        assert (out / page).read_text().count('src="data:image/png;base64,') >= 2
        assert "ProgressModel" not in (out / page).read_text()  # no bar frozen at "0 pages"
    assert "<title>Compliance audit</title>" in (out / "compliance_audit.html").read_text()
    funnel_page = (out / "campaign_funnel.html").read_text()  # the explorer, as a page shows it
    assert funnel_page.count('<div class="dialkit-explorer ') == 1
    assert '<script type="application/vnd.jupyter.widget-view+json">' not in funnel_page
    for text in [result.output, index, *((out / page).read_text() for page in NOTEBOOK_PAGES)]:
        assert "svc_test_" not in text


def test_the_summary_shows_the_files_own_figures(demo: tuple[Path, Result]) -> None:
    out, result = demo
    summary = pd.read_excel(out / "messy_us_cleaned.xlsx", sheet_name="summary",
                            engine="calamine")
    rows, accepted = summary["rows"].sum(), summary.loc[summary["status"] == "accepted", "rows"]
    cover = pd.read_excel(out / "evidence.xlsx", sheet_name="cover", engine="calamine")
    findings = int(cover.set_index("item")["value"]["findings"])

    assert result.exit_code == 0, result.output
    assert (f"  {rows:,} rows checked as the service would: {accepted.sum():,} accepted, "
            f"{rows - accepted.sum():,} refused") in result.output
    assert f"  {findings:,} findings; " in result.output
    stages = pd.read_csv(out / "funnel.csv").groupby("stage", sort=False)["leads"].sum()
    assert f"  {stages['leads']:,} leads → {stages['dialled']:,} dialled → " in result.output


REWRITES = {"lead_cleaning": ["messy_us_cleaned.xlsx", "messy_us_cleaned.csv"],
            "campaign_funnel": ["funnel.csv"], "compliance_audit": ["evidence.xlsx", "report.html"],
            "live_compliance": []}
"""The files each notebook writes, by notebook."""


def test_a_second_run_replaces_the_first_and_links_the_files_it_rewrote(
        demo: tuple[Path, Result], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run into the folder of an earlier one, by notebooks of the same names that rewrite
    its files as they were (the notebooks' own writers replace a file: test_outputs_safe):
    the files that were there before are still found as this run's, linked and read."""
    out = tmp_path / "reports"
    shutil.copytree(demo[0], out)
    notebooks = [_notebook(tmp_path / f"{name}.ipynb", "import os\nfrom pathlib import Path",
                           "folder = Path(os.environ['DIALKIT_OUTPUT_DIR'])",
                           *(f"(folder / {file!r}).write_bytes((folder / {file!r}).read_bytes())"
                             for file in files))
                 for name, files in REWRITES.items()]
    monkeypatch.setattr(dialkit._demo._run, "default_notebooks", lambda: notebooks)

    result = runner.invoke(app, ["demo", "--out", str(out), "--scale", "small"])

    assert result.exit_code == 0, result.output
    links = set(re.findall(r'href="([^"]+)"', (out / "index.html").read_text()))
    assert links == {*NOTEBOOK_PAGES, *FILES}  # files rewritten by this run: still linked
    assert _headlines(result.output) == _headlines(demo[1].output)  # the same files' figures


def _headlines(output: str) -> list[str]:
    figures = [line for line in output.splitlines() if line.startswith("  ")]
    assert len(figures) >= 5, output
    return figures


@pytest.mark.parametrize("page", ["index.html", *NOTEBOOK_PAGES, "report.html"])
def test_no_name_in_the_world_becomes_markup_on_a_page(demo: tuple[Path, Result],
                                                       page: str) -> None:
    """The demo's campaigns are named as an attacker would (demo_run.HOSTILE_NAMES): every
    page shows each name as text, and nothing of them as an element, an attribute, a
    link or mathematics; no plot failed to draw one."""
    out, result = demo
    text = (out / page).read_text(encoding="utf-8")
    assert result.exit_code == 0, result.output
    assert live_markup(text) == []
    shown = BeautifulSoup(text, features="html.parser").get_text()
    reached = [name for name in HOSTILE_NAMES if name in shown]
    assert "Traceback" not in shown and "ParseException" not in shown
    if page == "campaign_funnel.html":  # every campaign in its tables
        assert reached == list(HOSTILE_NAMES)
    elif page in ("compliance_audit.html", "report.html"):  # the campaigns with findings
        assert reached


def _notebook(path: Path, *sources: str) -> Path:
    cells = [new_markdown_cell("# A notebook"), *(new_code_cell(s) for s in sources)]
    nbformat.write(new_notebook(cells=cells), path)
    return path


def test_a_failing_cell_is_named_and_the_demo_exits_non_zero(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    broken = _notebook(tmp_path / "broken.ipynb", "total = 1", "share = total / 0\nshare",
                       "print('not reached')")
    fine = _notebook(tmp_path / "fine.ipynb", "print('still run')")
    monkeypatch.setattr(dialkit._demo._run, "default_notebooks", lambda: [broken, fine])
    out = tmp_path / "reports"

    result = runner.invoke(app, ["demo", "--out", str(out), "--scale", "small"])

    assert result.exit_code == 1
    where = "cell 3 (In [2], 'share = total / 0'): ZeroDivisionError: division by zero"
    assert "[1/2] broken: FAILED after" in result.output and where in result.output
    assert f"error: broken.ipynb failed at {where}" in result.stderr
    assert re.search(r"^\[2/2\] fine: done in", result.output, re.MULTILINE)  # the rest still run
    assert "ZeroDivisionError" in (out / "broken.html").read_text()
    assert "<strong>failed</strong> at cell 3" in (out / "index.html").read_text()


def test_a_missing_notebook_is_refused_before_anything_starts(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="no such notebook: .*lead_cleaning_v2"):
        run_demo(tmp_path, notebooks=[tmp_path / "lead_cleaning_v2.ipynb"])
    with pytest.raises(ValueError, match="pass small, medium, large"):
        demo_config("huge")
    assert not list(tmp_path.iterdir())
    (tmp_path / "taken").write_text("a file, not a folder")
    result = runner.invoke(app, ["demo", "--out", str(tmp_path / "taken"), "--scale", "small"])
    assert result.exit_code == 2
    assert result.stderr == (f"error: the report's folder {tmp_path / 'taken'} cannot be made "
                             "(file exists): name a folder to write the report into\n")


def test_client_sandbox_attaches_to_the_emulator_the_environment_names(
        monkeypatch: pytest.MonkeyPatch) -> None:
    with start(demo_config("small")) as emulator:
        for name, value in attach_environment(emulator).items():
            monkeypatch.setenv(name, value)
        with Client.sandbox() as client:
            assert isinstance(client.emulator, RemoteSandbox)
            assert client.base_url == emulator.base_url
            assert client.emulator.caller_ids() == emulator.caller_ids()
            assert client.me()["account"]["name"] == "demo"
        assert httpx.get(f"{emulator.base_url}/_sandbox/clock").status_code == 200  # running
        with Client.sandbox(db=None, config=demo_config("small")) as own:  # a config: its own
            assert own.base_url != emulator.base_url


@pytest.mark.parametrize(("environ", "message"), [
    ({"DIALKIT_SANDBOX_URL": "http://127.0.0.1:1"}, "DIALKIT_SANDBOX_KEY is not"),
    ({"DIALKIT_SANDBOX_URL": "http://127.0.0.1:1", "DIALKIT_SANDBOX_KEY": "k",
      "DIALKIT_SANDBOX_RATE_LIMIT_SCALE": "off"}, "pass a number"),
])
def test_a_half_set_environment_is_refused(environ: dict[str, str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        RemoteSandbox.from_environment(environ)
    assert RemoteSandbox.from_environment({}) is None


NOTEBOOK_PAGE = """<html><head></head><body>
<div class="jp-Cell jp-MarkdownCell"><h2>3. Where<a>¶</a></h2>
<p>Leads lost at each step, by campaign. More words.</p></div>
<div class="jp-Cell jp-CodeCell"><div class="jp-OutputArea-output">
<table class="dataframe"><thead><tr><th></th><th>id</th><th>rows</th><th>note</th></tr></thead>
<tbody><tr><th>0</th><td>{long}</td><td>2</td><td>{prose}</td></tr>
<tr><th>1</th><td>&lt;NA&gt;</td><td>NaN</td><td>None</td></tr></tbody></table>
<img src="data:image/png;base64,AA==" alt="No description has been provided for this image">
</div></div></body></html>"""


def test_a_notebook_pages_tables_and_plots_are_made_for_their_readers() -> None:
    long, prose = "Z" * 130, "a sentence of many words " * 4
    page = readable(NOTEBOOK_PAGE.format(long=long, prose=prose))

    rows = re.findall(r"<tr>(.*?)</tr>", page, re.DOTALL)
    assert f'<td title="{long}">{"Z" * 30}…{"Z" * 29}</td>' in rows[1]
    assert f'<td class="dialkit-prose">{prose}</td>' in rows[1]
    assert re.findall(r"<td[^>]*>([^<]*)</td>", rows[2]) == ["", "–", ""]  # – for a number
    assert '<div class="dialkit-scroll"><table class="dataframe">' in page
    assert 'alt="Plot: Leads lost at each step, by campaign."' in page
    assert ".dialkit-scroll{overflow-x:auto" in page


def test_a_pages_outputs_are_kept_from_mathjax_and_its_widget_state_left_out() -> None:
    state = '<script type="application/vnd.jupyter.widget-state+json">{"state": {}}</script>'
    page = readable(NOTEBOOK_PAGE.format(long="$x$", prose="$y$").replace(
        "</body>", state + "</body>"))
    assert '<div class="jp-OutputArea-output tex2jax_ignore mathjax_ignore">' in page
    assert "widget-state" not in page


def test_no_text_on_the_demos_pages_is_cut_by_pandas(demo: tuple[Path, Result]) -> None:
    out, _ = demo
    for page in NOTEBOOK_PAGES:
        cells = re.findall(r"<td[^>]*>([^<]*)</td>", (out / page).read_text())
        assert cells and not [c for c in cells if c.endswith("...")], page


def _served_calls(config: SandboxConfig) -> tuple[pd.DataFrame, str]:
    """The calls one emulator of ``config`` serves, and its clock's time after reading them."""
    with Client.sandbox(db=None, config=config) as client:
        calls = client.frames.calls(refresh="full")
        now = httpx.get(f"{client.base_url}/_sandbox/clock").json()["now"]
    return calls.sort_values("id", ignore_index=True), now


def test_the_demo_world_is_the_same_on_every_run(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Two demo emulators serve the same calls, on a clock that stays at the pinned moment
    (two runs of the demo on a real clock gave 12,189 and 12,184 dialled leads); each
    builds its world, rather than copy one built before in this process."""
    monkeypatch.setenv("DIALKIT_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(_tuning, "BUILT_WORLDS_KEPT", 0)
    first, first_now = _served_calls(demo_config("small"))
    second, second_now = _served_calls(demo_config("small"))
    pd.testing.assert_frame_equal(first, second)
    assert first_now == second_now
    assert pd.Timestamp(first_now) == DEMO_START


def test_the_live_page_shows_the_morning_of_dialling_filled_in(demo: tuple[Path, Result]) -> None:
    """Issue 83, item 5: the live notebook's second view is the monitor of a morning of the
    emulator's dialling, delivered to a receiver in the notebook, as drawn when it ended."""
    out, result = demo
    page = BeautifulSoup((out / "live_compliance.html").read_text(encoding="utf-8"),
                         features="html.parser")
    statuses = [view.find("p").get_text(" ", strip=True)
                for view in page.select("div.dialkit-live")]
    assert result.exit_code == 0, result.output
    assert len(statuses) == 2, statuses  # the weeks replayed, then the morning
    morning = re.fullmatch(r"Live compliance : as of 2026-11-02 16:5\d:\d\d UTC; "
                           r"([\d,]+) calls, .*", statuses[1])
    assert morning is not None and int(morning[1].replace(",", "")) > 100, statuses[1]
    assert re.search(r"The predictive campaign was (over its limit at the end of \d+|never "
                     r"over its limit)", page.get_text())  # the morning's own figures
