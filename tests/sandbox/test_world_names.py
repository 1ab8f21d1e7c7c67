"""One campaign id, one name, at every scale of the world: the small and medium worlds
share their first ids, and named them differently."""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np

from dialkit.sandbox._state._store import Store, seed_dataset
from dialkit.sandbox._world._build import build_world, drawn_uuid_texts


def _names(scale: str) -> dict[str, str]:
    store = Store()
    try:
        build_world(store, "demo", seed=7, scale=scale,
                    anchor=datetime(2026, 11, 21, 10, tzinfo=UTC))
        return dict(store.rows("SELECT id, name FROM campaigns WHERE dataset = ?",
                               (seed_dataset("demo"),)))
    finally:
        store.close()


def test_a_campaign_id_has_one_name_in_the_small_and_medium_worlds() -> None:
    """About 10 s: the medium world is the smallest other scale a user meets (the demo's)."""
    small, medium = _names("small"), _names("medium")
    assert len(medium) > len(small) > 5 and set(small) < set(medium)
    assert {i: medium[i] for i in small} == small
    assert len(set(medium.values())) == len(medium)  # no two campaigns share a name


def test_the_ids_drawn_first_are_the_same_whatever_their_count() -> None:
    few = drawn_uuid_texts(np.random.default_rng(3), "cmp_", 5)
    many = drawn_uuid_texts(np.random.default_rng(3), "cmp_", 40)
    assert dict(zip(*few, strict=True)).items() <= dict(zip(*many, strict=True)).items()
    assert few[0] == sorted(few[0])
