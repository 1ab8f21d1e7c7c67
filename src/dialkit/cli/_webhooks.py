"""``dialkit webhooks listen``: a :class:`dialkit.webhooks.Receiver` served by uvicorn."""

from __future__ import annotations

import logging
from enum import StrEnum
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from dialkit._utils._base_error import InputError
from dialkit._utils._net import (
    MAX_CONNECTIONS,
    REQUEST_TIMEOUT_SECONDS,
    ServerLimits,
    checked_port,
    listening_socket,
    server_config,
)
from dialkit._utils._secrets import mask
from dialkit.cli._shared import PORT_FLAGS, Host, Port, cli_text, finite_seconds

webhooks_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None)


class SyncMode(StrEnum):
    """SQLite's ``synchronous`` setting for the store."""

    full = "full"
    normal = "normal"


@webhooks_app.command("listen")
def listen(
    host: Host = "127.0.0.1", port: Port = 8788,
    db: Annotated[Path, typer.Option(metavar="PATH", help=(
        "SQLite file the events are stored in (created if missing)."))] = Path("events.sqlite"),
    synchronous: Annotated[SyncMode, typer.Option(metavar="MODE", help=(
        "full: each answered event survives a power loss; normal: a crash of this process "
        "only."))] = SyncMode.full,
    request_timeout: Annotated[float, typer.Option(
        metavar="SECONDS", min=0.1, callback=finite_seconds, help=(
        "Time a sender has to send a request whole; a slower one is closed."))
    ] = REQUEST_TIMEOUT_SECONDS,
    max_connections: Annotated[int, typer.Option(metavar="N", min=1, help=(
        "Open connections kept at most; one more is answered 503 and closed."))
    ] = MAX_CONNECTIONS,
) -> None:
    """Receive webhook deliveries: verify each, store it once in --db, answer 2xx only once
    it is committed. The signing secrets come from DIALKIT_WEBHOOK_SECRETS
    (comma-separated during a rotation), never from the command line."""
    import uvicorn

    from dialkit.webhooks import EventStore, Receiver, StoreError, secrets_from_env

    try:
        secrets = secrets_from_env()
    except InputError as exc:
        _fail(str(exc))
    try:
        checked_port(port)  # before the store: a --port refused leaves no --db file behind
    except InputError as exc:
        _fail(cli_text(str(exc), PORT_FLAGS))
    try:
        store = EventStore(db, synchronous=synchronous.value)
    except StoreError as exc:
        _fail(str(exc))
    try:
        sock = listening_socket(host, port)
    except OSError as exc:
        store.close()
        _fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}")
    bound_host, bound_port = sock.getsockname()[:2]
    typer.echo(f"listening on http://{bound_host}:{bound_port}")
    typer.echo(f"storing events in {db} (synchronous={synchronous.value}); "
               f"secrets: {', '.join(mask(s) for s in secrets)}")
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    receiver = Receiver(store, secrets, close_store=True)  # at shutdown, SIGTERM's too
    limits = ServerLimits(request_timeout=request_timeout, max_connections=max_connections)
    config = server_config(receiver, limits=limits, lifespan="on", log_level="warning")
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        store.close()


def _fail(message: str) -> NoReturn:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)
