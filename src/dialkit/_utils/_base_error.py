"""The base of every error dialkit raises, so one ``except dialkit.errors.DialkitError``
catches them all (issue 49).

A module without imports, so the lowest layers (the law's tables, the file limits) can
derive from it without loading the contract; :mod:`dialkit.errors` names it publicly.
"""

from __future__ import annotations


class DialkitError(Exception):
    """Base of every error dialkit raises.

    Each error also keeps the built-in base it had (``ValueError`` for bad input,
    ``RuntimeError``, ``LookupError``, ``OSError``) as its second parent, so an
    ``except ValueError`` written before this base existed still catches what it caught.
    """
