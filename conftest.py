"""Hooks for the whole test command: the tests, the notebooks and the doctests.

The slow tests are marked ``slow`` here, in one list, so ``-m "not slow"`` is a
developer's quick loop (CI runs all: nothing is skipped by the mark). The doctests of
``src/dialkit`` (collected by ``--doctest-modules``) each run in an empty folder of their
own, so an example can write ``vendor.csv`` or ``events.sqlite`` as a reader's session
would, without touching the checkout, the user's cache or another worker's files. They
share one emulator per worker (started when the first doctest runs, its world pinned),
which ``dialkit.Client.sandbox()`` in an example attaches to through the variables of
``dialkit.sandbox.attach_environment``, and one frames cache beside it, so the examples
read as a reader types them and still run in seconds. (At the root, not in ``src/``: a
second top-level ``conftest`` loaded after ``tests/conftest.py`` would shadow the one the
tests import.)
"""

from __future__ import annotations

import importlib
import json
import sys
import time
from collections.abc import Iterator

import pytest

DOCTEST_NOW = "2026-11-02T15:00:00+00:00"
"""The doctests' world's "now"."""

SLOW = [
    # a world, the demo, a kernel, a browser, a fresh venv or a benchmark each
    "notebooks/",
    "tests/test_benchmarks_smoke.py",
    "tests/test_browser.py",
    "tests/test_demo.py",
    "tests/test_docs.py::test_every_python_block_of_the_page_runs",
    "tests/test_extras.py",
    "tests/test_jupyterlab.py",
    "tests/test_notebooks.py",
    "tests/test_package.py",
    "tests/analytics/test_dask.py",
    "tests/leads/test_dask_clean.py",
    "tests/compliance/test_dask_audit.py",
    "tests/compliance/test_dask_audit_scale.py",
    "tests/compliance/test_ground_truth.py",
    "tests/sandbox/test_world_state_truth.py",
    "tests/sandbox/test_world_determinism.py::test_two_machines_on_two_days_build_the_same_world",
    "tests/sandbox/test_server.py::test_cli_prints_its_address_first_then_answers",
    "tests/sandbox/test_server.py::test_cli_db_keeps_data_across_restarts",
    "tests/sandbox/test_openapi_unhooked.py::"
    "test_schemathesis_without_hooks_finds_no_refusal_the_document_could_foretell",
    # hypothesis and whole-sample comparisons with the slow path
    "tests/leads/test_normalize.py::test_any_cell_gets_one_row_and_nothing_else",
    "tests/leads/test_normalize.py::test_the_verdict_is_phonenumbers_own_on_the_cleaned_text",
    "tests/leads/test_normalize_examples.py",
    "tests/leads/test_fast.py::test_normalize_equals_the_slow_path_on_every_row",
    "tests/leads/test_rewrite.py::test_every_rewritten_cell_gets_the_slow_path_s_answer",
    "tests/leads/test_clean.py::test_clean_keeps_every_row_of_any_frame",
    "tests/leads/test_clean.py::test_random_csv_text_raises_only_a_lead_file_error",
    "tests/compliance/test_audit_paths.py::"
    "test_every_call_finding_shows_the_local_time_a_row_by_row_reading_gives",
    "tests/compliance/test_window.py::"
    "test_an_audit_of_any_window_says_what_the_whole_audit_says_of_its_calls",
    "tests/compliance/test_window.py::test_a_window_on_dask_says_what_pandas_says",
    # processes killed and resumed, refreshes over many pages
    "tests/leads/test_import.py::test_an_import_killed_half_way_resumes_and_imports_each_row_once",
    "tests/leads/test_import_journal.py::"
    "test_a_batch_killed_with_its_in_process_emulator_is_imported_once_on_the_second_rerun",
    "tests/leads/test_import_journal.py::"
    "test_a_journal_line_past_a_file_size_limit_stops_the_import_naming_why_and_it_resumes",
    "tests/frames/test_cache.py::test_processes_loading_one_frame_at_once_get_the_same_frame",
    "tests/frames/test_refresh.py::test_an_incremental_refresh_fetches_only_the_new_pages",
    "tests/frames/test_refresh.py::"
    "test_an_incremental_refresh_updates_every_record_within_the_overlap",
]
"""Test modules, tests (``path::name``, every parameter) or folders (ending ``/``) that
take over about 3 s each on a quiet 2-core machine; ``tests/test_slow_marks.py`` checks
each still names something."""


def is_slow(nodeid: str) -> bool:
    """Whether the test ``nodeid`` is one :data:`SLOW` names."""
    base = nodeid.split("[", 1)[0]
    return any(base.startswith(entry) if entry.endswith("/") else
               base == entry or base.startswith(entry + "::") for entry in SLOW)


