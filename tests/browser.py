"""Headless Chromium driven over the DevTools protocol: a page as its reader sees it.

One browser (Debian's ``chromium``) starts with ``--remote-debugging-port=0`` and
says on stderr which websocket it listens on; one tab, attached in flat mode, is
sized 1,400 x 900, loads each page, answers a script's questions about the page
as laid out (widths, images, text) and takes a screenshot of the whole page. The
protocol rather than ``--dump-dom``/``--screenshot``: those flags start a browser
per page, shoot only the first screen, and can only report what a script writes
into the DOM; the protocol asks the live page directly. ``websockets`` comes with
``uvicorn[standard]``; no browser build is downloaded.
"""

from __future__ import annotations

import base64
import contextlib
import itertools
import json
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

WIDTH, HEIGHT = 1400, 900
TALLEST = 30_000
"""A screenshot's height at most, in CSS pixels (beyond it the picture is cut)."""


def chromium() -> str | None:
    """The path of Debian's ``chromium`` (or ``chromium-browser``), or ``None``."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


class Browser:
    """A headless Chromium with one tab, for :meth:`look`; close it with :meth:`close`."""

    def __init__(self, binary: str, timeout: float = 30, width: int = WIDTH) -> None:
        self.timeout = timeout
        self.width = width
        self._ids = itertools.count(1)
        self._stack = contextlib.ExitStack()
        try:
            self._start(binary)
        except BaseException:
            self._stack.close()
            raise

    def _start(self, binary: str) -> None:
        # chromium's helper processes can outlive it for a moment and write to the
        # profile as it is removed ("Directory not empty" at a test's teardown, once)
        profile = Path(self._stack.enter_context(
            tempfile.TemporaryDirectory(prefix="dialkit-chromium-",
                                        ignore_cleanup_errors=True)))
        self._log = profile / "stderr.txt"
        with self._log.open("w") as log:  # a file, not a pipe: nobody need drain it
            self._process = subprocess.Popen(
                [binary, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                 "--no-first-run", "--remote-debugging-port=0", f"--user-data-dir={profile}",
                 f"--window-size={self.width},{HEIGHT}", "about:blank"],
                stdout=subprocess.DEVNULL, stderr=log)
        self._stack.callback(self._end)
        self._socket: ClientConnection = self._stack.enter_context(
            connect(self._address(), max_size=None, open_timeout=self.timeout))
        target = self._send("Target.createTarget", url="about:blank")["targetId"]
        self._session = self._send("Target.attachToTarget", targetId=target,
                                   flatten=True)["sessionId"]
        self._send("Page.enable", session=True)
        self._send("Emulation.setDeviceMetricsOverride", session=True, width=self.width,
                   height=HEIGHT, deviceScaleFactor=1, mobile=False)

    def _address(self) -> str:
        """The browser's websocket, from the line Chromium writes when it listens."""
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline and self._process.poll() is None:
            found = re.search(r"DevTools listening on (ws://\S+)", self._log.read_text())
            if found:
                return found.group(1)
            time.sleep(0.05)
        raise RuntimeError("chromium gave no DevTools address: " + self._log.read_text()[-500:])

    def _send(self, method: str, *, session: bool = False, wait_for: str | None = None,
              **params: Any) -> dict[str, Any]:
        """Send one command; return its result once answered (and, with ``wait_for``, once
        that event has come too)."""
        ident = next(self._ids)
        message: dict[str, Any] = {"id": ident, "method": method, "params": params}
        if session:
            message["sessionId"] = self._session
        self._socket.send(json.dumps(message))
        result: dict[str, Any] | None = None
        deadline = time.monotonic() + self.timeout
        while result is None or wait_for is not None:
            reply = json.loads(self._socket.recv(timeout=max(deadline - time.monotonic(), 0)))
            if reply.get("id") == ident:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                result = reply["result"]
            elif wait_for is not None and reply.get("method") == wait_for:
                wait_for = None
        return result

    def look(self, page: Path, script: str, screenshot: Path) -> Any:
        """Load ``page``, return what ``script`` (an expression, maybe a promise) evaluates
        to there, and write a PNG of the whole page to ``screenshot``."""
        self._send("Page.navigate", session=True, wait_for="Page.loadEventFired",
                   url=page.resolve().as_uri())
        answer = self._send("Runtime.evaluate", session=True, expression=script,
                            returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in answer:
            raise RuntimeError(f"the script failed on {page.name}: {answer['exceptionDetails']}")
        size = self._send("Page.getLayoutMetrics", session=True)["cssContentSize"]
        shot = self._send("Page.captureScreenshot", session=True, format="png",
                          captureBeyondViewport=True, clip={
                              "x": 0, "y": 0, "width": self.width, "scale": 1,
                              "height": min(max(size["height"], HEIGHT), TALLEST)})
        screenshot.parent.mkdir(parents=True, exist_ok=True)
        screenshot.write_bytes(base64.b64decode(shot["data"]))
        return answer["result"].get("value")

    def close(self) -> None:
        """Close the connection, end the browser and remove its profile."""
        self._stack.close()

    def _end(self) -> None:
        """End the browser: this process's own child, by its handle."""
        self._process.terminate()
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
