"""The explorer in a real JupyterLab 4, in headless Chromium at 1,400 x 900 (issue 39).

A JupyterLab server starts on a free loopback port, with its configuration, settings,
workspaces and runtime files in a temporary folder (no news fetched, no update
checked); Playwright drives Debian's ``chromium`` (never a browser of its own, which
could not be downloaded here) to open a notebook that runs ``analytics.explore`` on
the emulator. The test waits for the four plots, checks that nothing in the explorer
is wider than its output area and that each image is shown at most at its natural
size, chooses one campaign in the list, and checks that the page says ``Updating…``,
then shows one campaign and new plots, with still nothing overflowing. Screenshots
before and after are written to ``reports/screenshots/`` to be looked at. Without
chromium the test is skipped, and says how to install it (``python3 tasks.py test``
does, as root on Debian).
"""

from __future__ import annotations

import json
import os
import secrets
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from browser import HEIGHT, WIDTH, chromium

playwright_api = pytest.importorskip("playwright.sync_api")

SCREENSHOTS = Path(__file__).resolve().parents[1] / "reports" / "screenshots"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
NOTEBOOK = {
    "cells": [{"cell_type": "code", "execution_count": None, "id": "explore", "metadata": {},
               "outputs": [], "source": [
                   "import dialkit\n", "from dialkit import analytics\n",
                   "client = dialkit.Client.sandbox()\n",
                   "explorer = analytics.explore(client)\n", "explorer"]}],
    "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python",
                                "name": "python3"}},
    "nbformat": 4, "nbformat_minor": 5}
NO_NEWS = {"fetchNews": "false", "checkForUpdates": False}
"""JupyterLab's notification settings: no request to the internet, no toast asking."""
SEEN = """() => {
  const box = document.querySelector(".jp-OutputArea-output .widget-vbox");
  const edge = box.closest(".jp-OutputArea-output").getBoundingClientRect().right;
  const wider = [...box.querySelectorAll("*")].filter(
    e => e.getBoundingClientRect().right > edge + 1 && e.getClientRects().length);
  const images = [...box.querySelectorAll("img")].map(i => ({
    width: i.getBoundingClientRect().width, natural: i.naturalWidth, loaded: i.complete,
    src: i.src}));
  return {wider: wider.map(e => e.className || e.tagName).slice(0, 5), images: images,
          text: box.innerText, table: box.querySelector(".dialkit-funnel").innerText,
          page: document.documentElement.scrollWidth, window: window.innerWidth,
          copies: [...document.querySelectorAll(".dialkit-explorer")].filter(
            e => e.getClientRects().length).length};
}"""
"""What the explorer looks like in the page: what sticks out of its output area (past
its right edge), each image's shown and natural width, its text."""
WATCH = """() => {
  window.dialkitSaid = [];
  new MutationObserver(() => window.dialkitSaid.push(document.body.innerText.includes(
    "Updating…"))).observe(document.body, {subtree: true, childList: true,
                                           characterData: true});
}"""
"""Record, at every change of the page, whether it says ``Updating…``."""
DONE = """() => {
  const text = document.querySelector(".jp-OutputArea-output .widget-vbox").innerText;
  return text.includes("1 campaign,") && !text.includes("Updating…");
}"""
"""Whether the explorer shows one campaign and has stopped saying ``Updating…`` (the
kernel clears the status after it sends the note, so the note alone comes too early)."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A JupyterLab server serving a folder with the notebook: its notebook's address."""
    if chromium() is None:
        pytest.skip("no chromium on PATH: install Debian's chromium package "
                    "(python3 tasks.py test does so when it runs as root on Debian)")
    home = tmp_path_factory.mktemp("jupyterlab")
    (home / "explore.ipynb").write_text(json.dumps(NOTEBOOK), encoding="utf-8")
    settings = home / "settings" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True)
    (settings / "notification.jupyterlab-settings").write_text(json.dumps(NO_NEWS))
    port, token = free_port(), secrets.token_hex(16)
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(home / "config"),
           "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
           "JUPYTERLAB_SETTINGS_DIR": str(home / "settings"),
           "JUPYTERLAB_WORKSPACES_DIR": str(home / "workspaces")}
    with (home / "server.log").open("w") as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "jupyterlab", "--no-browser", f"--port={port}",
             "--ip=127.0.0.1", "--ServerApp.port_retries=0", f"--IdentityProvider.token={token}",
             f"--ServerApp.root_dir={home}", "--LabApp.expose_app_in_browser=True",
             "--LabApp.extension_manager=readonly", "--allow-root"],
            cwd=home, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.1:{port}"
        _wait_for(f"{base}/api/status?token={token}", server, home / "server.log")
        yield f"{base}/lab/tree/explore.ipynb?token={token}"
    finally:
        server.terminate()  # this test's own child, by its handle
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def _wait_for(url: str, server: subprocess.Popen[bytes], log: Path) -> None:
    """Until the server answers (60 s at most)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and server.poll() is None:
        try:
            if httpx.get(url, timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.25)
    raise RuntimeError("JupyterLab did not start: " + log.read_text()[-2000:])


@pytest.fixture(scope="module")
def page(lab: str) -> Iterator[Any]:
    """A 1,400 x 900 tab of headless Chromium."""
    with playwright_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
        try:
            tab = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
            tab.set_default_timeout(45_000)
            yield tab
        finally:
            browser.close()


def explorer_shown(tab: Any, lab: str) -> dict[str, Any]:
    """Open the notebook, run it, and wait for the explorer's four plots."""
    tab.goto(lab)
    tab.wait_for_function("window.jupyterapp && window.jupyterapp.started !== undefined")
    tab.wait_for_selector(".jp-Notebook .jp-Cell", state="attached")
    tab.wait_for_function("() => [...document.querySelectorAll('.jp-StatusBar-TextItem')]"
                          ".some(item => item.innerText.endsWith('| Idle'))")
    tab.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
    tab.wait_for_function("""() => {
      const images = document.querySelectorAll(".jp-OutputArea-output .widget-vbox img");
      return images.length === 4 && [...images].every(i => i.complete && i.naturalWidth);
    }""", timeout=90_000)
    return tab.evaluate(SEEN)  # type: ignore[no-any-return]


