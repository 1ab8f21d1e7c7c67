"""The checks the request pipeline (:mod:`.._pipeline`) makes before an operation runs, one
module each: the key, access and scope (:mod:`._auth`), who may use ``/_sandbox``
(:mod:`._admin_access`), idempotency keys, rate limits, the JSON body, cursors and faults.
"""
