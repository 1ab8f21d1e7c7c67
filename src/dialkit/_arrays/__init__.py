"""Array helpers of every column reader: a text column's bytes, takes and pattern matches
(:mod:`._texts`), Arrow's booleans (:mod:`._bools`), text columns hashed and what is asked
of them kept while their data live (:mod:`._kept`, :mod:`._packed`, :mod:`._codes`).

A shared-helpers package (docs/design.md): it imports only the standard library, third-party
packages and the other shared helpers. Nothing is imported here.
"""
