"""The words other tools write in the calls' named columns, each with its source, read by
the vocabulary (:mod:`.._vocabulary`): the hangup causes of ITU-T Q.850, the switches and
SIP (``_causes``), and the dialers' statuses and dispositions (``_dialer_words``)."""
