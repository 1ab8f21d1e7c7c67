"""``client.webhooks`` and ``client.webhook_events``: endpoints, events and replays."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Unpack

from ...contract import (
    MAX_PAGE_LIMIT,
    ReplayRequest,
    ReplayResponse,
    ResponseInfo,
    SecretRotation,
    WebhookCreateRequest,
    WebhookEndpoint,
    WebhookEndpointCreated,
    WebhookEvent,
    WebhookEventType,
    WebhookUpdateRequest,
)
from .._http._pagination import ListIterator
from .._http._results import ApiData
from .._http._transport import Call
from ._base import Area, Options, WriteOptions, request_body


class Webhooks(Area):
    """Webhook endpoints: ``/v1/webhooks``. Signing secrets show only their last four
    characters in reprs; ``str(secret)`` gives the whole value."""

    def list(
        self, *, limit: int = MAX_PAGE_LIMIT, cursor: str | None = None,
        **options: Unpack[Options],
    ) -> ListIterator[WebhookEndpoint]:
        """Every endpoint of the account, lazily across pages."""
        return self._list(WebhookEndpoint, "webhooks.list", {}, limit=limit, cursor=cursor,
                          options=options)

    def get(self, webhook_id: str, **options: Unpack[Options]) -> WebhookEndpoint:
        """One endpoint; its full URL is never shown again after creation."""
        return self._model(WebhookEndpoint, Call("webhooks.get", {"webhook_id": webhook_id},
                                                 **options))

    def create(
        self,
        *,
        url: str,
        events: Sequence[WebhookEventType | str],
        description: str | None = None,
        **options: Unpack[WriteOptions],
    ) -> WebhookEndpointCreated:
        """Register an https endpoint for 1-6 event types.

        The answer's ``secret`` is shown once (null on a replayed answer);
        keep it to verify signatures, or rotate to get a new one.
        """
        body = request_body(WebhookCreateRequest, url=url, events=list(events),
                            description=description)
        return self._model(WebhookEndpointCreated, Call("webhooks.create", body=body, **options))

    def update(
        self,
        webhook_id: str,
        *,
        url: str | None = None,
        events: Sequence[WebhookEventType | str] | None = None,
        description: str | None = None,
        enabled: bool | None = None,
        **options: Unpack[WriteOptions],
    ) -> WebhookEndpoint:
        """Change any of an endpoint's URL, events, description or ``enabled``."""
        body = request_body(WebhookUpdateRequest, url=url, description=description,
                            events=None if events is None else list(events), enabled=enabled)
        call = Call("webhooks.update", {"webhook_id": webhook_id}, body=body, **options)
        return self._model(WebhookEndpoint, call)

    def delete(self, webhook_id: str, **options: Unpack[WriteOptions]) -> ResponseInfo:
        """Delete an endpoint; the answer has no body, only its request id."""
        return self._info(Call("webhooks.delete", {"webhook_id": webhook_id}, **options))

    def test(self, webhook_id: str, **options: Unpack[WriteOptions]) -> ApiData:
        """Send a ``webhook.test`` event to an endpoint (answer shape not shown: plain data)."""
        return self._data(Call("webhooks.test", {"webhook_id": webhook_id}, body={}, **options))

    def rotate_secret(self, webhook_id: str, **options: Unpack[WriteOptions]) -> SecretRotation:
        """Make a new signing secret; both sign deliveries for the next 24 hours."""
        call = Call("webhooks.rotate_secret", {"webhook_id": webhook_id}, body={}, **options)
        return self._model(SecretRotation, call)


class WebhookEvents(Area):
    """Webhook events and their deliveries: ``/v1/webhook-events`` (30 days kept)."""

    def list(
        self,
        *,
        type: WebhookEventType | str | None = None,  # noqa: A002 - the contract's field name
        limit: int = MAX_PAGE_LIMIT,
        cursor: str | None = None,
        **options: Unpack[Options],
    ) -> ListIterator[WebhookEvent]:
        """Every event with its deliveries, newest first, lazily across pages.

        ``type`` filters by event type (a filter the contract does not show).
        """
        return self._list(WebhookEvent, "webhook_events.list", {"type": type}, limit=limit,
                          cursor=cursor, options=options)

    def get(self, event_id: str, **options: Unpack[Options]) -> WebhookEvent:
        """One event with its data and every delivery."""
        return self._model(WebhookEvent, Call("webhook_events.get", {"event_id": event_id},
                                              **options))

    def replay(
        self, event_id: str, *, webhook_id: str | None = None, **options: Unpack[WriteOptions]
    ) -> ReplayResponse:
        """Send an event again, to one endpoint or to every endpoint that received it.

        Raises:
            RateLimitError: ``replay_limit_reached`` after 5 replays today (UTC).
            ConflictError: ``replay_unavailable``.
        """
        body = request_body(ReplayRequest, webhook_id=webhook_id)
        call = Call("webhook_events.replay", {"event_id": event_id}, body=body, **options)
        return self._model(ReplayResponse, call)
