"""The seeded synthetic world of an account (:mod:`._build`), its calls, the law it keeps and
breaks on purpose (:mod:`._law`), its planted problems and scheduled calls, and the
fictional numbers it dials (:mod:`._numbers`).
"""
