"""Lines of Python in some folders of a commit: blank, docstrings, and the rest (code and
comments), for issue 49's line target ("the lead-cleaning and phone code together at
least 25 % shorter").

Docstrings are found by ``ast``: a module's, class's or function's first string, and a
string right after an assignment at module or class level (an attribute's docstring).

Run: ``python3 benchmarks/code_lines.py REV DIR [DIR ...]``, e.g. ``python3
benchmarks/code_lines.py HEAD src/dialkit/leads src/dialkit/_phones``.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections import Counter

_DOCUMENTED = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


def _git(*arguments: str) -> str:
    return subprocess.run(["git", *arguments], capture_output=True, text=True,
                          check=True).stdout


def _is_text(node: ast.stmt) -> bool:
    return (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str))


def docstring_lines(source: str) -> set[int]:
    """The numbers of the lines that belong to a docstring."""
    lines: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, _DOCUMENTED):
            continue
        body = node.body
        texts = [body[0]] if body and _is_text(body[0]) else []
        if isinstance(node, ast.Module | ast.ClassDef):
            texts += [after for before, after in zip(body, body[1:], strict=False)
                      if isinstance(before, ast.Assign | ast.AnnAssign) and _is_text(after)]
        for text in texts:
            lines.update(range(text.lineno, (text.end_lineno or text.lineno) + 1))
    return lines


def counted(rev: str, folders: list[str]) -> Counter[str]:
    """Lines of the ``.py`` files under ``folders`` at ``rev``, by kind."""
    found: Counter[str] = Counter()
    for path in _git("ls-tree", "-r", "--name-only", rev, *folders).split():
        if not path.endswith(".py"):
            continue
        source = _git("show", f"{rev}:{path}")
        docs = docstring_lines(source)
        for number, line in enumerate(source.splitlines(), 1):
            found["lines"] += 1
            found["blank" if not line.strip() else "docstrings" if number in docs
                  else "code and comments"] += 1
    return found


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit("usage: python3 benchmarks/code_lines.py REV DIR [DIR ...]")
    for kind, lines in counted(sys.argv[1], sys.argv[2:]).items():
        print(f"{kind:>18} {lines:>7,}")
