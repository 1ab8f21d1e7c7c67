"""The explorer without a browser: its widget tree, a redraw on every change, and the plain
message outside a notebook."""

from __future__ import annotations

import base64
import re

import ipywidgets as widgets  # type: ignore[import-untyped]
import pandas as pd
import pytest
from test_known import account

from dialkit.analytics import AnalyticsInputError, Explorer, explore
from dialkit.analytics._explore import NO_NOTEBOOK

PNG = b"\x89PNG"


def test_outside_a_notebook_explore_prints_what_to_call_instead(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert explore(account()) is None
    assert capsys.readouterr().out.strip() == NO_NOTEBOOK


def test_the_widget_tree_holds_the_controls_the_table_and_the_plots() -> None:
    shown = Explorer(account())
    assert isinstance(shown.widget, widgets.VBox)
    assert shown.campaigns.options == (("cmp_1", "cmp_1"), ("cmp_2", "cmp_2"))
    assert shown.campaigns.value == ("cmp_1", "cmp_2")
    assert (str(shown.start.value), str(shown.end.value)) == ("2026-06-01", "2026-06-02")
    assert set(shown.images) == {"funnel", "answer_rates", "disposition_mix", "attempts"}
    assert all(bytes(image.value).startswith(PNG) for image in shown.images.values())
    assert "all campaigns" in shown.table.value and "cmp_2" in shown.table.value


def test_beside_the_widget_a_page_without_a_kernel_gets_the_view_as_html() -> None:
    shown = Explorer(account())
    shown.campaigns.value = ("cmp_2",)
    bundle = shown._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    html = bundle["text/html"]
    assert html == shown.static_html()
    images = re.findall(r'<img src="data:image/png;base64,([^"]+)" alt="[^"]+">', html)
    assert [base64.b64decode(i) for i in images] == [shown.images[name].value for name in (
        "funnel", "answer_rates", "disposition_mix", "attempts")]
    assert shown.table.value in html and "<b>1</b> campaigns" in html


def test_campaigns_are_shown_by_name_and_id_when_the_frames_hold_them() -> None:
    names = pd.DataFrame({"id": ["cmp_1", "cmp_2"], "name": ["Spring renewals", None]})
    shown = Explorer({**account(), "campaigns": names})
    assert shown.campaigns.options == (("Spring renewals (cmp_1)", "cmp_1"),
                                       ("cmp_2", "cmp_2"))  # no name: the id alone
    assert "<th>Spring renewals (cmp_1)</th>" in shown.table.value
    shown.campaigns.value = ("cmp_1",)
    assert "<th>Spring renewals (cmp_1)</th>" in shown.static_html()


def test_choosing_a_campaign_redraws_the_table_and_the_plots() -> None:
    shown = Explorer(account())
    before = {name: image.value for name, image in shown.images.items()}
    shown.campaigns.value = ("cmp_2",)
    assert "cmp_1" not in shown.table.value and "cmp_2" in shown.table.value
    assert all(shown.images[name].value != before[name] for name in before)
    assert "<b>1</b> campaigns" in shown.note.value


def test_a_date_range_narrows_the_calls() -> None:
    shown = Explorer(account())
    shown.end.value = shown.start.value  # only 1 June: L4's answered call was on 2 June
    assert "<b>8</b> calls" in shown.note.value
    assert "1 (12%)" in shown.table.value  # one lead of 8 in a conversation: L5


def test_the_direction_changes_the_mix_only() -> None:
    shown = Explorer(account())
    funnel_png, mix_png = shown.images["funnel"].value, shown.images["disposition_mix"].value
    shown.direction.value = "both"
    assert shown.images["disposition_mix"].value != mix_png
    assert shown.images["funnel"].value == funnel_png


@pytest.mark.parametrize(("given", "missing", "named"), [
    (["leads"], "no calls", "leads"), (["calls"], "no leads", "calls"),
    (["callbacks", "appointments"], "no leads and no calls", "callbacks, appointments"),
    ([], "no leads and no calls", "none")])
def test_frames_without_leads_or_calls_are_told_what_to_pass(
        given: list[str], missing: str, named: str) -> None:
    frames = {name: frame for name, frame in account().items() if name in given}
    with pytest.raises(AnalyticsInputError, match=rf"^the frames have {missing} \(given: "
                       rf"{named}\): pass \{{'leads': client\.frames\.leads\(\), 'calls': "
                       r"client\.frames\.calls\(\)\}.*analytics\.load\(client\)$"):
        Explorer(frames)


def test_a_frame_given_as_none_counts_as_missing() -> None:
    with pytest.raises(AnalyticsInputError, match=r"^the frames have no calls \(given: "
                       r"leads\)"):
        Explorer({"leads": account()["leads"], "calls": None})  # type: ignore[dict-item]


def test_the_explorer_refuses_what_is_not_a_mapping_of_frames() -> None:
    with pytest.raises(TypeError, match=r"^Explorer takes the frames, a mapping such as "
                       r"analytics\.load\(client\), not list"):
        Explorer([account()["leads"]])  # type: ignore[arg-type]
