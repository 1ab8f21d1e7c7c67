"""One module per area of the contract, each with a ``router``; plus the admin surface.

An area of more than one module is a sub-package: calls and click-to-call (:mod:`._calls`),
leads and the rules each imported lead is judged by (:mod:`._leads`), webhook endpoints and
their events (:mod:`._webhooks`).
"""

from fastapi import APIRouter

from . import _admin, _appointments, _callbacks, _campaigns, _dnc, _me, _messaging, _reports
from ._calls import _calls
from ._leads import _leads
from ._webhooks import _webhook_events, _webhooks

ROUTERS: tuple[APIRouter, ...] = (
    _me.router,
    _leads.router,
    _campaigns.router,
    _calls.router,
    _webhooks.router,
    _webhook_events.router,
    _dnc.router,
    _callbacks.router,
    _appointments.router,
    _messaging.router,
    _reports.router,
    _admin.router,
)
