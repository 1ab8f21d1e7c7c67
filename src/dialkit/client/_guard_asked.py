"""A request as the guard reads it: the person its operation reaches, found where the
contract's mark on the operation (:class:`~dialkit.contract.Contact`) says the request
names them.

Every path reads a request here, from its wire form: a client method's path and body as
it sends them, and a tool call of ``dialkit mcp serve`` as it arrives. So a method and a
tool call of one operation are judged alike, and an operation the contract marks is
judged on every path without a line written for it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from pydantic import TypeAdapter, ValidationError

from .._guarding import address_state
from ..contract import CONTACTS, Person, operation_by_name

_BOOLEAN: TypeAdapter[bool] = TypeAdapter(bool)


@dataclass(frozen=True, slots=True)
class Asked:
    """Whom a request reaches, as its operation's mark names them.

    Attributes:
        person: What names the person (:data:`~dialkit.contract.Person`).
        named: The number, lead id, callback id or campaign id that names them.
        at: When the contact is made, as sent; None: when the service takes it.
        lead_id: The lead a number is called for, where the request names one.
        campaign_id: The campaign the contact is made for, where the request names one.
        state: The person's address state, where the request gives one.
    """

    person: Person
    named: str
    at: str | None = None
    lead_id: str | None = None
    campaign_id: str | None = None
    state: str | None = None

    @property
    def lead(self) -> str | None:
        """The lead reached: the one named, or the one a number is called for."""
        return self.named if self.person == "lead" else self.lead_id

    @property
    def phone(self) -> str | None:
        """The number dialled or texted, where the request names one."""
        return self.named if self.person == "phone" else None


def asked(operation: str, path: Mapping[str, str], body: object) -> Asked | None:
    """Whom a request of ``operation`` with its wire ``path`` and ``body`` reaches now;
    None for one that reaches nobody: an operation the contract does not mark, a request
    without its mark's condition (``dial_now`` false), or one the service refuses whole
    (what names the person, or the moment, missing or not text)."""
    contact = CONTACTS.get(operation)
    if contact is None:
        return None
    placeholders = operation_by_name(operation).placeholders
    sent = body if isinstance(body, Mapping) else {}

    def value(name: str | None) -> object:
        return None if name is None else (path if name in placeholders else sent).get(name)

    def text(name: str | None) -> str | None:
        found = value(name)
        return found if isinstance(found, str) else None

    named, at = text(contact.named_by), text(contact.at)
    if (named is None or (contact.at is not None and at is None)
            or (contact.when is not None and not _read_as_true(value(contact.when)))):
        return None
    return Asked(contact.person, named, at, text(contact.lead),
                 text(contact.campaign), address_state(value(contact.state)))


def _read_as_true(value: object) -> bool:
    """Whether the service reads ``value`` as a boolean's true: its request models are
    pydantic's, which read ``"true"``, ``"yes"``, ``"on"``, ``1`` as ``True`` (a tool
    call's arguments reach the guard as sent); a value it refuses is no contact, for the
    whole request is refused."""
    try:
        return _BOOLEAN.validate_python(value)
    except ValidationError:
        return False
