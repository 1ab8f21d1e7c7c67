"""The audit's keyword inputs as the library's words name them: how a note asks a program
for one, how a refusal of one without its columns does, and the table of every
input the docs show.

Each input is declared once, in :data:`dialkit._utils._choices.AUDIT_INPUTS`, which the
command line reads without importing pandas (a TAB completes its options): its keyword,
its option, the fact it tells the audit. A note that asks for an input names it from
there (``pass texts= (client.frames.sms_reports())``), so the command, which says the same
note in its own words (``pass --texts FILE``) from the same line, can never be left with a
spelling it does not know; and docs/compliance.md's table of the inputs is :func:`table`'s,
checked by a test.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..._utils._choices import AUDIT_INPUTS, CALLS_ASKED, SWITCH, AuditInput

__all__ = ["lacking", "spelled", "table"]

_BY_NAME = {each.name: each for each in AUDIT_INPUTS}
_JUDGES = {"next_allowed": "`next_allowed`", "upcoming": "`upcoming`", "repair": "`repair`",
           "guard": "the guard", "Monitor": "`Monitor`"}
"""The judges besides the audit (:attr:`AuditInput.readers`) as the docs name them."""


def spelled(name: str) -> str:
    """How the library's words ask a program for the input ``name`` (``dnc= (client.frames.dnc
    of the numbers)``, ``audit(nonprofit=True)``): what a note says after "pass"."""
    return _BY_NAME[name].in_python


def lacking(name: str, missing: Sequence[str], needed: Sequence[str]) -> str:
    """The refusal of the frame ``name`` (the calls, or an input of the audit) without the
    columns ``missing`` of those it needs, ``needed``: it asks for the input as
    :func:`spelled` does, by the ``client.frames`` method that gives it where the account
    has one, else by what the records are (never a method the frames do not
    have), so the command says it in its flags (``pass --consents FILE``)."""
    asked = CALLS_ASKED if name == "calls" else spelled(name)
    return (f"{name} has no column {', '.join(missing)}: pass {asked} with its columns "
            f"({', '.join(needed)})")


def table() -> str:
    """Every input of the audit as docs/compliance.md lists it: a row each, its keyword,
    the option of ``dialkit compliance audit`` that gives it, what it tells the audit, the
    other judges that read it too, and why each judge left out does not (or how one reads
    it otherwise than the audit: :attr:`AuditInput.how`)."""
    lines = ["| `audit(...)` | `dialkit compliance audit` | what it tells the audit "
             "| also judged by | why not the others, or how |",
             "|---|---|---|---|---|"]
    lines += [f"| `{_keyword(each)}` | {_option(each)} | {each.fact} | "
              f"{_also(each)} | {_why_not(each)} |" for each in AUDIT_INPUTS]
    return "\n".join(lines) + "\n"


def _also(each: AuditInput) -> str:
    """The judges besides the audit that read ``each``, as the docs name them."""
    return ", ".join(_JUDGES[judge] for judge in each.readers if judge in _JUDGES) or "none"


def _why_not(each: AuditInput) -> str:
    """Why each judge that does not read ``each`` does not (a reason shared by several
    said once, naming them), then how one that reads it reads it otherwise."""
    judges: dict[str, list[str]] = {}
    for judge, why in each.not_read.items():
        judges.setdefault(why, []).append(_JUDGES.get(judge, judge))
    said = [f"Not {_listed(names)}: {why}" for why, names in judges.items()]
    return " ".join([*said, each.how]).strip()


def _listed(names: list[str]) -> str:
    """``a``, ``a nor b``, ``a, b nor c``."""
    return " nor ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)


def _keyword(each: AuditInput) -> str:
    return f"{each.name}=True" if each.kind == SWITCH else f"{each.name}="


def _option(each: AuditInput) -> str:
    return "none: a program's alone" if each.flag is None else f"`{each.in_command}`"
