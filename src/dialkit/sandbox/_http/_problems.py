"""Errors as the contract draws them: ``application/problem+json`` with fixed fields.

Handlers raise :class:`ApiProblem`; one function turns it into the body and
headers, so every error the emulator gives has exactly the fields of the
contract's Errors section, and every 429 and 503 carries ``Retry-After``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import orjson

from dialkit.contract import ERROR_STATUS, ERROR_TITLES, ErrorCode, problem_type

PROBLEM_MEDIA_TYPE = "application/problem+json"
DEFAULT_RETRY_AFTER = 1


class ApiProblem(Exception):
    """An error answer: the contract's ``code``, a ``detail`` for people, optional field errors."""

    def __init__(
        self,
        code: ErrorCode,
        detail: str,
        *,
        errors: Sequence[tuple[str, str]] = (),
        retry_after: int | None = None,
        headers: Mapping[str, str] | None = None,
        status: int | None = None,
    ) -> None:
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.detail = detail
        self.errors = list(errors)
        self.status = status or ERROR_STATUS[code]
        if retry_after is None and self.status in (429, 503):
            retry_after = DEFAULT_RETRY_AFTER
        self.retry_after = retry_after
        self.headers = dict(headers or {})


def field_error(pointer: str, code: str, detail: str) -> ApiProblem:
    """A 400 ``validation_failed`` about one field."""
    return ApiProblem(ErrorCode.VALIDATION_FAILED, detail, errors=[(pointer, code)])


def render(
    problem: ApiProblem, request_id: str, docs_base: str
) -> tuple[int, dict[str, str], bytes]:
    """Status, headers and body of the answer for ``problem``."""
    body: dict[str, object] = {
        "type": problem_type(docs_base, problem.code),
        "title": ERROR_TITLES[problem.code],
        "status": problem.status,
        "detail": problem.detail,
        "instance": f"urn:service:request:{request_id}",
        "code": str(problem.code),
        "request_id": request_id,
    }
    if problem.errors:
        body["errors"] = [{"pointer": p, "code": c} for p, c in problem.errors]
    headers = {"content-type": PROBLEM_MEDIA_TYPE, **problem.headers}
    if problem.retry_after is not None:
        headers["retry-after"] = str(problem.retry_after)
    return problem.status, headers, orjson.dumps(body)
