"""Sandbox sessions that carry over: a world kept in a file keeps its keys, its identity
and so its cache; a world in memory takes its cache with it when it stops."""

from __future__ import annotations

from pathlib import Path

import pytest
from pandas.testing import assert_frame_equal

from conftest import START
from dialkit import Client
from dialkit.frames import CacheMissError
from dialkit.sandbox._server import resolve_config


def test_a_kept_world_finds_its_keys_data_and_cache_again(tmp_path: Path) -> None:
    db = tmp_path / "world.sqlite"
    # a pinned world: the number added below is on the DNC list of some hours' worlds
    world = {"db": db, "cache_dir": tmp_path / "cache", "start_time": START}
    with Client.sandbox(**world) as first:
        campaigns = first.frames.campaigns(progress=False)
        paused = next(first.campaigns.list(status="paused")).id
        added = first.leads.create(campaign_id=paused, phone="+442079460501").lead_id
        identity = first.service_identity

    with Client.sandbox(**world) as again:
        assert again.service_identity == identity and identity.startswith("sandbox:")
        assert_frame_equal(again.frames.campaigns(refresh="offline"), campaigns)
        assert again.leads.get(added or "").phone == "+442079460501"


def test_a_kept_worlds_default_keys_are_stable_and_its_own(tmp_path: Path) -> None:
    one, other = tmp_path / "one.sqlite", tmp_path / "other.sqlite"
    keys = [resolve_config(None, db).accounts[0].clients[0].keys for db in (one, one, other)]
    assert [k.key for k in keys[0]] == [k.key for k in keys[1]]
    assert not {k.key for k in keys[0]} & {k.key for k in keys[2]}
    assert resolve_config(None).accounts[0].clients[0].keys[0].key != keys[0][0].key
    assert one.stat().st_mode & 0o777 == 0o600  # the file holds keys


def test_a_world_in_memory_takes_its_cache_with_it(tmp_path: Path) -> None:
    with Client.sandbox(cache_dir=tmp_path) as client:
        client.frames.campaigns(progress=False)
        folder = client.cache.path
        assert folder.exists()
    assert not folder.exists()
    with Client.sandbox(cache_dir=tmp_path) as fresh:
        assert fresh.cache.path != folder
        with pytest.raises(CacheMissError):
            fresh.frames.campaigns(refresh="offline")
