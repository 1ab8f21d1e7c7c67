"""The law of each place as data: TOML tables shipped beside their readers (jurisdictions'
calling rules and days, Do-Not-Call lists, the caller-id rule, abandonment limits), each
row checked on first use by :mod:`._rows`.

A shared-helpers package (docs/design.md): it imports only the standard library, third-party
packages and the other shared helpers, nothing of the contract, which sits above them.
Nothing is imported here.
"""
