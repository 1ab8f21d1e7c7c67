"""``dialkit compliance audit`` takes every input the library takes, its notes name its
options, and its summary names the period's dates (issue 71, item 7).

The command had no ``--texts`` and no ``--nonprofit``: on a month's exports it found 43
findings where ``audit`` found 62 on the same frames, 19 of them texts. Its notes, and the
workbook's cover, told a shell user to ``pass texts=`` or ``audit(nonprofit=True)``; the
summary of an audit of a period said its counts but not the period. The exports here are
the session emulator's seeded account, loaded over real HTTP and written as Parquet, with
three texts of the night its world has none of (the emulator refuses to send a text after
21:00 local, so such a text is one the account's records hold from elsewhere).
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner, Result

from conftest import load_seeded
from dialkit.cli import app
from dialkit.compliance import audit, load, run_audit
from dialkit.sandbox import Sandbox

runner = CliRunner()
FRAMES = ("calls", "leads", "dnc")
NIGHT = pd.DataFrame({
    "message_id": ["msg_ny", "msg_fl", "msg_il"], "status": "delivered",
    "to": ["+12125550142", "+13055550142", "+13125550142"],
    "created_at": pd.Timestamp("2026-10-28T02:15Z")})
"""Three texts at 22:15 in New York and Miami and 21:15 in Chicago: after each one's hours."""
PYTHON = re.compile(r"\baudit\(|(?<![\w-])[a-z_]+=(?=[\s),;]|$)")
"""A Python argument as the library's words name one (``texts= (...)``, ``consents=)``,
``audit(nonprofit=True)``), which a shell user cannot pass."""


@pytest.fixture(scope="module")
def loaded(sandbox: Sandbox, tmp_path_factory: pytest.TempPathFactory
           ) -> dict[str, pd.DataFrame]:
    """The seeded account's calls, leads and DNC results, as ``load`` gives them, and the
    texts of the night."""
    frames = load_seeded(sandbox, tmp_path_factory.mktemp("cache"), load)
    return {**{name: frame for name, frame in frames.items() if name in FRAMES},
            "texts": NIGHT}


