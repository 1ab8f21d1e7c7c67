"""Where dialkit's code lives (issue 63's table): folder sizes, imports of another
package's private modules, import cycles, and the modules an audit and a guarded call
enter.

- **modules per folder**: the ``.py`` files of each folder of ``src/dialkit`` (its
  ``__init__`` too; sub-folders apart), the largest first; the goal is 12 at most;
- **imports of another public package's private module**: an import, by a module of one
  package (``compliance``, ``cli``, ...), of a module under a private name of another
  public package (``dialkit._shown._pages``): the shared layer's private packages
  (``_utils``, ``_arrays``, ...) are meant to be imported, a package's private modules
  are not; the goal is 0;
- **import cycles**: as ``tests/test_layers.py`` finds them, none excused;
- **modules entered**: the modules of dialkit whose functions run while
  ``compliance.audit(calls)`` audits the emulator's calls, and while the guard's judge
  (``LawJudge.contact``) judges a call to a number a cap could count; the goals are
  8 folders for the audit and 15 modules for the judge, outside the shared helpers
  (which any judge of where a number is and what time it is there enters).

Run: ``.venv/bin/python benchmarks/layout.py`` (the working tree's source; the traced
rows start an emulator in the process, about 10 s).
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

import dialkit

SRC = Path(dialkit.__file__).parent
sys.path.insert(0, str(SRC.parents[1] / "tests"))

import test_layers  # noqa: E402  (the one reading of the imports: tests/test_layers.py)

GOAL_MODULES = 12
SHARED = tuple(f"dialkit/{name}/" for name in ("_utils", "_arrays", "_phones", "_places", "_law",
                                               "_files", "_shown", "_parallel"))
"""The shared layer's folders (docs/design.md): every judge of a number's place uses them."""


def folder_sizes() -> Counter[str]:
    """The ``.py`` files of each folder of the package, by its path under ``src/``."""
    return Counter(path.parent.relative_to(SRC.parent).as_posix() + "/"
                   for path in SRC.rglob("*.py"))


def private_imports() -> list[test_layers.Import]:
    """Every import of another public package's private module."""
    return [each for each in test_layers.imports(SRC)
            if test_layers.private_of_another(each.importer, each.imported)]


@contextmanager
def entered(start: Callable[..., Any]) -> Iterator[list[str]]:
    """The modules of dialkit whose functions run while ``start`` runs (on this thread),
    in the order first entered."""
    seen: list[str] = []
    depth = 0
    target = start.__code__

    def profile(frame: FrameType, event: str, _: Any) -> None:
        nonlocal depth
        if event != "call":
            if event == "return" and frame.f_code is target:
                depth -= 1
            return
        if frame.f_code is target:
            depth += 1
        if depth:
            path = Path(frame.f_code.co_filename)
            if path.is_relative_to(SRC):
                name = path.relative_to(SRC.parent).as_posix()
                if name not in seen:
                    seen.append(name)

    sys.setprofile(profile)
    try:
        yield seen
    finally:
        sys.setprofile(None)


def traced() -> tuple[list[str], list[str]]:
    """The modules an audit of the emulator's calls enters, and those the guard's judge
    enters judging a fourth call to a lead of Florida (whose cap counts the first three)."""
    from bench_guard import EASTERN, START, emulator_config
    from dialkit import compliance
    from dialkit._guarding import GuardSettings, LiveDnc
    from dialkit.compliance._ahead._judge import LawJudge
    from dialkit.contract import DncCheckResult

    with dialkit.Client.sandbox(emulator_config(), key="sending", rate_limit=None) as client:
        calls = client.frames.calls()
        with entered(compliance._entry.audit) as audit:
            compliance.audit(calls)
        store = client.emulator.service.store  # type: ignore[union-attr]
        made = []
        for _ in range(3):
            with store.lock:
                store.conn.execute("UPDATE agents SET state = 'ready', held_until = NULL")
            made.append(client.calls.create(to=EASTERN, agent_extension="1001").call_id)
        past = [client.calls.get(str(call_id)) for call_id in made]
    judge = LawJudge()
    assert judge.capped(EASTERN, "FL", len(past), GuardSettings())
    with entered(LawJudge.contact) as judged:
        judge.contact(EASTERN, START, state="FL", campaign_id=None, calls=past, texts=(),
                      dnc=LiveDnc(DncCheckResult(phone=EASTERN, listed=False), START),
                      settings=GuardSettings())
    return audit, judged


def _folders(modules: list[str]) -> list[str]:
    return list(dict.fromkeys(module.rpartition("/")[0] + "/" for module in modules))


def main() -> None:
    sizes = folder_sizes()
    over = {folder: n for folder, n in sizes.items() if n > GOAL_MODULES}
    print(f"most modules in one folder: {max(sizes.values())} (goal {GOAL_MODULES}); "
          f"folders over the goal: {len(over)}")
    for folder, n in sorted(over.items(), key=lambda item: (-item[1], item[0])):
        print(f"    {folder}: {n}")
    found = private_imports()
    print(f"\nimports of another public package's private module: {len(found)} (goal 0)")
    for imported, n in Counter(each.imported for each in found).most_common():
        print(f"    {imported}: {n}")
    cycles = test_layers.cycles(test_layers.imports(SRC), excused=set())
    print(f"\nimport cycles, none excused: {len(cycles)} (goal 0)")
    for cycle in cycles:
        print("    " + " -> ".join(cycle))
    audit, judge = traced()
    folders = _folders(audit)
    own = [folder for folder in folders if not folder.startswith(SHARED)]
    print(f"\ncompliance.audit(calls) enters {len(audit)} modules in {len(folders)} folders, "
          f"{len(own)} of them outside the shared helpers (goal 8 or fewer):")
    for folder in own:
        print(f"    {folder}")
    print(f"  and the shared helpers': {', '.join(f for f in folders if f not in own)}")
    own = [module for module in judge if not module.startswith(SHARED)]
    print(f"\nthe guard's judge (LawJudge.contact, a cap to count) enters {len(judge)} "
          f"modules, {len(own)} of them outside the shared helpers (goal 15 or fewer):")
    for module in own:
        print(f"    {module}")
    print(f"  and the shared helpers' (the hours' places and numbers): "
          f"{', '.join(sorted({m.rpartition('/')[0] + '/' for m in judge if m not in own}))}")


if __name__ == "__main__":
    main()
