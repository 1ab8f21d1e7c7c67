"""The closed sets of values options take, kept apart from the heavy code that acts on them.

Shell completion offers these values after ``--preset``, ``--policy`` and ``--fail-on``
from this module alone, without importing the audit, pandas or ``phonenumbers`` (a TAB
took 1-3 s when it imported them, issue 48); the code that acts on a value builds its
table from the same names, so a value is added in one place.
"""

VIOLATIONS = ("law", "policy")
"""The bases (:data:`dialkit.compliance.BASES`) of a violation, a call that broke a rule,
that ``--fail-on any`` stops on. A ``risk`` is not one."""

PRESET_NAMES = ("us", "uk", "ca", "us-federal")
"""The law presets' names (:data:`dialkit.compliance.PRESETS`), as ``--preset`` takes them."""

POLICY_NAMES = ("house-rules",)
"""The named policies' names (:data:`dialkit.compliance.POLICIES`), as ``--policy`` takes
them."""

FAIL_ON = {"law": ("law",), "any": VIOLATIONS, "risk": ("risk",)}
"""The bases each ``fail_on`` name (``--fail-on``) stops on: a risk is no violation, so
only ``risk`` stops on one."""
