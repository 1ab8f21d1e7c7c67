"""The shared private helpers every layer may use: errors' base, files written whole and owner-only,
limits on files read, lazy exports, times as given, secrets masked, the tuning values,
threads, Dask plans, counts in words (one place, not loose modules at the top).

A shared-helpers package (docs/design.md): it imports only the standard library, third-party
packages and the other shared helpers, nothing of the contract, which sits above them.
Nothing is imported here.
"""
