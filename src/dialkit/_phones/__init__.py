"""Phone numbers read a whole column at a time, as ``phonenumbers`` reads them one by one.

One package owns how the toolkit reads numbers (issue 49): :mod:`._metadata` is the only
module that touches ``phonenumbers``' private functions and Python's ``re._parser``;
:mod:`._arrays` holds the one set of array helpers (texts' bytes, lengths, takes,
pattern matches, rows grouped by a key) that the column readers share: the leads'
E.164 verdicts (``dialkit.leads._fast``) and the numbers' regions, types and zones
(``dialkit._places._types``, ``._zones``, ``._prefixes``). A shared-helpers package
(docs/design.md): it imports only the standard library, third-party packages and the
other shared helpers. Nothing is imported here, so that ``import dialkit`` stays light.
"""
