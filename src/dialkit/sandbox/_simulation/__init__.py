"""What happens as service time passes: the dialer's calls (:mod:`._dialer`, :mod:`._one_call`),
the ends of click-to-calls (:mod:`._clicks`) and webhook deliveries (:mod:`._delivery`,
:mod:`._webhook_urls`).
"""
