"""Lead files: read them as text, with their columns mapped to lead fields.

Example:
    >>> leads = dialkit.leads.read("vendor.csv")  # doctest: +SKIP
    >>> leads.fields                               # doctest: +SKIP
    {'phone': 'Mobile', 'full_name': 'Name', 'email': 'E-mail'}
"""

from ._headers import ALIASES
from ._read import LeadFile, LeadFileError, read

__all__ = ["ALIASES", "LeadFile", "LeadFileError", "read"]
