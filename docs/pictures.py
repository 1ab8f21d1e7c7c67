"""Draws the docs' pictures: the README's two and the gallery's, one per plot function.

All come from the emulator's world pinned at the moment the funnel notebook
uses, so the pages show the numbers a new user sees there. Run it after a
change to the plots or the world, and commit the PNG files it writes:

    .venv/bin/python docs/pictures.py

``GALLERY`` is the gallery page's list: ``docs/gallery.md`` shows each picture
with the code that draws it, and ``tests/test_site.py`` checks that every
``plot_*`` function of ``dialkit.analytics`` and ``dialkit.compliance`` is in it.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # files only: no window, whatever the user's backend

import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)

import dialkit  # noqa: E402
from dialkit import analytics, compliance  # noqa: E402

WORLD = "2026-11-02T15:00:00Z"
"""The moment the world is pinned at, as in ``notebooks/campaign_funnel.ipynb``."""
IMAGES = Path(__file__).resolve().parent / "images"

GALLERY: dict[str, Callable[[dict[str, Any]], Any]] = {
    "plot_funnel": lambda d: analytics.plot_funnel(d["funnel"]),
    "plot_answer_heatmap": lambda d: analytics.plot_answer_heatmap(
        analytics.answer_rates(d["frames"]["calls"])),
    "plot_disposition_mix": lambda d: analytics.plot_disposition_mix(
        analytics.disposition_mix(d["frames"]["calls"], freq="W")),
    "plot_attempts": lambda d: analytics.plot_attempts(
        analytics.attempts_to_contact(d["frames"]["leads"], d["frames"]["calls"])),
    "plot_summary": lambda d: compliance.plot_summary(d["report"]),
    "plot_by_state": lambda d: compliance.plot_by_state(d["report"]),
    "plot_upcoming": lambda d: compliance.plot_upcoming(d["scheduled"], d["upcoming"]),
    "plot_abandonment": lambda d: compliance.plot_abandonment(d["gauges"].abandonment),
}
"""Each plot function of the gallery, drawn from the world's tables."""
README = {"funnel": "plot_funnel", "audit_summary": "plot_summary"}
"""The README's pictures, by file name: the gallery's drawings of those functions."""


def tables(client: dialkit.Client) -> dict[str, Any]:
    """What the plots draw: the frames, the funnel, the audit (with the house rules, so
    law and policy show apart), the scheduled calls as the compliance notebook
    judges them, and a monitor's gauges after the world's calls."""
    frames = analytics.load(client)
    audited = compliance.load(client)
    as_of = audited["calls"]["created_at"].max()
    with compliance.Monitor(leads=audited["leads"], dnc=audited["dnc"],
                            verified_caller_ids=client.emulator.caller_ids()) as monitor:
        monitor.observe(audited["calls"])
        gauges = monitor.gauges()
    return {"gauges": gauges,
        "frames": frames, "funnel": analytics.funnel(**frames),
        "report": compliance.audit(**audited, blocked_countries=["KP", "IR"],
                                   verified_caller_ids=client.emulator.caller_ids(),
                                   policy=compliance.HOUSE_RULES),
        "scheduled": compliance.scheduled(client, horizon="14D", as_of=as_of),
        "upcoming": compliance.upcoming(client, horizon="14D", as_of=as_of,
                                        policy=compliance.HOUSE_RULES)}


def main() -> None:
    """Write ``images/gallery/<function>.png`` for each of :data:`GALLERY`, and the
    README's ``images/funnel.png`` and ``images/audit_summary.png``."""
    (IMAGES / "gallery").mkdir(parents=True, exist_ok=True)
    with dialkit.Client.sandbox(start_time=WORLD) as client:
        drawn = tables(client)
    for name, draw in GALLERY.items():
        ax = draw(drawn)
        target = IMAGES / "gallery" / f"{name}.png"
        ax.figure.savefig(target, dpi=100, bbox_inches="tight")
        plt.close(ax.figure)
        print(f"wrote {target}")
        for file in (file for file, plot in README.items() if plot == name):
            # the same bytes: a second savefig would render the figure again
            shutil.copyfile(target, IMAGES / f"{file}.png")
            print(f"wrote {IMAGES / f'{file}.png'}")


if __name__ == "__main__":
    main()
