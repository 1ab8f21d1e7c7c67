"""The core install and its extras (issue 24): what ``pip install dialkit`` leaves out
is hidden in a fresh interpreter, as if not installed, and each feature that needs an
extra says which one to install; the core works without any of them."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import dialkit
from dialkit._utils._extras import PACKAGES, needs

NOT_IN_CORE = {
    "sandbox": ["fastapi", "starlette", "httptools", "mcp", "mcp_types"],
    "mcp": ["mcp", "mcp_types", "starlette"],
    "notebook": ["ipywidgets", "ipykernel", "IPython"],
    "demo": ["nbclient", "nbconvert", "nbformat", "jupyter_client", "bs4"],
    "dask": ["dask", "distributed"],
}
"""By extra, the top-level modules of the packages it installs and the core does not
(uvicorn is the core's, for ``dialkit webhooks listen``; h11 and anyio come with
httpx)."""
EVERY_EXTRA = sorted({name for names in NOT_IN_CORE.values() for name in names})


def run(code: str, cwd: Path, hide: list[str] = EVERY_EXTRA) -> subprocess.CompletedProcess[str]:
    """``code`` in a fresh interpreter where the modules ``hide`` cannot be imported,
    as if their packages were not installed."""
    prelude = f"import sys\nfor name in {hide!r}:\n    sys.modules[name] = None\n"
    return subprocess.run([sys.executable, "-c", prelude + code], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(("extra", "code"), [
    ("sandbox", "import dialkit.sandbox"),
    ("sandbox", "import dialkit\ndialkit.Client.sandbox()"),
    ("mcp", "import dialkit.mcp"),
    ("notebook", "from dialkit.analytics import explore"),
    ("notebook", "import dialkit.analytics\ndialkit.analytics.Explorer"),
    ("demo", "import dialkit._demo._run"),
    ("dask", "import dialkit._parallel._partitions_dask"),
])
def test_a_feature_without_its_extra_names_the_extra(extra: str, code: str,
                                                     tmp_path: Path) -> None:
    done = run(code, tmp_path, hide=NOT_IN_CORE[extra])
    assert done.returncode != 0
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: ")
    assert f"pip install 'dialkit[{extra}]'" in last
    missing = re.search(r"\((\w+) could not be imported\)", last)
    assert missing is not None and missing[1] in NOT_IN_CORE[extra]


def test_the_demo_without_the_emulator_names_the_demo_extra(tmp_path: Path) -> None:
    # dialkit[demo] brings the emulator: naming dialkit[sandbox] would leave nbclient out
    done = run("import dialkit._demo._run", tmp_path, hide=NOT_IN_CORE["sandbox"])
    assert "pip install 'dialkit[demo]'" in done.stderr
    assert "dialkit[sandbox]" not in done.stderr.strip().splitlines()[-1]


def test_the_core_works_without_any_extra(tmp_path: Path) -> None:
    done = run("""
import dialkit, dialkit.analytics, dialkit.client, dialkit.compliance, dialkit.frames
import dialkit.leads, dialkit.webhooks
from dialkit import samples
result = dialkit.leads.clean(dialkit.leads.read(samples.path("messy_us.csv")))
print(dialkit.__version__, len(result.accepted) > 0)
""", tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [dialkit.__version__, "True"]


@pytest.mark.parametrize("args", [["--version"], ["webhooks", "listen", "--help"],
                                  ["leads", "clean", "--help"]])
def test_the_dialkit_command_works_without_any_extra(args: list[str], tmp_path: Path) -> None:
    done = run(f"sys.argv = ['dialkit', *{args!r}]\nfrom dialkit.cli import main\nmain()",
               tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("dialkit " if args == ["--version"] else "Usage: dialkit")


def test_import_dialkit_loads_no_extra(tmp_path: Path) -> None:
    extras = sorted(set().union(*PACKAGES.values()))
    done = run(f"import dialkit, dialkit.samples\n"
               f"print(sorted({{m.partition('.')[0] for m in sys.modules}} & {set(extras)!r}))",
               tmp_path, hide=[])
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_an_import_error_of_dialkit_itself_is_not_blamed_on_an_extra() -> None:
    with pytest.raises(ImportError) as raised, needs("sandbox"):
        import dialkit._no_such_module  # type: ignore[import-not-found]  # noqa: F401
    assert "dialkit[" not in str(raised.value)
    assert raised.value.name == "dialkit._no_such_module"
