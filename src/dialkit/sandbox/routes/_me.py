"""GET /v1/me: who the key is (shape not shown by the contract; see docs/emulator.md)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from ._routing import Ctx, endpoint, json_response

router = APIRouter()


@endpoint(router, "me", response_model=dict[str, Any])
async def me(ctx: Ctx) -> Any:
    """The account, the API client with its scopes, and the key's public facts."""
    caller = ctx.caller
    return json_response({
        "account": {"name": caller.account.name, "switches": sorted(caller.account.switches),
                    "webhooks_enabled": caller.account.webhooks_enabled,
                    "sandbox_enabled": caller.account.sandbox_enabled},
        "client": {"id": caller.client_id, "name": caller.client.name,
                   "scopes": sorted(caller.client.scopes)},
        "key": {"credential_id": caller.key.credential_id,
                "mode": "test" if caller.key.is_test else "live",
                "sending": caller.key.sending},
    })
