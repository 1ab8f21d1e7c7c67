"""``dialkit demo``: the notebooks run against one emulator (:mod:`._run`), what each run did
(:mod:`._report`), their headline figures and index page (:mod:`._index`), and their pages
made for readers (:mod:`._pages`).
"""
