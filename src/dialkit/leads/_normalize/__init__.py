"""The phone cells of a lead file normalised to E.164 (:mod:`._columns`): the plain cells
a column at a time (:mod:`._fast`), the others rewritten or parsed one by one, a lead's
fallback phone columns.
"""
