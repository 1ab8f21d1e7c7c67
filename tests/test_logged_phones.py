"""Phone numbers in dialkit's log records (issue 72, item 5).

The guard's warning of a contact sent with ``override=`` names the number and the reason.
With no logging configured, Python's last-resort handler printed it on standard error,
where an MCP host keeps a server's output in its logs (the MCP audit log leaves values
out on purpose). dialkit's loggers get a ``NullHandler`` that masks numbers as
``--mask-pii`` does (``+1415*****23``): a library prints nothing of its own, an
application that configures logging sees the numbers masked, and the ``dialkit`` command
shows its warnings as before, masked.
"""

from __future__ import annotations

import logging
import subprocess
import sys
import textwrap
from collections.abc import Iterator

import pytest

from dialkit._shown._masked import LOGGER, library_logging, mask_phone, phones_masked

NUMBER, MASKED = "+14155550123", "+1415*****23"

OVERRIDE = """
    import logging, sys
    from datetime import UTC, datetime, timedelta

    import dialkit
    {setup}
    with dialkit.Client.sandbox() as client:  # 09:00 UTC: night in every zone of +1
        lead = next(lead for lead in client.leads.list(status="new")
                    if lead.phone.startswith("+1"))
        night = (datetime.now(UTC) + timedelta(days=2)).replace(hour=9, minute=0, second=0,
                                                                microsecond=0)
        client.callbacks.create(lead_id=lead.id, scheduled_at=night,
                                override="asked to be called late")
        [override] = client.guard.overrides
        print(override.phone, override.verdict.rule)
"""


def overridden(setup: str = "") -> tuple[str, str, str]:
    """A script's callback sent with ``override=`` at night, after ``setup``: the number,
    the rule overridden, and what the script printed on standard error."""
    code = textwrap.dedent(OVERRIDE.format(setup=setup))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=120)
    phone, rule = done.stdout.split()
    return phone, rule, done.stderr


@pytest.fixture
def dialkit_handlers() -> Iterator[None]:
    """dialkit's logger's handlers as they were, after the test."""
    logger = logging.getLogger(LOGGER)
    kept = list(logger.handlers)
    yield
    logger.handlers[:] = kept


@pytest.mark.parametrize(("text", "masked"), [
    (f"calls.create to {NUMBER} sent with override 'x'",
     f"calls.create to {MASKED} sent with override 'x'"),
    (f"{NUMBER},+442079460958", f"{MASKED},+4420******58"),
    ("+1415*****23 and +123456 and x+14155550123 and 2026-11-02", "+1415*****23 and +123456 "
     "and x+14155550123 and 2026-11-02"),  # masked already, too short, inside a word, a date
])
def test_numbers_in_text_are_masked_as_mask_pii_masks_them(text: str, masked: str) -> None:
    assert phones_masked(text) == masked
    assert mask_phone(NUMBER) == MASKED


def test_a_record_carrying_a_number_is_masked_for_every_handler(
        dialkit_handlers: None, caplog: pytest.LogCaptureFixture) -> None:
    library_logging()
    library_logging()  # once: a second call adds no second handler
    assert sum(type(h).__name__ == "_LibraryHandler"
               for h in logging.getLogger(LOGGER).handlers) == 1
    with caplog.at_level(logging.WARNING, logger="dialkit.client.guard"):
        logging.getLogger("dialkit.client.guard").warning(
            "%s%s sent with override %r", "calls.create", f" to {NUMBER}", f"call {NUMBER}")
        logging.getLogger("dialkit.frames").warning(f"checked {NUMBER}")
    assert [r.getMessage() for r in caplog.records] == [
        f"calls.create to {MASKED} sent with override 'call {MASKED}'", f"checked {MASKED}"]
    assert NUMBER not in caplog.text


def test_a_library_use_prints_nothing_on_stderr() -> None:
    phone, rule, err = overridden()
    assert phone.startswith("+1") and rule == "calling_hours"  # the guard warned of it
    assert err == ""  # was "callbacks.create to +1... sent with override ..."


def test_an_application_that_configures_logging_sees_the_number_masked() -> None:
    phone, rule, err = overridden(
        "logging.basicConfig(stream=sys.stderr, format='%(name)s: %(message)s')\n"
        "    from dialkit._shown._masked import library_logging\n"
        "    library_logging()  # as `import dialkit` puts it")
    assert rule == "calling_hours"
    assert err.startswith(f"dialkit.client.guard: callbacks.create to {mask_phone(phone)} "
                          "sent with override 'asked to be called late' over calling_hours"), err
    assert phone not in err


PLANTED = """
    import logging, sys
    import dialkit.compliance
    from dialkit.cli import main
    from dialkit.errors import InputError

    def planted(**_):
        logging.getLogger("dialkit.client.guard").warning(
            "%s%s sent with override %r", "calls.create", " to +14155550123", "asked")
        logging.getLogger("dialkit.client.guard").info("an info line, for -v only")
        raise InputError("planted")

    dialkit.compliance.run_audit = planted
    sys.argv = ["dialkit", *sys.argv[1:], "compliance", "audit", "--sandbox"]
    main()
"""


@pytest.mark.parametrize(("verbose", "warned"), [
    ([], f"calls.create to {MASKED} sent with override 'asked'\n"),
    (["-v"], f"WARNING dialkit.client.guard: calls.create to {MASKED} sent with override "
             "'asked'\n"),
], ids=["quiet", "verbose"])
def test_the_command_still_shows_dialkits_warnings_masked(verbose: list[str],
                                                          warned: str) -> None:
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(PLANTED), *verbose],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.splitlines(keepends=True)
    assert [line for line in lines if "override" in line][0].endswith(warned), done.stderr
    assert lines[-1] == "error: planted\n" and NUMBER not in done.stderr
    assert ("an info line" in done.stderr) is bool(verbose)
