"""Calls: the list, each call and what it left (:mod:`._calls`), and click-to-call, the
contract's rules 1-7 with the simulated agents (:mod:`._click_to_call`)."""
