"""One implementation of each rule for pandas and Dask (#25).

Every function that runs on Dask is a plan in :data:`dialkit._parallel._partitions.PLANS`, whose
part and combine functions live in the pandas path's modules, and the Dask modules define
no public function but one entry per plan: a function added to one path only fails here.
Without Dask (or without a Dask frame) nothing imports it.
"""

from __future__ import annotations

import importlib
import inspect
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pandas as pd
import pytest

import dialkit.analytics._dask as analytics_dask
import dialkit.compliance._dask._audit as compliance_dask
import dialkit.leads._dask._client as leads_dask
from dialkit._parallel import _partitions
from dialkit._parallel._partitions import PLANS, Plan, on_dask, register

ENTRIES = {"funnel": "dialkit.analytics", "answer_rates": "dialkit.analytics",
           "clean": "dialkit.leads", "audit": "dialkit.compliance",
           "audit:abandonment": "dialkit.compliance", "audit:repeats": "dialkit.compliance"}
"""Each plan and the package whose public function of that name (before a ``:``, which
names one stage of it) runs it."""
PANDAS_MODULES = [importlib.import_module(name) for name in (
    "dialkit.analytics._funnel", "dialkit.analytics._rates", "dialkit.leads._clean._judge",
    "dialkit.compliance._dask._parts")]
"""The pandas path's modules, which register the plans as they are imported."""


def _public_functions(module: ModuleType) -> set[str]:
    return {name for name, value in vars(module).items() if inspect.isfunction(value)
            and value.__module__ == module.__name__ and not name.startswith("_")}


def test_every_plan_is_a_public_function_of_its_package() -> None:
    assert set(PLANS) == set(ENTRIES)
    for name, package in ENTRIES.items():
        assert callable(getattr(sys.modules[package], name.partition(":")[0]))


def test_plans_are_made_of_the_pandas_paths_functions() -> None:
    for plan in PLANS.values():
        for function in (plan.part, plan.combine):
            module = function.__module__
            assert not module.endswith("_dask"), (plan.name, function)
            assert module.startswith(ENTRIES[plan.name] + "._"), (plan.name, module)


def test_the_dask_modules_hold_one_entry_per_plan_and_no_rule() -> None:
    analytics = {name for name, package in ENTRIES.items() if package == "dialkit.analytics"}
    assert _public_functions(analytics_dask) == analytics
    assert _public_functions(leads_dask) == {"whole", "normalizer"}  # clean's two hooks
    source = inspect.getsource(leads_dask)
    assert 'PLANS["clean"]' in source and "normalize(" not in source
    assert _public_functions(compliance_dask) == {"audit"}
    source = inspect.getsource(compliance_dask)
    assert 'PLANS["audit"]' in source and 'PLANS["audit:abandonment"]' in source
    assert "findings(" not in source  # it makes no finding: no rule of its own


def test_a_plan_is_registered_once() -> None:
    plan = PLANS["funnel"]
    with pytest.raises(ValueError, match="registered already"):
        register(Plan("funnel", plan.part, plan.combine))
    assert PLANS["funnel"] is plan


def test_pandas_frames_and_lead_files_stay_on_pandas() -> None:
    assert not on_dask((pd.DataFrame(),), compute=True)
    assert not on_dask(("vendor.csv",), compute=True)
    assert not _partitions.is_dataset("vendor.csv")
    assert _partitions.is_dataset("calls.parquet")


def test_pandas_inputs_import_no_dask() -> None:  # funnel, answer rates, audit
    code = ("import pandas as pd\nfrom dialkit.analytics import funnel, answer_rates\n"
            "calls = pd.DataFrame({'direction': ['outbound'], 'campaign_id': ['cmp_a'], "
            "'to_number': ['+12125550101'], 'created_at': [pd.Timestamp('2026-11-02', tz='UTC')],"
            " 'answered_at': [pd.NaT], 'ended_at': [pd.NaT], 'disposition': [None]})\n"
            "leads = pd.DataFrame({'id': ['lead_1'], 'campaign_id': ['cmp_a'], "
            "'phone': ['+12125550101']})\n"
            "assert funnel(leads, calls)['leads'].tolist()[:2] == [1, 1]\n"
            "answer_rates(calls)\n"
            "from dialkit.compliance import audit\n"
            "calls = calls.assign(id='call_1', from_number='+14155550100')\n"
            "assert audit(calls).findings.empty\n"
            "import sys, json\nprint(json.dumps(sorted(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    loaded = set(json.loads(done.stdout.splitlines()[-1]))
    assert not {m for m in loaded if m.split(".")[0] in ("dask", "distributed")}
    assert "dialkit._parallel._partitions_dask" not in loaded


def test_without_dask_a_path_is_read_with_pandas_and_a_lazy_answer_names_the_extra(
        tmp_path: Path) -> None:
    code = f"""
import sys
sys.modules["dask"] = None  # as if Dask were not installed
import pandas as pd
from dialkit.analytics import funnel
folder = {str(tmp_path)!r}
pd.DataFrame({{"id": ["lead_1"], "campaign_id": ["cmp_a"], "phone": ["+12125550101"]}}
             ).to_parquet(folder + "/leads.parquet")
pd.DataFrame({{"direction": ["outbound"], "campaign_id": ["cmp_a"], "to_number": ["+12125550101"],
               "answered_at": [pd.NaT], "ended_at": [pd.NaT], "disposition": [None]}}
             ).to_parquet(folder + "/calls.parquet")
table = funnel(folder + "/leads.parquet", folder + "/calls.parquet")
assert table["leads"].tolist()[:3] == [1, 1, 0], table
try:
    funnel(folder + "/leads.parquet", folder + "/calls.parquet", compute=False)
except ImportError as error:
    print(error)
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert "pip install 'dialkit[dask]'" in done.stdout
