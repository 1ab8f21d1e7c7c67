"""dialkit: a Python toolkit for the accounts of an outbound dialing service.

The service's contract lives in :mod:`dialkit.contract`; a faithful local
emulator of it in :mod:`dialkit.sandbox`.
"""

__version__ = "0.1.0"

__all__ = ["__version__"]
