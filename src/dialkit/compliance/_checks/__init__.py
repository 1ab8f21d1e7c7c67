"""The audit's checks, one module per rule family: calling hours (``_hours``),
frequency (``_frequency``), Do-Not-Call (``_dnc``), abandonment (``_abandonment``) and
ring time (``_ring``), the account's own settings (``_account``), texts judged as calls
(``_texts``), each call's lead and address (``_lead_of``) and the consent that exempts a
call or is lacking (``_consent``), and what every rule's findings share (``_findings``)."""
