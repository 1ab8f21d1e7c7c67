"""What a fresh process imports: only what the call it makes needs (issue 21).

``import dialkit.leads`` took 0.84 s when it imported every function's modules
(``phonenumbers``' geocoder, pandas, httpx through the client), and every
``dialkit`` command imported every command group (the emulator, the MCP server,
uvicorn). Each case runs in a fresh interpreter and lists the modules it loaded.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SAMPLE = Path(__file__).resolve().parent / "fixtures" / "clean" / "mix_1500.csv"
"""Countries as ISO codes: no country named in words, for which the geocoder is loaded."""
NEVER = ["fastapi", "uvicorn", "starlette", "mcp", "matplotlib", "ipywidgets", "xlsxwriter",
         "phonenumbers.geocoder",
         "dialkit.sandbox", "dialkit.mcp", "dialkit.webhooks", "dialkit.compliance",
         "dialkit.analytics", "dialkit.cli._mcp", "dialkit.cli._sandbox",
         "dialkit.cli._webhooks", "dialkit.cli._compliance", "dialkit.cli._campaigns",
         "dialkit.cli._cache", "dialkit.cli._samples", "dialkit.samples",
         "dialkit.leads._import._run", "dialkit.leads._import._report",
         "dialkit.leads._import._journal"]
"""Loaded by no case below."""


def loaded(code: str) -> set[str]:
    """The modules a fresh interpreter holds after running ``code``."""
    done = subprocess.run([sys.executable, "-c", f"{code}\nimport sys, json\n"
                           "print(json.dumps(sorted(sys.modules)))"],
                          capture_output=True, text=True, check=True)
    return set(json.loads(done.stdout.splitlines()[-1]))


def test_import_dialkit_leads_loads_none_of_its_dependencies() -> None:
    found = loaded("import dialkit.leads")
    heavy = [*NEVER, "phonenumbers", "phonenumbers.geocoder", "pandas", "numpy", "pyarrow",
             "httpx", "pydantic", "dialkit.client", "dialkit.frames"]
    assert found & set(heavy) == set()


def test_import_dialkit_loads_no_client_until_asked() -> None:
    assert {"httpx", "dialkit.client"} & loaded("import dialkit") == set()
    assert {"httpx", "dialkit.client"} <= loaded("import dialkit\ndialkit.Client")


def test_help_lists_every_group_and_imports_none() -> None:
    code = ("from dialkit.cli import app, GROUPS\ntry:\n    app(['--help'])\n"
            "except SystemExit:\n    pass")
    found = loaded(code)
    assert found & {*NEVER, "dialkit.cli._leads", "pandas", "numpy", "httpx"} == set()


def test_leads_clean_imports_only_what_it_uses(tmp_path: Path) -> None:
    code = ("from dialkit.cli import app\ntry:\n"
            f"    app(['leads', 'clean', {str(SAMPLE)!r}, '--out', "
            f"{str(tmp_path / 'out.csv')!r}])\n"
            "except SystemExit as done:\n    assert not done.code, done.code")
    found = loaded(code)
    assert "dialkit.leads._clean._judge" in found and (tmp_path / "out.csv").exists()
    assert found & {*NEVER, "httpx", "dialkit.client", "dialkit.frames._cache"} == set()


@pytest.mark.parametrize(("chosen", "threads"), [(None, "1"), ("2", "2")])
def test_a_command_starts_one_blas_thread_unless_the_user_chose(
        tmp_path: Path, chosen: str | None, threads: str) -> None:
    """Set before numpy is imported (``--help`` above imports none), or too late."""
    code = ("import os, sys\nfrom dialkit.cli import main\nassert 'numpy' not in sys.modules\n"
            f"sys.argv = ['dialkit', 'leads', 'clean', {str(SAMPLE)!r}, '--out', "
            f"{str(tmp_path / 'out.csv')!r}]\ntry:\n    main()\n"
            "except SystemExit as done:\n    assert not done.code, done.code\n"
            "assert 'numpy' in sys.modules\nprint(os.environ['OPENBLAS_NUM_THREADS'])")
    env = {name: value for name, value in os.environ.items()
           if name != "OPENBLAS_NUM_THREADS"} | ({} if chosen is None else
                                                 {"OPENBLAS_NUM_THREADS": chosen})
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, env=env)
    assert done.stdout.splitlines()[-1] == threads


@pytest.mark.parametrize("name", ["clean", "normalize", "read", "CleanResult", "import_leads"])
def test_each_export_is_found_on_first_use(name: str) -> None:
    found = loaded(f"import dialkit.leads\nassert callable(dialkit.leads.{name})")
    assert any(module.startswith("dialkit.leads._") for module in found)


def test_an_emulator_loads_no_mcp_sdk_until_mcp_is_asked() -> None:
    """The SDK and the tools cost 2 CPU-seconds a process, 0.05 s a start (issue 49)."""
    code = ("import httpx\nfrom dialkit.sandbox import start\nwith start() as running:\n"
            "    headers = {'Authorization': f'Bearer {running.key()}'}\n"
            "    assert httpx.get(running.base_url + '/v1/me', headers=headers).is_success\n"
            "    assert httpx.get(running.base_url + '/_sandbox/clock').is_success")
    assert loaded(code) & {"mcp", "mcp_types", "dialkit.mcp", "dialkit.sandbox._http._mcp"} == set()


def test_an_unknown_name_is_an_attribute_error() -> None:
    import dialkit.leads

    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        dialkit.leads.nope  # noqa: B018
