"""The monitor's live view (issue 83, item 3): redrawn in place as events land, at most once
an interval and once after a burst, and as its reader sees it in headless Chromium."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from dialkit._shown._pages import TABLE_STYLE
from dialkit.compliance import LiveView, Monitor

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from test_monitor import _answered, _logged  # noqa: E402

from browser import Browser, chromium  # noqa: E402

SCREENSHOTS = Path(__file__).resolve().parents[2] / "reports" / "screenshots"
LOOK = """(async () => {
  await Promise.all([...document.images].map(i => i.decode().catch(() => null)));
  const text = document.body.innerText;
  return {missing: (text.match(/(^|[^\\w<])(None|nan|NaN|NaT)(?!\\w)|<NA>/g) || []),
          wide: document.documentElement.scrollWidth, text,
          images: [...document.images].map(i => i.naturalWidth)};
})()"""


def _monitor() -> Monitor:
    monitor = Monitor(verified_caller_ids=["+14155550100"])
    monitor.observe([*(_answered(n, 60) for n in range(30)),
                     *(_logged(n, "sale") for n in range(30))])
    return monitor


def test_the_view_is_redrawn_in_place_as_events_land() -> None:
    with _monitor() as monitor:
        view = monitor.view()
        parts = list(view.widget.children)
        assert view.drawn == 1 and "30 calls, 0 findings" in view.status.value
        assert "more to a breach" not in view.findings.value
        view._every = 0  # every observation redraws
        monitor.observe(_answered(30, 2))  # abandoned: 1 of 31, over 3 %
        assert view.drawn == 2 and list(view.widget.children) == parts
        assert "31 calls, 1 finding, 1 of them provisional" in view.status.value
        assert "abandonment (provisional)" in view.findings.value
        assert ">0<" in view.periods.value  # no call more to a breach


def test_a_burst_of_events_is_drawn_once_more_after_its_last() -> None:
    with _monitor() as monitor:
        view = LiveView(monitor, every=3)
        for n in range(30, 34):
            monitor.observe(_answered(n, 60))
        assert view.drawn == 1, "within the interval: not redrawn at once"
        deadline = time.monotonic() + 10
        while view.drawn == 1 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert view.drawn == 2 and "34 calls" in view.status.value


def test_a_closed_view_is_no_longer_drawn_and_costs_the_monitor_nothing() -> None:
    with _monitor() as monitor:
        view = monitor.view()
        view._every = 0
        view.close()
        view.close()  # again: nothing more
        monitor.observe(_answered(30, 2))
        assert view.drawn == 1 and "30 calls" in view.status.value
        with pytest.raises(ValueError, match="was not subscribed"):
            monitor.unsubscribe(view._heard)


def test_the_view_as_its_reader_sees_it(tmp_path: Path) -> None:
    binary = chromium()
    if binary is None:
        pytest.skip("no chromium on PATH: install Debian's chromium package "
                    "(python3 tasks.py test does so when it runs as root on Debian)")
    with _monitor() as monitor:
        monitor.observe([_answered(30, 2), {
            "id": "evt_late", "type": "call.completed", "created_at": "2026-11-02T15:45:00Z",
            "data": {"call_id": "call_late", "direction": "outbound", "status": "no_answer",
                     "from": "+14155550100", "to": "+12125550199", "campaign_id": "cmp_2",
                     "started_at": "2026-11-03T02:30:00Z"}}])  # 21:30 in New York
        page = tmp_path / "live.html"
        page.write_text(f"<!doctype html><meta charset=utf-8><style>{TABLE_STYLE}</style>"
                        f"{monitor.view().static_html()}", "utf-8")
    browser = Browser(binary)
    try:
        seen = browser.look(page, LOOK, SCREENSHOTS / "live_view.png")
    finally:
        browser.close()
    assert seen["missing"] == [] and seen["wide"] <= 1400
    assert seen["images"] and all(width > 300 for width in seen["images"])
    assert "calling_hours" in seen["text"] and "abandonment (provisional)" in seen["text"]
