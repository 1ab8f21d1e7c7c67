"""How the client speaks HTTP, apart from what it asks: the transport (auth,
idempotency, errors: ``_transport``), its policies (``_retry``, ``_ratelimit``,
``_deadline``), arguments checked before sending (``_arguments``), and answers read
(``_decode``, ``_results``) and paged (``_pagination``)."""
