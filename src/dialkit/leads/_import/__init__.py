"""Importing a lead file exactly once, resumably (:mod:`._run`): its journal on disk
(:mod:`._journal`), what the campaign's leads say when an answer cannot (:mod:`._recheck`),
and what the import answers, every row's outcome (:mod:`._report`).
"""
