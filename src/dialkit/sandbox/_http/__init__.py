"""The emulator's HTTP front: the ASGI app (:mod:`._app`), the request pipeline and every
check it makes before an operation runs (keys, admin access, idempotency, rate limits,
bodies, cursors, faults: :mod:`._checks`), errors as problem+json, the protocol, the
OpenAPI document and the ``/mcp`` mount.
"""
