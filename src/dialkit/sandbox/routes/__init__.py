"""One module per area of the contract, each with a ``router``; plus the admin surface."""

from fastapi import APIRouter

from . import _campaigns, _me

ROUTERS: tuple[APIRouter, ...] = (
    _me.router,
    _campaigns.router,
)
