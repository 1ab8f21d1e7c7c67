"""The emulator's world keeps the law the audit applies: both place a US number in a state
by its area code through the same table (``dialkit._places``), so a state's planted cases
are judged by the state the audit finds (issue 24; the world read the geocoder before)."""

from __future__ import annotations

import tomllib
from importlib import resources

import pandas as pd

from dialkit._law import _jurisdictions as jurisdictions
from dialkit._places._states import places
from dialkit.sandbox._world._kept_law._place import area_jurisdiction

TABLE = tomllib.loads(resources.files("dialkit._places").joinpath("area_codes.toml")
                      .read_text(encoding="utf-8"))["states"]


def _audit_row(phone: str) -> str:
    """The row the audit applies by the number's state (``""``: no state row)."""
    state = places(pd.Series([phone], dtype="string[pyarrow]")).state[0]
    ids = {row.id for row in jurisdictions.all()}
    return f"US-{state}" if state is not None and f"US-{state}" in ids else ""


def test_the_world_and_the_audit_give_each_area_code_the_same_row() -> None:
    codes = [(state, code) for state, listed in TABLE.items() for code in listed]
    assert len(codes) > 300
    for state, code in codes:
        phone = f"+1{code}5550123"
        assert places(pd.Series([phone])).state[0] == state, phone
        assert area_jurisdiction("US", phone[:5]) == _audit_row(phone), phone
    rows = {area_jurisdiction("US", f"+1{code}") for _, code in codes}
    assert {"US-FL", "US-LA", "US-TX"} <= rows  # the state rows are reached, not all ""


def test_an_area_code_of_no_state_has_no_row_in_either() -> None:
    listed = {code for codes in TABLE.values() for code in codes}
    for code in (800, 888, 900, 204, 416):  # toll-free, premium, Canada's
        assert code not in listed
        assert area_jurisdiction("US", f"+1{code}") == ""
        assert places(pd.Series([f"+1{code}5550123"])).state[0] is None
