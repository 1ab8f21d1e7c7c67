"""What one send costs: the emulator's own estimate of a call and of an SMS segment.

The sending caps (:mod:`._caps`) count a send at this price, and the seeded world's text
messages (:mod:`.._world._activity`) cost it too. The prices are a module of their own,
below both: the world is built by the :class:`~._service.Service`, whose requests the
caps read, so the world taking the prices from the caps would close a circle of imports.
"""

PRICES = {"call": 0.05, "sms": 0.01}
"""Estimated cost of one call or one SMS segment (the emulator's own figures)."""
