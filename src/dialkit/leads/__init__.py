"""Lead files: read them as text with their columns mapped to lead fields, and
normalise their phone numbers to E.164.

Example:
    >>> leads = dialkit.leads.read("vendor.csv")  # doctest: +SKIP
    >>> leads.fields                               # doctest: +SKIP
    {'phone': 'Mobile', 'full_name': 'Name', 'email': 'E-mail'}
"""

from ._campaign import CampaignError, campaigns
from ._clean import clean
from ._headers import ALIASES
from ._import import OUTCOMES, ImportReport, ImportStoppedError, import_leads
from ._journal import ImportJournalError
from ._limits import FileLimits
from ._normalize import normalize, region_of
from ._read import LeadFile, LeadFileError, read
from ._result import CleanResult

__all__ = [
    "ALIASES",
    "CampaignError",
    "CleanResult",
    "FileLimits",
    "ImportJournalError",
    "ImportReport",
    "ImportStoppedError",
    "LeadFile",
    "LeadFileError",
    "OUTCOMES",
    "campaigns",
    "clean",
    "import_leads",
    "normalize",
    "read",
    "region_of",
]
