"""The seeded synthetic world of an account (:mod:`._build`), its calls, law, periods, planted
problems and scheduled calls, and the fictional numbers it dials (:mod:`._numbers`).
"""