LONGEST_FIRST = [
    "tests/compliance/test_dask_audit_scale.py",  # one test of 124-136 s
    "tests/test_package.py",  # about 60 s: the wheel built, installed, run (600 s limits)
    "tests/test_benchmarks_smoke.py",  # 79-98 s: every benchmark, three at a time
    "tests/test_demo.py",  # about 75 s
    "tests/compliance/test_dask_audit.py",  # about 90 s: 35 + 30 + 13 s and its account
    "tests/test_docs.py",  # about 70 s: scale.md's 34-37 s, compliance.md's 13 s, ...
    "tests/leads/test_dask_clean.py",  # about 70 s
    "tests/analytics/test_dask.py",  # about 60 s: 41-52 s larger than a worker, ...
    "tests/compliance/test_ground_truth.py",  # about 45 s: the medium world's 26-30 s, once
    "tests/leads/test_corpus.py",  # about 35 s: 41 published files, cleaned whole and on Dask
    "notebooks/",  # about 25 s each: a kernel and a world (collected after tests/)
]
"""The modules (or folders, ending ``/``) that take longest on a quiet 2-core machine
(about, from the whole suite's ``--durations``): they run first, the rest in collection
order, so that the short modules even out the end. ``--dist loadfile`` hands the modules
out in this order (``--no-loadscope-reorder``); by default xdist hands out those of the
most tests first, and the two-minute scale test (one test) came 184th of 242 modules,
with only one-test modules (doctests, mostly) left for the other worker meanwhile. The
scale test starts beside the wheel's module, whose tests allow 600 s, rather than beside
another Dask module's, which allow the default 120 s."""


@pytest.hookimpl(trylast=True)  # after pytest's own grouping of tests by fixture
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if is_slow(item.nodeid):
            item.add_marker(pytest.mark.slow)
    items.sort(key=lambda item: _rank(item.nodeid.split("::", 1)[0]))


def _rank(path: str) -> int:
    """Where the module ``path`` comes in :data:`LONGEST_FIRST`; after them all if not."""
    return next((n for n, entry in enumerate(LONGEST_FIRST) if path == entry
                 or entry.endswith("/") and path.startswith(entry)), len(LONGEST_FIRST))


@pytest.fixture(scope="session")
def _doctest_emulator(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """One emulator for every doctest of this session (of this xdist worker): the
    variables that make ``dialkit.Client.sandbox()`` in an example attach to it, and
    one cache folder they share, so the frames are fetched once, not per example.

    It is ``Client.sandbox()``'s default world, pinned as ``dialkit demo`` pins its own (a
    fixed "now" and a manual clock, so no dialling goes on between examples, and the
    same world on every run) and not rate limited."""
    import dialkit.sandbox

    base = dialkit.sandbox.default_config(start_time=DOCTEST_NOW)
    server = base.server.model_copy(update={"rate_limit_scale": 0, "clock": "manual"})
    with dialkit.sandbox.start(base.model_copy(update={"server": server})) as emulator:
        yield {**dialkit.sandbox.attach_environment(emulator),
               "DIALKIT_CACHE_DIR": str(tmp_path_factory.mktemp("doctest-cache"))}


@pytest.fixture(autouse=True)
def _doctest_folder(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
                    monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A doctest's folder, emulator and ``dialkit`` (as after the package docstring's
    ``import dialkit``); the figures its plots drew (Agg, no window) are closed after."""
    if not isinstance(request.node, pytest.DoctestItem):
        yield
        return
    monkeypatch.chdir(tmp_path_factory.mktemp("doctest"))
    for name, value in request.getfixturevalue("_doctest_emulator").items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    namespace = request.getfixturevalue("doctest_namespace")
    namespace["dialkit"] = importlib.import_module("dialkit")
    namespace["body"], namespace["headers"] = _signed_delivery()
    yield
    if "matplotlib.pyplot" in sys.modules:
        sys.modules["matplotlib.pyplot"].close("all")


def _signed_delivery() -> tuple[bytes, dict[str, str]]:
    """A ``call.completed`` delivery signed with ``whsec_test`` as the service signs one,
    for the webhook examples after ``verify``'s, which builds it in full for the reader."""
    from dialkit.webhooks import sign

    event_id = "evt_5f0c6c1e-3b7a-4c55-9a51-2d4f6f3e8a10"
    body = json.dumps({
        "id": event_id, "type": "call.completed", "created_at": "2026-11-02T15:00:00Z",
        "api_version": "v1", "schema_version": 1,
        "data": {"call_id": "call_1b4e28ba-2fa1-4d2e-883f-0016d3cca427"}}).encode()
    sent = int(time.time())
    return body, {"Service-Timestamp": str(sent),
                  "Service-Signature": sign(body, "whsec_test", timestamp=sent),
                  "Service-Event-Id": event_id,
                  "Service-Delivery-Id": "whd_0d6a3c8e-8f7b-4d0e-9c43-5b1e2a7f9d31"}
