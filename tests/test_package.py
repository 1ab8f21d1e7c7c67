"""The package people install (issue 24): the packaged sample files
(:mod:`dialkit.samples`), the notebooks as package data, and a wheel that works on its
own in a fresh virtual environment, away from this repository."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import tarfile
import tomllib
import zipfile
from importlib.resources import files
from pathlib import Path

import pandas as pd
import pytest

import dialkit
from dialkit import samples
from dialkit._demo._run import NOTEBOOKS, default_notebooks

ROOT = Path(__file__).resolve().parents[1]
SAMPLE_FILES = sorted(p.name for p in (ROOT / "data_samples").iterdir()
                      if p.suffix in (".csv", ".tsv", ".xlsx"))
MAPPED = {"dialkit.notebooks": "notebooks", "dialkit.data_samples": "data_samples"}


def test_pyproject_lists_every_package_of_src_and_the_two_mapped_folders() -> None:
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    under_src = {".".join(p.parent.relative_to(ROOT / "src").parts)
                 for p in (ROOT / "src" / "dialkit").rglob("__init__.py")}
    assert sorted(setuptools["packages"]) == sorted(under_src | set(MAPPED))
    assert {k: v for k, v in setuptools["package-dir"].items() if k} == MAPPED


def test_the_samples_are_the_data_files_of_data_samples() -> None:
    assert samples.names() == SAMPLE_FILES
    for name in samples.names():
        assert samples.path(name).read_bytes() == (ROOT / "data_samples" / name).read_bytes()


def test_a_sample_path_is_a_file_pandas_reads() -> None:
    dnc = pd.read_csv(samples.path("dnc_list.csv"), dtype=str)
    assert len(dnc) == 40
    assert list(dnc.columns)[:1] == ["phone"]


def test_an_unknown_sample_is_refused_naming_it_and_the_samples() -> None:
    with pytest.raises(FileNotFoundError) as refused:
        samples.path("vendor_b.csv")
    assert "'vendor_b.csv'" in str(refused.value)
    assert ", ".join(SAMPLE_FILES) in str(refused.value)


def test_copy_writes_every_sample_and_again_changes_nothing(tmp_path: Path) -> None:
    copies = samples.copy(tmp_path / "new")
    assert copies == [tmp_path / "new" / name for name in SAMPLE_FILES]
    assert [p.read_bytes() for p in copies] == [samples.path(n).read_bytes()
                                                 for n in SAMPLE_FILES]
    stamps = [p.stat().st_mtime_ns for p in copies]
    assert samples.copy(tmp_path / "new") == copies
    assert [p.stat().st_mtime_ns for p in copies] == stamps


def test_copy_never_overwrites_a_different_file_and_then_writes_nothing(
        tmp_path: Path) -> None:
    (tmp_path / "messy_us.csv").write_text("my own edits\n")
    with pytest.raises(FileExistsError) as refused:
        samples.copy(tmp_path)
    assert str(tmp_path / "messy_us.csv") in str(refused.value)
    assert "another folder" in str(refused.value)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["messy_us.csv"]
    assert (tmp_path / "messy_us.csv").read_text() == "my own edits\n"


def test_copy_never_writes_through_a_dangling_link(tmp_path: Path) -> None:
    (tmp_path / "messy_us.csv").symlink_to(tmp_path / "elsewhere.txt")
    with pytest.raises(FileExistsError, match="messy_us.csv"):
        samples.copy(tmp_path)
    assert not (tmp_path / "elsewhere.txt").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["messy_us.csv"]


def test_copy_into_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    with pytest.raises(FileExistsError, match="is a file, not a folder"):
        samples.copy(tmp_path / "file")


def test_the_notebooks_resolve_as_package_data_in_this_install() -> None:
    assert sorted(p.name for p in files("dialkit.notebooks").iterdir()
                  if p.name.endswith(".ipynb")) == sorted(f"{n}.ipynb" for n in NOTEBOOKS)
    assert default_notebooks() == [ROOT / "notebooks" / f"{n}.ipynb" for n in NOTEBOOKS]


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sdist and the wheel ``python -m build`` makes (the wheel built from the sdist,
    so the sdist is complete too)."""
    out = tmp_path_factory.mktemp("dist")
    subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)],
                   check=True, capture_output=True, text=True, timeout=600)
    return out


def packaged_files() -> list[str]:
    return ([f"notebooks/{n}.ipynb" for n in NOTEBOOKS]
            + [f"data_samples/{n}" for n in SAMPLE_FILES])


@pytest.mark.slow
def test_the_sdist_and_the_wheel_hold_the_notebooks_and_the_samples(dist: Path) -> None:
    (sdist,) = dist.glob("dialkit-*.tar.gz")
    with tarfile.open(sdist) as archive:
        in_sdist = {name.partition("/")[2] for name in archive.getnames()}
    (wheel,) = dist.glob("dialkit-*.whl")
    in_wheel = set(zipfile.ZipFile(wheel).namelist())
    for name in packaged_files():
        assert name in in_sdist
        assert f"dialkit/{name}" in in_wheel
    assert {f"dialkit/{name}" for name in data_files()} <= in_wheel


