"""Authentication and authorisation: the contract's rules 1-7, tiers and sending.

Every key problem (missing, malformed, unknown, revoked, a test key of an
account without the sandbox) gives the same 401 ``invalid_api_key``, so key
state is never revealed. After the key come access, the allow-lists, the scope,
the tier-2 switch and, for sending operations, the sending setup.
"""

from __future__ import annotations

import hmac
import ipaddress
import re
import uuid
from collections.abc import Iterable
from dataclasses import dataclass

from dialkit._utils._net import bearer_token
from dialkit.contract import ErrorCode, Operation, Scope

from ..._config import AccountConfig, ClientConfig, KeyConfig, Network, SandboxConfig
from .._problems import ApiProblem

CREDENTIAL = re.compile(r"svc_(?:live|test)_[a-z0-9]{8,32}_[A-Za-z0-9]{24,64}")
"""A key anywhere in a text: what ``credential_in_url`` and ``credential_in_body`` look for."""

_CLIENT_NAMESPACE = uuid.UUID("6f1d3c52-8a8e-4f53-9b59-0d8c2b7a1e44")


@dataclass(frozen=True, slots=True)
class Caller:
    """Who is calling: the key, its API client and account, and the data set answering."""

    account: AccountConfig
    client: ClientConfig
    key: KeyConfig
    client_id: str
    dataset: str

    def has_sending_setup(self) -> bool:
        """Whether the account went through the guided sending setup (holds a sending key)."""
        return any(k.sending and not k.revoked for c in self.account.clients for k in c.keys)


def client_id(account: str, client: str) -> str:
    """The stable ``cli_`` id of a configured API client."""
    return f"cli_{uuid.uuid5(_CLIENT_NAMESPACE, f'{account}/{client}')}"


def dataset_for(account: str, client: str, key: KeyConfig) -> str:
    """Live keys share the account's data; test keys get their client's private data set."""
    return f"client:{account}/{client}" if key.is_test else f"live:{account}"


class KeyRegistry:
    """Finds the caller behind an ``Authorization`` header."""

    def __init__(self, config: SandboxConfig) -> None:
        self._by_credential: dict[str, Caller] = {}
        for account in config.accounts:
            for client in account.clients:
                for key in client.keys:
                    self._by_credential[key.credential_id] = Caller(
                        account, client, key, client_id(account.name, client.name),
                        dataset_for(account.name, client.name, key),
                    )

    def authenticate(self, authorization: str | None) -> Caller:
        """The caller, or 401 ``invalid_api_key`` for every kind of key problem."""
        token = bearer_token(authorization) or ""
        match = CREDENTIAL.fullmatch(token)
        caller = self._by_credential.get(token.split("_")[2]) if match else None
        if (
            caller is None
            or not hmac.compare_digest(caller.key.key.encode(), token.encode())
            or caller.key.revoked
            or (caller.key.is_test and not caller.account.sandbox_enabled)
        ):
            raise ApiProblem(
                ErrorCode.INVALID_API_KEY,
                "The API key is missing or not valid. Send 'Authorization: Bearer <API_KEY>' "
                "with an active key.",
            )
        return caller


def _allowed(address: str, networks: Iterable[Network]) -> bool:
    nets = list(networks)
    if not nets:
        return True
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in net for net in nets)


def check_access(caller: Caller, address: str) -> None:
    """403 ``api_access_disabled`` or ``ip_not_allowed`` (both allow-lists apply)."""
    if not (caller.account.api_access_enabled and caller.client.enabled):
        raise ApiProblem(ErrorCode.API_ACCESS_DISABLED,
                         "API access is switched off for this account or API client.")
    lists = (caller.account.ip_allow_list, caller.client.ip_allow_list, caller.key.ip_allow_list)
    if not all(_allowed(address, nets) for nets in lists):
        raise ApiProblem(ErrorCode.IP_NOT_ALLOWED,
                         "The request's source address is outside the allow-list of the "
                         "account or of the API client.")


def require_scope(caller: Caller, scope: Scope) -> None:
    """403 ``insufficient_scope`` unless the client holds ``scope``."""
    if scope not in caller.client.scopes:
        raise ApiProblem(ErrorCode.INSUFFICIENT_SCOPE,
                         f"This API client lacks the scope '{scope}'. An account administrator "
                         "can grant it in the console.")


def require_sending_allowed(caller: Caller, *, key_needed: bool) -> None:
    """The account's sending state; with ``key_needed``, the key must be a sending key."""
    if key_needed and not caller.key.sending:
        raise ApiProblem(ErrorCode.TIER_NOT_ENABLED,
                         "Sending needs a key made by the account's guided sending setup.")
    if caller.account.sending_suspended:
        raise ApiProblem(ErrorCode.SENDING_SUSPENDED,
                         "An administrator stopped all sending for this account.")
    if not caller.account.outbound_approved:
        raise ApiProblem(ErrorCode.OUTBOUND_NOT_APPROVED,
                         "This account is not yet approved for outbound calls and messages.")


def authorize(caller: Caller, operation: Operation) -> None:
    """Scope, tier-2 switch and sending setup of ``operation``, in that order."""
    if operation.scope is not None:
        require_scope(caller, operation.scope)
    if operation.tier_blocked:
        raise ApiProblem(ErrorCode.TIER_NOT_ENABLED,
                         "This operation is not available yet for any account.")
    switch = operation.switch
    if switch is not None and switch not in caller.account.switches:
        raise ApiProblem(ErrorCode.TIER_NOT_ENABLED,
                         f"This tier-2 operation needs the account switch '{switch}', which is "
                         "off. The operator enables it on request.")
    if operation.sending:
        require_sending_allowed(caller, key_needed=True)
