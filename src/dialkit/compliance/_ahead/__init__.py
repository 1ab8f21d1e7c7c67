"""The law judged before a call: whether a number may be called and when
(``_when``, from its past in ``_when_past``, at the best lawful hour in ``_best_hour``),
the scheduled calls judged (``_upcoming``) and repaired (``_repair``), and the client
guard's judge (``_guard``)."""
