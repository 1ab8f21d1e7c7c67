"""``client.calls``: read calls, start a click-to-call, fetch recordings and AI output."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO, Unpack

from ...contract import (
    MAX_PAGE_LIMIT,
    Call,
    CallCreateRequest,
    CallDirection,
    CallSummary,
    ResponseInfo,
    StartedCall,
)
from ...errors import ApiError
from .._http._pagination import ListIterator
from .._http._results import ApiData
from .._http._transport import Call as ApiCall
from .._http._transport import Sink, Transport
from ._base import Area, Options, WriteOptions, request_body


class Calls(Area):
    """Calls: ``/v1/calls`` and each call's recording, transcript and summary."""

    def list(
        self,
        *,
        campaign_id: str | None = None,
        direction: CallDirection | str | None = None,
        limit: int = MAX_PAGE_LIMIT,
        cursor: str | None = None,
        **options: Unpack[Options],
    ) -> ListIterator[Call]:
        """Every call of the account, newest first, lazily across pages.

        Examples:
            >>> client = dialkit.Client.sandbox()
            >>> calls = client.calls.list(direction="outbound")
            >>> answered = sum(c.answered_at is not None for c in calls)
            >>> answered > 0
            True
            >>> client.close()
        """
        filters = {"campaign_id": campaign_id, "direction": direction}
        return self._list(Call, "calls.list", filters, limit=limit, cursor=cursor, options=options)

    def get(self, call_id: str, **options: Unpack[Options]) -> Call:
        """One call record."""
        return self._model(Call, ApiCall("calls.get", {"call_id": call_id}, **options))

    def create(
        self,
        *,
        to: str,
        agent_extension: str | None = None,
        agent_email: str | None = None,
        caller_id: str | None = None,
        campaign_id: str | None = None,
        lead_id: str | None = None,
        override: str | None = None,
        **options: Unpack[WriteOptions],
    ) -> StartedCall:
        """Start a click-to-call: hold the agent, dial ``to``, join them on answer.

        Name the agent by exactly one of ``agent_extension`` or ``agent_email``.
        Tier 2 (``calls:originate``) with a key from the guided sending setup.
        A retry with the same ``idempotency_key`` never places a second call.

        The client's guard judges the call at the service's now first (``docs/client.md``):
        a call the law forbids raises :class:`~dialkit.errors.ContactForbiddenError` and is
        not placed; ``override="reason"`` places it anyway, recorded.
        """
        body = request_body(
            CallCreateRequest, to=to, agent_extension=agent_extension, agent_email=agent_email,
            caller_id=caller_id, campaign_id=campaign_id, lead_id=lead_id,
        )
        return self._model(StartedCall, ApiCall("calls.create", body=body, **options),
                           override=override)

    def recording(
        self, call_id: str, to: str | os.PathLike[str] | BinaryIO, **options: Unpack[Options]
    ) -> ResponseInfo:
        """Stream a call's recording to a file path or a binary file object.

        The recording is written in pieces and never held in memory whole. A
        path is written only once the download is complete (a broken download
        is retried from the start and leaves no partial file); a seekable file
        object is rewound for a retry.
        """
        call = ApiCall("calls.recording", {"call_id": call_id}, **options)
        if isinstance(to, str | os.PathLike):
            return _download_to_path(self._transport, call, Path(to))
        return self._transport.send(call, sink=_file_sink(to)).info

    def transcript(self, call_id: str, **options: Unpack[Options]) -> ApiData:
        """A call's transcript (shape not shown by the contract: plain data)."""
        return self._data(ApiCall("calls.transcript", {"call_id": call_id}, **options))

    def summary(self, call_id: str, **options: Unpack[Options]) -> CallSummary:
        """A call's AI summary; its content is null unless ``status`` is ``ready``."""
        return self._model(CallSummary, ApiCall("calls.summary", {"call_id": call_id}, **options))


def _file_sink(target: BinaryIO) -> Sink:
    """Writes an answer into ``target``, rewinding to where it started on a retry."""
    start = target.tell() if target.seekable() else None
    written = 0

    def sink(chunks: Iterator[bytes]) -> None:
        nonlocal written
        if start is not None:
            target.seek(start)
            target.truncate()
        elif written:
            raise ApiError(
                f"The download broke after {written} bytes were written to a file object "
                "that cannot be rewound; download again into a new file or a path."
            )
        for chunk in chunks:
            written += target.write(chunk)

    return sink


def _download_to_path(transport: Transport, call: ApiCall, path: Path) -> ResponseInfo:
    """Download into a temporary file beside ``path`` and move it there when complete."""
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as handle:
            answer = transport.send(call, sink=_file_sink(handle))
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return answer.info
