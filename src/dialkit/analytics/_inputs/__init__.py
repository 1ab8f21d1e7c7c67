"""What the measures read: the frames fetched from an account (:mod:`._load`), their columns
checked and times as UTC (:mod:`._inputs`), the lead each call went to (:mod:`._match`) and
the recipient's wall-clock time of each call (:mod:`._local`).
"""
