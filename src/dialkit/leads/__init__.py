"""Lead files: read them as text with their columns mapped to lead fields, and
normalise their phone numbers to E.164.

Example:
    >>> leads = dialkit.leads.read("vendor.csv")  # doctest: +SKIP
    >>> leads.fields                               # doctest: +SKIP
    {'phone': 'Mobile', 'full_name': 'Name', 'email': 'E-mail'}
"""

from ._headers import ALIASES
from ._normalize import normalize, region_of
from ._read import LeadFile, LeadFileError, read

__all__ = ["ALIASES", "LeadFile", "LeadFileError", "normalize", "read", "region_of"]
