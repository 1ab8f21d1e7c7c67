"""The emulated service's state and the rules operations share: the :class:`Service`
(:mod:`._service`), its SQLite store, clock, webhook events, sending caps and the prices
they count, and compliance checks.
"""
