"""A clean's options are declared once (``leads/_options.py``): the entry points' signatures
are built from the typed sets, the drivers' :class:`CleanOptions` has the same fields, and
an option an entry point does not take is refused as Python refuses such a keyword, naming
the ones it takes."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import pytest

import dialkit.leads
from dialkit.leads._options import CleanArgs, CleanOptions, FileArgs

ACCOUNT = ("client", "campaign_id")
"""The options that say which account's checks run: each entry point's own parameters."""

ENTRY_POINTS: dict[Callable[..., Any], str] = {
    dialkit.leads.clean: "FileArgs", dialkit.leads.clean_file: "FileArgs",
    dialkit.leads.import_leads: "FileArgs", dialkit.leads.clean_dataset: "CleanArgs"}


def _declared(typed: type) -> dict[str, str]:
    return {name: hint.__forward_arg__ for name, hint in typed.__annotations__.items()}


def test_the_drivers_options_are_the_declared_sets_fields_and_the_account() -> None:
    fields = dict(CleanOptions.__annotations__)
    assert [fields.pop(name) for name in ACCOUNT] == ["Client | None", "str | None"]
    assert fields == _declared(FileArgs)
    assert set(_declared(CleanArgs)) < set(fields)  # a file's reading besides


@pytest.mark.parametrize("entry", ENTRY_POINTS, ids=lambda entry: entry.__name__)
def test_each_entry_point_takes_the_options_as_one_typed_set(entry: Callable[..., Any]) -> None:
    parameters = inspect.signature(entry).parameters.values()
    assert [each.annotation for each in parameters
            if each.kind is inspect.Parameter.VAR_KEYWORD] == [f"Unpack[{ENTRY_POINTS[entry]}]"]
    named = {each.name for each in parameters if each.kind is not inspect.Parameter.VAR_KEYWORD}
    assert not named & set(FileArgs.__annotations__)  # no option written out beside the set


def test_an_option_not_taken_is_refused_naming_the_function_and_what_it_takes(
        tmp_path: Any) -> None:
    source = tmp_path / "vendor.csv"
    source.write_text("phone\n020 7946 0018\n", encoding="utf-8")  # a London number
    with pytest.raises(TypeError, match=r"^clean\(\) got an unexpected keyword argument "
                                        r"'regoin'; its options are alt_phone_field, "):
        dialkit.leads.clean(source, regoin="GB")  # type: ignore[call-arg]
    with pytest.raises(TypeError, match=r"clean_dataset\(\) .* 'sheet'; .*region$"):
        dialkit.leads.clean_dataset(str(source), sheet=0)  # type: ignore[call-arg]
    assert dialkit.leads.clean_file(source).counts == {"invalid": 1}  # read as American
    assert dialkit.leads.clean_file(source, region="GB", header="infer").counts == {
        "accepted": 1}
