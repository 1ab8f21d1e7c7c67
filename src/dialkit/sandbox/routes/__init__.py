"""One module per area of the contract, each with a ``router``; plus the admin surface."""

from fastapi import APIRouter

from . import (
    _admin,
    _appointments,
    _callbacks,
    _calls,
    _campaigns,
    _dnc,
    _leads,
    _me,
    _messaging,
    _reports,
    _webhook_events,
    _webhooks,
)

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
