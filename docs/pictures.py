"""Draws the README's pictures: the funnel and the compliance audit's summary.

Both come from the emulator's world pinned at the moment the funnel notebook
uses, so the README shows the numbers a new user sees there. Run it after a
change to the plots or the world, and commit the PNG files it writes:

    .venv/bin/python docs/pictures.py
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only: no window, whatever the user's backend

import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)

import dialkit  # noqa: E402
from dialkit import analytics, compliance  # noqa: E402

WORLD = "2026-11-02T15:00:00Z"
"""The moment the world is pinned at, as in ``notebooks/campaign_funnel.ipynb``."""
IMAGES = Path(__file__).resolve().parent / "images"


def main() -> None:
    """Write ``images/funnel.png`` and ``images/audit_summary.png``."""
    IMAGES.mkdir(exist_ok=True)
    with dialkit.Client.sandbox(start_time=WORLD) as client:
        funnel = analytics.funnel(**analytics.load(client))
        report = compliance.audit(**compliance.load(client), blocked_countries=["KP", "IR"],
                                  verified_caller_ids=client.emulator.caller_ids(),
                                  policy=compliance.HOUSE_RULES)
    for name, ax in (("funnel", analytics.plot_funnel(funnel)),
                     ("audit_summary", compliance.plot_summary(report))):
        ax.figure.savefig(IMAGES / f"{name}.png", dpi=100, bbox_inches="tight")
        plt.close(ax.figure)
        print(f"wrote {IMAGES / name}.png")


if __name__ == "__main__":
    main()
