"""How far a long clean has come: each step, its total, its rate and the time left.

:func:`dialkit.leads.clean` with ``out=`` tells its ``progress`` the rows done and
the seconds gone after each chunk; ``progress=True`` draws its steps with
``tqdm.auto`` (a widget in a notebook, a line on a terminal's standard error), as
the frames' loads draw their pages (:mod:`dialkit._shown._progress`). A streamed
file's rows are counted against its lines (counted when its limits were checked,
before the first row is read): ``reading vendor.csv: 45%|... | 900k/2.00M [00:05<00:06,
180k rows/s]``, then ``finishing vendor.csv`` against the rows read. The DNC
screen (asked for with ``client=``) has a bar of its own: ``checking 1,702,344
numbers against the DNC list: 12%|... [02:57<21:40, 1.15k numbers/s]``. By default,
where nobody watches, the same steps log lines instead (``reading vendor.csv: 900,000 of
2,000,000 rows (45.0%), 180,000/s, about 6 s left``).
"""

from __future__ import annotations

from typing import Any

from dialkit._shown._progress import Shown, bar

SCALED = 10_000
"""Counts from which a bar shows them scaled (``1.70M/2.00M``): below, as they are
(``450/450``, not ``450.0/450.0``)."""


class ProgressBar:
    """The bar of a clean's rows, read then finished; :meth:`close` ends it. It is drawn
    once its total is known: a streamed file's lines before its first row is read, a file
    read whole (a workbook) once its rows are."""

    def __init__(self, name: str, how: Shown = "bar") -> None:
        self.name, self.how = name, how
        self.bar: Any = None
        self.done = 0
        self.dnc = DncBar(how)

    def _step(self, what: str, total: int) -> None:
        if self.bar is None:
            self.bar = bar(self.how, desc=f"{what} {self.name}", total=total, unit=" rows",
                           unit_scale=total >= SCALED)
            return
        self.bar.refresh()  # the step before as it ended
        self.bar.set_description(f"{what} {self.name}", refresh=False)
        self.bar.reset(total=total)

    def reading(self, rows: int, lines: int) -> None:
        """``rows`` of the file's rows read and judged, of about ``lines``."""
        if self.bar is None:
            self._step("reading", lines)
        self.bar.total = max(lines, rows)
        self.bar.update(rows - self.bar.n)

    def finishing(self, rows: int) -> None:
        """The second step begins: the ``rows`` read are finished and written."""
        self._step("finishing", rows)
        self.done = 0

    def __call__(self, rows: int, seconds: float) -> None:
        if self.bar is None:  # a file read whole: told once, at its end
            self._step("cleaned", rows)
        self.bar.update(rows - self.done)
        self.done = rows

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        self.dnc.close()


class DncBar:
    """The numbers checked against the account's DNC list, of those a clean will ask
    about: a file read in chunks asks a chunk's numbers at a time, so its total is
    estimated from the share of the file read, and exact once the last chunk is."""

    def __init__(self, how: Shown = "bar") -> None:
        self.how = how
        self.bar: Any = None
        self.asked = 0

    def asking(self, numbers: int, share: float) -> None:
        """``numbers`` more are to be asked about, the file ``share`` (0-1) read."""
        self.asked += numbers
        total = max(round(self.asked / max(share, 1e-9)), self.asked) if share < 1 \
            else self.asked
        what = f"checking {total:,} numbers against the DNC list"
        if self.bar is None:
            self.bar = bar(self.how, desc=what, total=total, unit=" numbers",
                           unit_scale=total >= SCALED)
            return
        self.bar.total = total
        self.bar.set_description(what)

    def checked(self, numbers: int) -> None:
        self.bar.update(numbers)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.total = self.asked  # the file read: the count is known
            self.bar.set_description(f"checked {self.asked:,} numbers against the DNC list",
                                     refresh=False)
            self.bar.close()