def data_files() -> list[str]:
    """Every file of ``src/dialkit``: each module (pyproject lists the packages rather than
    finding them, so a new sub-package left off the list would be missing) and what the
    code reads beside itself (the law's tables, the area codes, ``py.typed``). The demo
    run from the wheel (below) reaches only some of them."""
    package = ROOT / "src" / "dialkit"
    found = [path.relative_to(package).as_posix() for path in package.rglob("*")
             if path.is_file() and path.suffix != ".pyc"]
    assert {"py.typed", "_law/jurisdictions.toml", "leads/_read/__init__.py"} <= set(found)
    return found


@pytest.fixture(scope="module")
def fresh_venv(dist: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new virtual environment, outside the repository, with the wheel's dialkit
    (``--no-deps``, not editable) and, to download nothing, this environment's other
    packages through a ``.pth`` line (and their data files, :func:`in_venv`): that line
    puts their folder on the path, but a folder named by a .pth is not a site folder, so
    the editable install's own .pth (this repository's ``src/`` and its finder) is not
    run there."""
    venv = tmp_path_factory.mktemp("venv") / "fresh"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    (wheel,) = dist.glob("dialkit-*.whl")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install",
                    "--quiet", "--no-deps", "--no-index", str(wheel)], env=environment(venv),
                   check=True, capture_output=True, text=True, timeout=300)
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; "
                                "print(sysconfig.get_path('purelib'))"],
                               check=True, capture_output=True, text=True).stdout.strip())
    (site / "zz_dialkit_dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")
    return venv


def environment(venv: Path) -> dict[str, str]:
    """This environment's variables for a command in ``venv``: none that would put this
    repository on its path (a ``PYTHONPATH`` of ``src/``, where the build leaves
    ``dialkit.egg-info``, has pip take the wheel as installed already) or name an
    account."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV") and not k.startswith("DIALKIT_")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    # the borrowed packages' data files (nbconvert's templates) are in this prefix's share/
    env["JUPYTER_PATH"] = str(Path(sys.prefix) / "share" / "jupyter")
    return env


def in_venv(venv: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(args), cwd=cwd, env=environment(venv), capture_output=True,
                          text=True, timeout=600)


@pytest.mark.slow
@pytest.mark.timeout(600)  # a notebook of the small demo: 10 s idle, a minute when loaded
def test_the_wheel_runs_on_its_own_in_a_fresh_venv(fresh_venv: Path, tmp_path: Path) -> None:
    where = in_venv(fresh_venv, "python", "-c", """
import sys, dialkit, dialkit.samples
print(dialkit.__file__)
print(dialkit.samples.path("messy_us.csv"))
print(any("editable" in getattr(f, "__module__", "") for f in sys.meta_path))
print(any(p.endswith("/src") for p in sys.path))
""", cwd=tmp_path)
    assert where.returncode == 0, where.stderr
    module, sample, editable_finder, src_on_path = where.stdout.split()
    assert module.startswith(str(fresh_venv)) and "site-packages/dialkit/" in module
    assert sample.startswith(str(fresh_venv)) and sample.endswith("data_samples/messy_us.csv")
    assert (editable_finder, src_on_path) == ("False", "False")

    version = in_venv(fresh_venv, "dialkit", "--version", cwd=tmp_path)
    assert version.stdout.strip() == f"dialkit {dialkit.__version__}", version.stderr

    clean = in_venv(fresh_venv, "dialkit", "leads", "clean", sample,
                    "--out", "cleaned.csv", cwd=tmp_path)
    assert clean.returncode == 0, clean.stderr
    cleaned = pd.read_csv(tmp_path / "cleaned.csv", dtype=str)
    assert len(cleaned) == len(pd.read_csv(ROOT / "data_samples" / "messy_us.csv", dtype=str))

    demo = in_venv(fresh_venv, "python", "-c", ONE_NOTEBOOK, cwd=tmp_path)
    assert demo.returncode == 0, demo.stdout + demo.stderr
    notebook, status = demo.stdout.split()
    assert notebook.startswith(str(fresh_venv)) and status == "done", demo.stdout
    pages = {p.name for p in (tmp_path / "reports").glob("*.html")}
    assert pages == {"index.html", f"{NOTEBOOKS[0]}.html"}


ONE_NOTEBOOK = """
from dialkit._demo._run import default_notebooks, run_demo
notebook = default_notebooks()[0]
report = run_demo("reports", scale="small", notebooks=[notebook], echo=lambda line: None)
print(notebook, *(run.status for run in report.runs))
"""
"""The demo as ``dialkit demo --scale small`` runs it, on the wheel's first notebook
(``lead_cleaning``, which reads the wheel's samples): a kernel of the fresh venv's
interpreter, the wheel's emulator, nbconvert's templates. All three notebooks run in
``test_demo`` (about 45 CPU-s a run: two thirds of this test's time when it ran them
all here); that a wheel holds what they read beside the code is
:func:`data_files`'s check."""
