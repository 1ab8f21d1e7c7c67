"""The demo's pages as their readers see them: headless Chromium at 1,400 and 1,000 px.

Each page of ``dialkit demo --scale small`` (the index, each notebook, the audit's
report) is loaded in a real browser, which says whether the page is wider than the
window, whether a text shows ``None``, ``nan`` or ``<NA>``, whether a table cell is
wider than a reader can take in, whether a word is broken across two lines
(``calling_hou`` / ``rs``: ids wrap only after their ``_``, ``-`` or ``/``), whether
every image loaded and says what it shows, and, for the audit's report on a screen
of 1,400 px, whether a table of findings reaches past the window (its last columns
out of sight); a screenshot of each whole page is written to ``reports/screenshots/``
to be looked at. Chromium is Debian's package (``python3 tasks.py test`` installs it
when it runs as root on Debian); without it these tests are skipped, and say why.
"""

from __future__ import annotations

import base64
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result

from browser import Browser, chromium
from demo_run import RUNS_THE_DEMO, small_demo

pytestmark = RUNS_THE_DEMO

SCREENSHOTS = Path(__file__).resolve().parents[1] / "reports" / "screenshots"
PAGES = ["index", "lead_cleaning", "campaign_funnel", "compliance_audit", "live_compliance",
         "report"]
WIDTHS = (1400, 1000)
"""A desktop screen, and a laptop's window beside another."""
FITTING = {("report", 1400)}
"""The pages whose every table fits the window at that width: the evidence's findings on
a regulator's screen. Elsewhere a table wider than the window scrolls in its own box."""
WIDEST_CELL = 600
"""A table cell's width at most, in CSS pixels: a wider one is a text to cut or wrap."""
PLACEHOLDER_ALT = "No description has been provided for this image"
CHECK = """(async () => {
  await Promise.all([...document.images].map(i => i.decode().catch(() => null)));
  const missing = /(^|[^\\w<])(None|nan|NaN|NaT)(?!\\w)|<NA>/;
  const shown = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentElement.closest(".jp-InputArea, script, style")) continue;
    if (missing.test(node.data)) shown.push(node.data.trim().slice(0, 60));
  }
  const broken = [];
  const texts = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = texts.nextNode(); node; node = texts.nextNode()) {
    const parent = node.parentElement;
    if (parent.closest("script, style, title") || !parent.getClientRects().length) continue;
    for (const word of node.data.matchAll(/[\\p{L}\\p{N}]{2,}/gu)) {
      const range = document.createRange();
      range.setStart(node, word.index);
      range.setEnd(node, word.index + word[0].length);
      if (new Set([...range.getClientRects()].map(r => Math.round(r.top))).size > 1)
        broken.push(word[0]);
    }
  }
  return {
    width: document.documentElement.scrollWidth, window: window.innerWidth, shown: shown,
    broken: broken, tables: [...document.querySelectorAll("table")]
      .filter(t => t.getBoundingClientRect().right > window.innerWidth)
      .map(t => t.querySelector("th, td").textContent.trim().slice(0, 30)),
    images: [...document.images].map(i => ({
      loaded: i.complete && i.naturalWidth > 0, alt: (i.getAttribute("alt") || "").trim()})),
    cells: [...document.querySelectorAll("td, th")]
      .filter(c => c.getBoundingClientRect().width > WIDEST_CELL)
      .map(c => c.textContent.trim().slice(0, 60))};
})()""".replace("WIDEST_CELL", str(WIDEST_CELL))


def problems(seen: dict[str, Any], *, fitting: bool = False) -> list[str]:
    """What a reader would stumble on, from what :data:`CHECK` saw on a page; ``fitting``,
    a table that reaches past the window too."""
    found = []
    if seen["width"] > seen["window"]:
        found.append(f"the page is {seen['width']} px wide in a {seen['window']} px window")
    if fitting:
        found += [f"a table reaches past the window: {text!r}" for text in seen["tables"]]
    found += [f"a word is broken across two lines: {word!r}" for word in seen["broken"]]
    found += [f"a text shows a missing value: {text!r}" for text in seen["shown"]]
    found += [f"a table cell is wider than {WIDEST_CELL} px: {text!r}" for text in seen["cells"]]
    for n, image in enumerate(seen["images"], 1):
        if not image["loaded"]:
            found.append(f"image {n} did not load")
        if image["alt"] in ("", PLACEHOLDER_ALT):
            found.append(f"image {n} has no alt text")
    return found


@pytest.fixture(scope="module")
def browsers() -> Iterator[dict[int, Browser]]:
    """A browser per width of :data:`WIDTHS`."""
    binary = chromium()
    if binary is None:
        pytest.skip("no chromium on PATH: install Debian's chromium package "
                    "(python3 tasks.py test does so when it runs as root on Debian)")
    running: dict[int, Browser] = {}
    try:
        for width in WIDTHS:
            running[width] = Browser(binary, width=width)
        yield running
    finally:
        for browser in running.values():
            browser.close()


@pytest.fixture(scope="module")
def browser(browsers: dict[int, Browser]) -> Browser:
    return browsers[WIDTHS[0]]


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Result]:
    """The small demo's folder (one run, shared with ``test_demo``)."""
    return small_demo(tmp_path_factory.getbasetemp())


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", PAGES)
def test_a_demo_page_reads_well_in_a_browser(browsers: dict[int, Browser],
                                              demo: tuple[Path, Result], name: str,
                                              width: int) -> None:
    out, result = demo
    assert result.exit_code == 0, result.output
    shot = SCREENSHOTS / f"{name}-{width}.png"
    shot.unlink(missing_ok=True)

    seen = browsers[width].look(out / f"{name}.html", CHECK, shot)

    assert problems(seen, fitting=(name, width) in FITTING) == []
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


PIXEL = base64.b64encode(bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000100e221bc330000000049454e44ae426082")).decode()
FAULTY = f"""<!doctype html><meta charset="utf-8"><body>
<div class="jp-InputArea"><pre>if x is None: pass</pre></div>
<div style="width: 2000px">too wide</div>
<pre style="width: 6em; white-space: pre-wrap; word-break: break-all">calling_hours</pre>
<table><tr><td>None</td><td>nan</td><td>&lt;NA&gt;</td><td>{"Z" * 150}</td><td>NaNa</td>
</tr></table>
<img src="missing.png" alt="a plot that is not there">
<img src="data:image/png;base64,{PIXEL}">
<img src="data:image/png;base64,{PIXEL}" alt="{PLACEHOLDER_ALT}">
<img src="data:image/png;base64,{PIXEL}" alt="one pixel, described"></body>"""


def test_the_check_finds_each_fault_a_reader_would_see(browser: Browser, tmp_path: Path) -> None:
    page = tmp_path / "faulty.html"
    page.write_text(FAULTY, encoding="utf-8")

    found = problems(browser.look(page, CHECK, tmp_path / "faulty.png"), fitting=True)

    assert found == [
        "the page is 2008 px wide in a 1400 px window",
        "a table reaches past the window: 'None'",
        "a word is broken across two lines: 'hours'",
        "a text shows a missing value: 'None'", "a text shows a missing value: 'nan'",
        "a text shows a missing value: '<NA>'",
        f"a table cell is wider than {WIDEST_CELL} px: {'Z' * 60!r}",
        "image 1 did not load", "image 2 has no alt text", "image 3 has no alt text"]
