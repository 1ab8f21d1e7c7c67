"""Countries an option names, read one way wherever one is taken: ``blocked_countries``
(``leads.clean``, ``leads.import_leads``, ``compliance.audit``, the guard and the commands
that pass it) and ``accept_unjudged`` (the judges before a call and the guard: the countries
whose calls the account takes unjudged by any law, issue 98).

A blocked country is named by its ISO 3166 alpha-2 code (any case) or its English
name (``"Iran"``, ``"UK"``), in a list or in one comma-separated text (``"KP, IR"``,
as a shell option writes it). A value that names no country is refused, not passed
over: a blocked region no number can be in blocks nothing, and the check would pass.
So is a calling code (``"+98"``): several countries can share one (``+1``: the US,
Canada and much of the Caribbean), so the message names the codes to pass instead.
"""

from __future__ import annotations

from collections.abc import Collection

import phonenumbers

from .._utils._base_error import InputError
from ._country_names import unread_said
from ._regions import region_of

_EXAMPLE = "such as ['KP', 'IR'], 'KP, IR' or ['North Korea', 'Iran']"


def blocked_regions(countries: Collection[object] | str,
                    option: str = "blocked_countries") -> tuple[str, ...]:
    """The region codes ``countries`` names, in order, each once; a refusal names the
    ``option`` that gave them.

    Raises:
        ValueError: A value names no country, or is a calling code; the message names
            the value and what to pass.

    Examples:
        >>> blocked_regions("kp, Iran")
        ('KP', 'IR')
        >>> blocked_regions(["KP", "+98"])
        Traceback (most recent call last):
        ...
        dialkit.errors.InputError: blocked_countries holds '+98', a calling code, ...: pass 'IR'
    """
    values = ([part for part in (p.strip() for p in countries.split(",")) if part]
              if isinstance(countries, str) else list(countries))
    return tuple(dict.fromkeys(_region(value, option) for value in values))


def _region(value: object, option: str) -> str:
    text = value.strip() if isinstance(value, str) else None
    calling = text.removeprefix("+").strip() if text else None
    if calling is not None and calling.isdigit():
        shared = phonenumbers.region_codes_for_country_code(int(calling))
        hint = (f"pass {shared[0]!r}" if len(shared) == 1
                else f"pass the countries meant among {', '.join(map(repr, shared))}"
                if shared else f"pass country codes or names, {_EXAMPLE}")
        raise InputError(f"{option} holds {value!r}, a calling code, not a "
                         f"country: {hint}")
    code = region_of(text) if text else None
    why = unread_said(text) if text and code is None else None
    if why:  # a territory with no plan of its own, a name two countries share
        raise InputError(f"{option} holds {value!r}: {why}")
    if code is None:
        raise InputError(f"{option} holds {value!r}, which names no country "
                         f"phonenumbers knows: pass ISO 3166 codes or country "
                         f"names, {_EXAMPLE}")
    return code
