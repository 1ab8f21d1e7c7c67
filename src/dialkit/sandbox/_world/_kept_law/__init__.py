"""The law as the seeded world keeps it, counts it and breaks it on purpose: the law of the
place each lead's number is in (:mod:`._place`) and the cases planted against it
(:mod:`._cases`), every zone of a split area code (:mod:`._zones`), the abandoned calls
counted by the law's 30-day periods (:mod:`._periods`), and two more planted
problems, a split area code's zones and a hidden caller id (:mod:`._plants`).
"""
