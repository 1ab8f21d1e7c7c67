"""Importing a lead file exactly once, resumably (:mod:`._run`): its journal on disk
(:mod:`._journal`) and what the campaign's leads say when an answer cannot (:mod:`._recheck`).
"""
