"""Lead files: read them as text with their columns mapped to lead fields, and
normalise their phone numbers to E.164.

Each export is imported on first use (:mod:`dialkit._utils._lazy`): ``import
dialkit.leads`` is cheap, ``dialkit.leads.clean`` brings pandas and
``phonenumbers``, ``dialkit.leads.import_leads`` the client too.

:func:`run_clean` and :func:`run_import` are ``dialkit leads clean`` and ``import`` as
calls, the account and the outcome file decided as the commands decide them, so a
scheduled job runs what the shell runs.

Examples:
    >>> import dialkit.leads
    >>> with open("vendor.csv", "w") as file:  # a vendor's file, as it came
    ...     _ = file.write("Mobile,Name,E-mail\\n(415) 555-0199,Ada,ada@example.com\\n"
    ...                    "212.555.0142,Alan,\\nnot a phone,Nobody,\\n")
    >>> leads = dialkit.leads.read("vendor.csv")
    >>> leads.fields
    {'phone': 'Mobile', 'full_name': 'Name', 'email': 'E-mail'}
"""

from typing import TYPE_CHECKING

from .._utils import _lazy

if TYPE_CHECKING:
    from .._files._file_limits import FileLimits
    from .._places._regions import region_of
    from .._utils._base_error import (
        CampaignError,
        ImportJournalError,
        ImportRunningError,
        ImportStoppedError,
        JournalWriteError,
        LeadFileError,
    )
    from ._clean._campaign import campaigns
    from ._clean._chunked import CleanedFile
    from ._clean._entry import clean, clean_dataset, clean_file
    from ._clean._result import CleanResult
    from ._command_runs import run_clean, run_import
    from ._dask._result import CleanedDataset
    from ._import._report import OUTCOMES, ImportReport
    from ._import._run import import_leads
    from ._normalize._columns import normalize
    from ._read._headers import ALIASES
    from ._read._lead_file import LeadFile, read

__all__ = [
    "ALIASES",
    "CampaignError",
    "CleanResult",
    "CleanedDataset",
    "CleanedFile",
    "FileLimits",
    "ImportJournalError",
    "ImportReport",
    "ImportRunningError",
    "ImportStoppedError",
    "JournalWriteError",
    "LeadFile",
    "LeadFileError",
    "OUTCOMES",
    "campaigns",
    "clean",
    "clean_dataset",
    "clean_file",
    "import_leads",
    "normalize",
    "read",
    "region_of",
    "run_clean",
    "run_import",
]

__getattr__, __dir__ = _lazy.exports(__name__)