@pytest.fixture(scope="module")
def exported(loaded: dict[str, pd.DataFrame],
             tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each frame written as Parquet, as an export of the account."""
    folder = tmp_path_factory.mktemp("exports")
    for name, frame in loaded.items():
        frame.to_parquet(folder / f"{name}.parquet", index=False)
    return {name: folder / f"{name}.parquet" for name in loaded}


def audited(*arguments: object) -> Result:
    result = runner.invoke(app, ["compliance", "audit", *map(str, arguments)])
    assert "Traceback" not in result.output, result.output
    return result


@pytest.mark.parametrize(("flags", "given"), [([], {}), (["--nonprofit"], {"nonprofit": True})],
                         ids=["texts", "texts and nonprofit"])
def test_the_command_audits_the_exports_as_the_library_audits_the_frames(
        loaded: dict[str, pd.DataFrame], exported: dict[str, Path], tmp_path: Path,
        flags: list[str], given: dict[str, bool]) -> None:
    out = tmp_path / "findings.csv"
    files = [part for name, path in exported.items() for part in (f"--{name}", path)]
    result = audited(*files, "--out", out, *flags)
    assert result.exit_code == 0, result.output
    found = pd.read_csv(out, dtype=str)
    report = audit(**loaded, **given)
    expected = report.findings
    assert sorted(zip(found["rule"], found["call_id"].fillna(""), strict=True)) == sorted(
        zip(expected["rule"], expected["call_id"].astype(object).fillna(""), strict=True))
    assert (found["channel"] == "text").sum() == (expected["channel"] == "text").sum() == 3
    assert f"texts: {report.notes['texts']}" in result.output
    listed = expected[expected["rule"] == "dnc_call"]["citation"].astype(str)
    registry = listed.str.contains("64.1200(c)(2)", regex=False)
    assert registry.any() != bool(given)  # a nonprofit's calls: not the registry's
    if not given:  # the facts a registry finding rests on, in the command's words
        facts = next(line for line in result.output.splitlines() if line.startswith("facts:"))
        assert "(--nonprofit)" in facts and not PYTHON.search(facts), facts


def test_the_notes_the_cover_and_the_page_name_the_options(
        exported: dict[str, Path], tmp_path: Path) -> None:
    book, page = tmp_path / "evidence.xlsx", tmp_path / "report.html"
    result = audited("--calls", exported["calls"], "--workbook", book, "--html", page)
    assert result.exit_code == 0, result.output
    said = {"texts": "not audited: pass --texts FILE",
            "no_written_consent": "not run: pass --consents FILE",
            "unverified_caller_id": "not run: pass --verified-caller-ids FILE",
            "dnc_call": "not run: pass --dnc FILE"}
    printed = [line for line in result.output.splitlines() if ": not " in line]
    assert {f"{rule}: {note}" for rule, note in said.items()} <= set(printed), printed
    assert not PYTHON.search(result.output), result.output
    cover = pd.read_excel(book, sheet_name="cover", engine="calamine")
    notes = dict(zip(cover["item"], cover["value"].astype(str), strict=True))
    assert {notes[f"note: {rule}"] for rule in said} == set(said.values())
    assert not [note for item, note in notes.items() if item.startswith("note:")
                and PYTHON.search(note)]
    shown = page.read_text(encoding="utf-8")
    assert "pass --texts FILE" in shown and "pass texts=" not in shown


def test_the_summary_of_a_period_names_its_dates(exported: dict[str, Path]) -> None:
    result = audited("--calls", exported["calls"], "--since", "2026-11-01", "--until",
                     "2026-11-02T12:00Z")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[1] == (
        "period asked: since 2026-11-01 00:00 UTC until 2026-11-02 12:00 UTC")
    spoken = audited("--calls", exported["calls"], "--since", "30d")
    assert re.search(r"^period asked: since 30d \(\d{4}-\d\d-\d\d \d\d:\d\d UTC\)$",
                     spoken.output, re.MULTILINE), spoken.output
    whole = audited("--calls", exported["calls"])
    assert "period asked" not in whole.output


def test_the_audit_looks_from_as_of(loaded: dict[str, pd.DataFrame],
                                    exported: dict[str, Path], tmp_path: Path) -> None:
    """Forty days after the DNC checks, every lead the dialer may still reach is
    unscreened (a check is good for 31 days): the command says what the library says."""
    later = f"{loaded['dnc']['checked_at'].max() + pd.Timedelta(days=40):%Y-%m-%d}"
    out = tmp_path / "findings.csv"
    result = audited("--calls", exported["calls"], "--leads", exported["leads"], "--dnc",
                     exported["dnc"], "--as-of", later, "--out", out)
    assert result.exit_code == 0, result.output
    found = pd.read_csv(out, dtype=str)
    expected = audit(loaded["calls"], leads=loaded["leads"], dnc=loaded["dnc"], as_of=later)
    unscreened = (expected.findings["rule"] == "unscreened_lead").sum()
    assert (found["rule"] == "unscreened_lead").sum() == unscreened > 0


@pytest.mark.parametrize(("flags", "said"), [
    (["--texts", "texts.csv"],
     "error: --calls FILE is needed with --leads FILE, --dnc FILE or --texts FILE\n"),
    (["--calls", "calls.csv", "--as-of", "30"], "error: --as-of '30': pass an ISO date or "),
], ids=["texts without calls", "as-of"])
def test_a_refusal_names_the_options(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     flags: list[str], said: str) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "calls.csv").write_text("id\n", encoding="utf-8")  # never read: refused first
    result = audited(*flags)
    assert result.exit_code == 2 and result.stderr.startswith(said), result.stderr


def test_run_audit_refuses_a_keyword_that_names_no_input() -> None:
    with pytest.raises(TypeError, match=r"^run_audit\(\) takes no textz=: pass one of the "
                                        r"inputs it reads, .* texts=, "):
        run_audit(calls="calls.csv", textz="texts.csv")