def problems(seen: dict[str, Any]) -> list[str]:
    """What a reader would see wrong: the page or an element wider than it should be, an
    image not loaded or stretched past its natural width."""
    found = [f"{name} sticks out of the output area" for name in seen["wider"]]
    if seen["copies"]:  # the view as HTML, for pages without a kernel, hides itself here
        found.append("the explorer's view as HTML shows beside the widget")
    if seen["page"] > seen["window"]:
        found.append(f"the page is {seen['page']} px wide in a {seen['window']} px window")
    for n, image in enumerate(seen["images"], 1):
        if not image["loaded"] or not image["natural"]:
            found.append(f"image {n} did not load")
        elif image["width"] > image["natural"] + 1:
            found.append(f"image {n} is stretched to {image['width']:.0f} px from "
                         f"{image['natural']} px")
    return found


def shoot(tab: Any, name: str) -> None:
    """A screenshot of the page 1,400 px wide and tall enough for the whole explorer
    (JupyterLab scrolls inside its own panel, so a full-page shot is one screen)."""
    tab.set_viewport_size({"width": WIDTH, "height": 3000})
    tab.wait_for_timeout(300)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    tab.screenshot(path=SCREENSHOTS / f"{name}.png")
    tab.set_viewport_size({"width": WIDTH, "height": HEIGHT})


def test_the_explorer_runs_in_jupyterlab_and_a_campaign_choice_redraws_it(
        page: Any, lab: str) -> None:
    try:
        before = explorer_shown(page, lab)
    finally:  # what the page showed, even if the explorer never came
        shoot(page, "jupyterlab-explorer")
    assert problems(before) == []  # beside the file browser: a box 968 px wide
    assert "11 campaigns," in before["text"] and "cmp_" not in before["table"].split(
        "archived campaign")[0]  # named, but for the archived ones

    listed = page.locator(".jp-OutputArea-output .widget-vbox select")
    label = listed.locator("option").first.inner_text()
    first = label.replace("\xa0", " ")  # ipywidgets writes a label's spaces unbreakable
    page.evaluate(WATCH)
    listed.select_option(label=label)
    page.wait_for_function(DONE)  # the status is cleared last, after the note and plots
    page.wait_for_function("() => [...document.querySelectorAll('.jp-OutputArea-output "
                           ".widget-vbox img')].every(i => i.complete && i.naturalWidth)")
    after = page.evaluate(SEEN)
    shoot(page, "jupyterlab-one-campaign")

    assert problems(after) == []
    assert True in page.evaluate("window.dialkitSaid")  # it said Updating… meanwhile
    rows = [line.split("\t")[0] for line in after["table"].splitlines()[1:]]
    assert rows == [first, "all campaigns"]
    assert all(new["src"] != old["src"] for new, old in zip(
        after["images"], before["images"], strict=True))

    page.evaluate("window.jupyterapp.commands.execute('application:toggle-left-area')")
    page.wait_for_timeout(500)  # the output area, wider without the file browser
    wider = page.evaluate(SEEN)
    shoot(page, "jupyterlab-wide")
    assert wider["images"][1]["width"] > after["images"][1]["width"]
    assert problems(wider) == []
