"""The explorer without a browser: its widget tree, what each control recomputes and
redraws, the names and counts it shows, and the plain message outside a notebook (the
explorer in a real JupyterLab: tests/test_jupyterlab.py)."""

from __future__ import annotations

import base64
import datetime as dt
import re

import ipywidgets as widgets  # type: ignore[import-untyped]
import pandas as pd
import pytest
from matplotlib.figure import Figure
from test_known import account

import dialkit
from dialkit.analytics import (
    AnalyticsInputError,
    Explorer,
    answer_rates,
    attempts_to_contact,
    disposition_mix,
    explore,
    funnel,
    load,
    plot_funnel,
)
from dialkit.analytics._plots._explore import NO_NOTEBOOK, PLOTS, UPDATING, campaign_labels

SVG = b"<?xml"


def test_outside_a_notebook_explore_prints_what_to_call_instead(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert explore(account()) is None
    assert capsys.readouterr().out.strip() == NO_NOTEBOOK


def test_the_widget_tree_holds_the_controls_the_table_and_the_plots() -> None:
    shown = Explorer(account())
    assert isinstance(shown.widget, widgets.VBox)
    assert shown.campaigns.options == (("cmp_1", "cmp_1"), ("cmp_2", "cmp_2"))  # no names
    assert shown.campaigns.value == ("cmp_1", "cmp_2")
    assert (str(shown.start.value), str(shown.end.value)) == ("2026-06-01", "2026-06-02")
    assert set(shown.images) == {"funnel", "answer_rates", "disposition_mix", "attempts"}
    assert all(bytes(image.value).startswith(SVG) and image.format == "svg+xml"
               for image in shown.images.values())
    assert "all campaigns" in shown.table.value and "cmp_2" in shown.table.value


def test_beside_the_widget_a_page_without_a_kernel_gets_the_view_as_html() -> None:
    shown = Explorer(account())
    shown.campaigns.value = ("cmp_2",)
    widget, static = shown.outputs()
    assert "application/vnd.jupyter.widget-view+json" in widget
    html = static["text/html"]
    assert html.endswith(shown.static_html())
    images = re.findall(r'<img src="data:image/svg\+xml;base64,([^"]+)" alt="[^"]+" '
                        r'style="width: 100%; max-width: \d+px; height: auto">', html)
    assert [base64.b64decode(i) for i in images] == [shown.images[name].value for name in (
        "funnel", "answer_rates", "disposition_mix", "attempts")]
    assert shown.table.value in html and "<b>1</b> campaign, " in html


def test_campaigns_are_shown_by_name_with_their_ids_as_tooltips() -> None:
    names = pd.DataFrame({"id": ["cmp_1", "cmp_2"], "name": ["Spring renewals", None]})
    shown = Explorer({**account(), "campaigns": names})
    assert shown.campaigns.options == (("Spring renewals", "cmp_1"),
                                       ("archived campaign cmp_2", "cmp_2"))  # not listed
    assert shown.campaigns.tooltip == ("Spring renewals: cmp_1\n"
                                       "archived campaign cmp_2: cmp_2")
    assert '<th title="cmp_1">Spring renewals</th>' in shown.table.value
    shown.campaigns.value = ("cmp_1",)
    assert '<th title="cmp_1">Spring renewals</th>' in shown.static_html()


@pytest.mark.parametrize(("names", "labels"), [
    (["Spring", "Spring"], ["Spring (cmp_1)", "Spring (cmp_2)"]),  # shared: the id's start
    (["Spring", "Autumn <b>"], ["Spring", "Autumn <b>"])])
def test_a_name_two_campaigns_share_gets_the_start_of_each_id(
        names: list[str], labels: list[str]) -> None:
    given = pd.DataFrame({"id": ["cmp_1", "cmp_2"], "name": names})
    shown = Explorer({**account(), "campaigns": given})
    assert [label for label, _ in shown.campaigns.options] == labels
    assert "Autumn <b>" not in shown.table.value  # markup in a name is text


def test_an_archived_campaign_is_named_by_the_start_of_its_id() -> None:
    long_id = "cmp_7ca4779e-a1a6-4d1e-b5a0-e167c52d4f26"
    assert campaign_labels([long_id], pd.DataFrame({"id": [], "name": []})) == {
        long_id: "archived campaign cmp_7ca4779e"}
    assert campaign_labels([long_id], None) == {long_id: "cmp_7ca4779e"}


def test_choosing_a_campaign_redraws_the_table_and_the_plots_and_recomputes_nothing() -> None:
    shown = Explorer(account())
    before = {name: image.value for name, image in shown.images.items()}
    assert shown.computed == shown.drawn == dict.fromkeys(PLOTS, 1)
    shown.campaigns.value = ("cmp_2",)
    assert "cmp_1" not in shown.table.value and "cmp_2" in shown.table.value
    assert all(shown.images[name].value != before[name] for name in before)
    assert shown.computed == dict.fromkeys(PLOTS, 1)  # the tables were every campaign's
    assert shown.drawn == dict.fromkeys(PLOTS, 2)
    assert shown.note.value.startswith("<b>1</b> campaign, <b>2</b> calls, <b>1</b> lead. ")


def test_a_date_recomputes_every_view_and_the_direction_the_mix_alone() -> None:
    shown = Explorer(account())
    shown.end.value = shown.start.value
    assert shown.computed == shown.drawn == dict.fromkeys(PLOTS, 2)
    shown.direction.value = "inbound"
    assert shown.computed == shown.drawn == {**dict.fromkeys(PLOTS, 2), "disposition_mix": 3}


def test_while_it_recomputes_the_explorer_says_so_and_holds_its_controls() -> None:
    shown = Explorer(account())
    seen: list[tuple[str, bool, bool]] = []
    shown.images["funnel"].observe(lambda _: seen.append((
        shown.status.value, shown.campaigns.disabled,
        "dialkit-updating" in shown.widget._dom_classes)), names="value")
    shown.campaigns.value = ("cmp_1",)
    assert seen == [(UPDATING, True, True)]
    assert (shown.status.value, shown.campaigns.disabled) == ("", False)
    assert "dialkit-updating" not in shown.widget._dom_classes


def test_no_campaign_chosen_shows_empty_views() -> None:
    shown = Explorer(account())
    shown.campaigns.value = ()
    assert shown.note.value.startswith("<b>0</b> campaigns, <b>0</b> calls, <b>0</b> leads.")
    assert all(len(table) == 0 for table in shown.shown.values())
    assert all(bytes(image.value).startswith(SVG) for image in shown.images.values())


def test_each_image_is_as_wide_as_its_box_and_at_most_its_natural_width() -> None:
    shown = Explorer(account())
    for name, image in shown.images.items():
        svg = bytes(image.value).decode()
        inches = float(re.search(r'<svg[^>]* width="([\d.]+)pt"', svg).group(1)) / 72
        assert (image.layout.width, image.layout.height) == ("100%", "auto")
        assert image.layout.max_width == f"{inches * 96:g}px", name


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


@pytest.fixture(scope="module")
def world() -> dict[str, pd.DataFrame]:
    """The emulator's account: eleven campaigns, two of them archived."""
    client = dialkit.Client.sandbox()
    try:
        return {**load(client), "campaigns": client.frames.campaigns()}
    finally:
        client.close()


SHOWN = {
    "funnel": lambda frames, direction: funnel(**{
        name: frame for name, frame in frames.items() if name != "campaigns"}),
    "answer_rates": lambda frames, direction: answer_rates(frames["calls"]),
    "disposition_mix": lambda frames, direction: disposition_mix(
        frames["calls"], direction=None if direction == "both" else direction),
    "attempts": lambda frames, direction: attempts_to_contact(frames["leads"],
                                                              frames["calls"]),
}


def test_each_view_shows_what_its_function_gives_the_chosen_frames(
        world: dict[str, pd.DataFrame]) -> None:
    shown = Explorer(world)
    assert len(shown.campaigns.options) == 11
    assert all(not label.startswith("cmp_") for label, _ in shown.campaigns.options)
    first = shown.start.value
    for campaigns, start, direction in [
            (shown.campaigns.value[:3], first, "outbound"),
            (shown.campaigns.value[2:], first + dt.timedelta(days=3), "both"),
            (shown.campaigns.value[-1:], first + dt.timedelta(days=1), "inbound")]:
        shown.campaigns.value, shown.start.value = campaigns, start
        shown.direction.value = direction
        frames = shown.selected()
        for name, expected in SHOWN.items():
            pd.testing.assert_frame_equal(shown.shown[name], expected(frames, direction),
                                          check_dtype=False, obj=name)


def test_a_title_names_the_one_campaign_shown_by_its_label() -> None:
    names = pd.DataFrame({"id": ["cmp_1", "cmp_2"], "name": ["Spring renewals", "Autumn"]})
    shown = Explorer({**account(), "campaigns": names})
    shown.campaigns.value = ("cmp_1",)
    title = plot_funnel(shown.shown["funnel"], ax=Figure().add_subplot()).get_title()
    assert title == "Funnel: campaign Spring renewals, 7 leads"
