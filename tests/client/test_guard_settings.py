"""The rules a guard's settings carry (issue 72): ``GuardSettings`` sits below the
compliance layer and may not name its ``Rules``, so the judge checks them, and a value
that is no set of rules is named as the caller's to fix, over real HTTP, nothing sent."""

from __future__ import annotations

import pytest

from conftest import KEYS
from dialkit import Client
from dialkit.client import GuardSettings
from dialkit.compliance import HOUSE_RULES, US
from dialkit.errors import InputError
from dialkit.sandbox import Sandbox

from .test_guard_texts import MIAMI


@pytest.mark.parametrize(("settings", "named"), [
    (GuardSettings(rules="US"), "rules='US'"),  # type: ignore[arg-type]
    (GuardSettings("law_and_policy", rules=US, policy="house rules"),  # type: ignore[arg-type]
     "policy='house rules'"),
])
def test_rules_that_are_not_the_compliance_layers_are_refused_by_name(
        sandbox: Sandbox, settings: GuardSettings, named: str) -> None:
    with Client(KEYS["sending"], base_url=sandbox.base_url, rate_limit=None,
                guard=settings) as client:
        with pytest.raises(InputError, match=rf"GuardSettings\({named}\) is not a set of "
                           r"dialkit.compliance's Rules: pass US, UK, CA"):
            client.sms.send(to=MIAMI, body="Your table is ready.", client_reference="fl-0")
        assert not [text for text in client.sms.delivery_reports()
                    if text["to"] == MIAMI]  # nothing was sent


def test_the_compliance_layers_rules_are_judged_by(sandbox: Sandbox) -> None:
    """The same settings with the rules themselves: the text goes."""
    settings = GuardSettings("law_and_policy", rules=US, policy=HOUSE_RULES)
    with Client(KEYS["sending"], base_url=sandbox.base_url, rate_limit=None,
                guard=settings) as client:
        assert client.sms.send(to=MIAMI, body="Your table is ready.",
                               client_reference="fl-0").to == MIAMI
