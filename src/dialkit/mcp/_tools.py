"""One tool per operation of the contract, generated from the operation table.

Each :class:`ToolSpec` holds what MCP shows of a tool (name, input and output
schema, annotations) and how its arguments become a REST request: path values,
query parameters, body, ``If-Match``, and the Idempotency-Key derived from
the call. Nothing here is written per tool: names come from the operation
names, schemas from the contract's request and response models, annotations
from the operation's method and tier.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

import orjson
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from mcp_types import ToolAnnotations
from pydantic import BaseModel, ConfigDict, Field, create_model

from dialkit.contract import (
    OPERATIONS,
    AppointmentId,
    CallbackId,
    CallId,
    CampaignId,
    LeadId,
    Operation,
    WebhookEndpointId,
    WebhookEventId,
)

from ._shapes import ANY_OBJECT, EMPTY_BODY, FREE_BODY, IF_MATCH_FIELD, NO_JSON, SHAPES, Shape

_PATH_TYPES: dict[str, Any] = {
    "lead_id": LeadId, "campaign_id": CampaignId, "call_id": CallId,
    "webhook_id": WebhookEndpointId, "event_id": WebhookEventId,
    "callback_id": CallbackId, "appointment_id": AppointmentId,
}
IDEMPOTENCY_ARGUMENT = "idempotency_key"
IF_MATCH_ARGUMENT = "if_match"
IDEMPOTENCY_KEY_PREFIX = "mcp_"
_IDEMPOTENCY_FIELD = Field(
    None, min_length=1, max_length=200,
    description="Leave out: the Idempotency-Key is derived from the call, so retrying the same "
    "call never does it twice (within 24 h). Pass a new value only to do the same thing again "
    "on purpose.")
OVERRIDE_ARGUMENT = "override"
"""The argument of a guarded tool (:func:`guarded`) that carries the user's reason to send a
contact the guard refused."""
_OVERRIDE_FIELD = Field(
    None, min_length=1, max_length=500,
    description="Leave out. Only when the user asks to make a contact that the law's guard "
    "refused: the user's reason, in their words. The user is asked to confirm the reason, "
    "with the rule and its evidence, and it is recorded in the audit log.")
_DESTRUCTIVE_VERBS = frozenset({"delete", "update", "cancel", "reschedule", "rotate_secret"})


def tool_name(operation: Operation) -> str:
    """The tool's name: the operation's name with ``_`` for ``.`` (``leads_import``)."""
    return operation.name.replace(".", "_")


def guarded(operation: Operation) -> bool:
    """Whether the client's guard judges the operation's calls: the contract marks it as
    calling or texting a person (:attr:`~dialkit.contract.Operation.contact`), so its tool
    takes ``override`` and a guarded executor judges each call before the user is asked."""
    return operation.contact is not None


def reaches_people(operation: Operation) -> bool:
    """Whether the operation can reach a person: its tool asks the user first.

    Tier 2 operations (which the contract says can reach or unlock real people:
    click-to-call, SMS, campaign resume, callback and appointment writes, consent
    writes), WhatsApp sending, and every operation the guard judges (:func:`guarded`):
    a single lead add does when it targets a running campaign or asks ``dial_now``,
    which the tool server decides per call (reading the campaign's status first).
    """
    return operation.tier == 2 or operation.tier_blocked or guarded(operation)


def is_read(operation: Operation) -> bool:
    """Reads: GET, and the read-only DNC check."""
    return operation.method == "GET" or operation.name == "dnc.check"


@dataclass(frozen=True, slots=True)
class Request:
    """A tool call's arguments sorted into the parts of a REST request."""

    path: dict[str, str]
    query: dict[str, str]
    body: Any
    if_match: str | None
    idempotency_key: str | None
    override: str | None = None


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """One generated tool.

    Attributes:
        name: The tool's name (``calls_create``).
        operation: The contract operation it runs.
        shape: Its query, body and answer shapes.
        description: What the tool does, generated from the operation.
        input_schema: JSON Schema of its arguments.
        output_schema: JSON Schema of its structured result, or ``None`` (not JSON).
        annotations: MCP hints: read-only, destructive, idempotent, open-world.
    """

    name: str
    operation: Operation
    shape: Shape
    description: str
    input_schema: dict[str, Any]
    output_schema: dict[str, Any] | None
    annotations: ToolAnnotations

    @property
    def path_names(self) -> tuple[str, ...]:
        """The path template's placeholders."""
        return self.operation.placeholders

    @property
    def query_names(self) -> tuple[str, ...]:
        """Query parameters by their wire names."""
        query = self.shape.query
        if query is None:
            return ()
        return tuple(f.alias or n for n, f in query.model_fields.items())

    @property
    def takes_key(self) -> bool:
        """Whether the call carries an Idempotency-Key (writes and PATCH)."""
        return self.operation.write or self.operation.method == "PATCH"

    def request(self, arguments: Mapping[str, Any]) -> Request:
        """Sort ``arguments`` (as sent) into path, query, body and headers."""
        rest = dict(arguments)
        path = {name: str(rest.pop(name)) for name in self.path_names if name in rest}
        query = {name: _wire(rest.pop(name)) for name in self.query_names
                 if rest.get(name) is not None}
        for name in self.query_names:
            rest.pop(name, None)
        if_match = rest.pop(IF_MATCH_ARGUMENT, None) if self.shape.if_match else None
        chosen = rest.pop(IDEMPOTENCY_ARGUMENT, None) if self.takes_key else None
        override = rest.pop(OVERRIDE_ARGUMENT, None) if guarded(self.operation) else None
        body = self._body(rest)
        key = None
        if self.takes_key:
            key = chosen if chosen is not None else derived_key(self.name, arguments)
        return Request(path, query, body, if_match, key,
                       None if override is None else str(override))

    def argument_problem(self, arguments: Mapping[str, Any]) -> str | None:
        """Why ``arguments`` cannot be sent (a missing or an unknown name, a value the
        tool's input schema refuses), or ``None``.

        The tool server checks here rather than leaving it to the SDK, so a call refused
        for its arguments is written to the audit log like any other. Every value is
        checked against the schema before anything else (the guard, the question, the
        service): the service reads ``"true"``, ``1`` and ``"yes"`` as a boolean's true,
        so a ``dial_now`` that is not a JSON boolean would otherwise be a dial-now the
        guard never saw as one.
        """
        properties = self.input_schema.get("properties", {})
        missing = [name for name in self.input_schema.get("required", ()) if name not in arguments]
        if missing:
            many = len(missing) > 1
            return (f"{self.name} is missing the required argument{'s' * many} "
                    f"{', '.join(missing)}: send {'them' if many else 'it'} and call again. "
                    "Nothing was done.")
        if self.input_schema.get("additionalProperties"):
            return None
        unknown = sorted(set(arguments) - set(properties))
        if unknown:
            return (f"{self.name} takes no argument {', '.join(unknown)}; its arguments are "
                    f"{', '.join(properties) or 'none'}. Nothing was done.")
        return _value_problem(self.name, arguments)

    def _body(self, rest: dict[str, Any]) -> Any:
        if self.shape.body is None:
            return None
        if self.shape.body == EMPTY_BODY:
            return {}
        return rest


@functools.cache
def _validator(name: str) -> Draft202012Validator:
    """The validator of a tool's input schema, made once per tool."""
    return Draft202012Validator(TOOLS_BY_NAME[name].input_schema)


def _value_problem(name: str, arguments: Mapping[str, Any]) -> str | None:
    """The first value of ``arguments`` that the tool's input schema refuses, in words
    that name the argument and the schema's keyword, never the value itself (a value may
    be personal data, or a key pasted by mistake)."""
    error = best_match(_validator(name).iter_errors(dict(arguments)))
    if error is None:
        return None
    where = "/".join(str(part) for part in error.absolute_path) or "the arguments"
    rule = orjson.dumps(error.validator_value, default=str).decode()
    return (f"{name}: {where} breaks its schema ({error.validator}: {rule[:200]}); send a "
            "value of the type and form that tools/list shows for it. Nothing was done.")


def derived_key(name: str, arguments: Mapping[str, Any]) -> str:
    """The Idempotency-Key of a tool call: a digest of the tool and its arguments.

    An assistant that retries a call (a dropped connection, a timeout, a
    second confirmation round) sends the same arguments, so the service
    answers the retry with the first call's stored answer instead of doing
    it again.
    """
    return IDEMPOTENCY_KEY_PREFIX + arguments_digest(name, arguments)[:40]


def arguments_digest(name: str, arguments: Mapping[str, Any]) -> str:
    """SHA-256 of a tool's name and its arguments in canonical JSON (sorted keys)."""
    call = {"tool": name, "arguments": arguments}
    try:
        canonical = orjson.dumps(call, option=orjson.OPT_SORT_KEYS, default=str)
    except orjson.JSONEncodeError:  # an integer past 64 bits, which only json writes
        canonical = json.dumps(call, sort_keys=True, default=str,
                               separators=(",", ":")).encode()
    return hashlib.sha256(canonical).hexdigest()


def _wire(value: Any) -> str:
    """A query value as sent: tool arguments arrive as JSON, so only a boolean needs
    its JSON spelling (``true``, not Python's ``True``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _input_model(operation: Operation, shape: Shape) -> type[BaseModel]:
    """A pydantic model of every argument: path values, query, body fields, headers."""
    fields: dict[str, Any] = {}
    for name in operation.placeholders:
        fields[name] = (_PATH_TYPES.get(name, str), Field(description=f"The {name} (path)."))
    if shape.query is not None:
        for name, info in shape.query.model_fields.items():
            fields[name] = (info.annotation, info)
    if isinstance(shape.body, type):
        for name, info in shape.body.model_fields.items():
            if name in fields:
                raise ValueError(f"{operation.name}: argument {name!r} is both path or query "
                                 "and body")
            fields[name] = (info.annotation, info)
    if shape.if_match:
        fields[IF_MATCH_ARGUMENT] = (str | None, IF_MATCH_FIELD)
    if operation.write or operation.method == "PATCH":
        fields[IDEMPOTENCY_ARGUMENT] = (str | None, _IDEMPOTENCY_FIELD)
    if guarded(operation):
        fields[OVERRIDE_ARGUMENT] = (str | None, _OVERRIDE_FIELD)
    extra: Literal["allow", "forbid"] = "allow" if shape.body == FREE_BODY else "forbid"
    model: type[BaseModel] = create_model(
        f"{tool_name(operation)}_arguments", __config__=ConfigDict(extra=extra), **fields)
    return model


def _output_schema(shape: Shape) -> dict[str, Any] | None:
    if shape.answer == NO_JSON:
        return None
    if shape.answer == ANY_OBJECT:
        return {"type": "object"}
    return _items_by_presence(_flat(shape.answer.model_json_schema(mode="serialization")))


ITEM_FIELDS_NOTE = "Its fields, as JSON Schema (a client checks only that each is there):"
"""Begins the part of a listed item's description that gives its fields' schemas."""


def _items_by_presence(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with the items of each list of objects (a page's ``data``, an import's
    results) checked for their fields' presence (``required``), the fields' own schemas
    given in the item's description instead of checked: a client's validator descends
    into each field of each item (a page of 50 calls: 600 descents, 96 % of a 5-9 ms
    check). The answers are the service's, whose models the contract gives, so a client
    loses only a re-check of the service's types."""
    schema = dict(schema)
    if isinstance(schema.get("properties"), dict):
        schema["properties"] = {name: _items_by_presence(field)
                                for name, field in schema["properties"].items()}
    items = schema.get("items")
    if isinstance(items, dict) and isinstance(items.get("properties"), dict):
        schema["items"] = _by_presence(items)
    return schema


def _by_presence(item: dict[str, Any]) -> dict[str, Any]:
    """An object schema that requires its fields, their schemas (titles left out) written
    in its description.

    It has no ``properties``: fields of schema ``true`` refuse nothing, yet a client's
    validator still descends into each of them (a page of 50 calls: 600 descents, 0.3 of
    the whole check). Only where other fields are refused (``additionalProperties`` other
    than ``true``) do the fields' names stay there, as ``true``, to be allowed.
    """
    fields = {name: {key: value for key, value in field.items() if key != "title"}
              for name, field in item["properties"].items()}
    note = f"{ITEM_FIELDS_NOTE} {json.dumps(fields)}"
    checked = {key: value for key, value in item.items() if key != "properties"}
    if item.get("additionalProperties", True) is not True:
        checked["properties"] = dict.fromkeys(fields, True)
    return {**checked,
            "description": f"{item['description']} {note}" if item.get("description") else note}


def _flat(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with no reference and no choice of a type or null, for less work per
    call: a client's validator checks each listed item against an output schema, and the
    SDK's server walks every position of an input schema for each call (its
    ``x-mcp-header`` check). The same schema: it accepts exactly the same values."""
    flat: dict[str, Any] = _nullable(_inlined(schema, schema.pop("$defs", {})))
    return flat


_ANNOTATIONS = frozenset({"title", "description", "default", "examples"})
"""Keywords that say something about a value but refuse none."""
_IGNORED_BY_NULL = _ANNOTATIONS | {
    "type", "pattern", "minLength", "maxLength", "format", "minimum", "maximum",
    "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "items", "prefixItems", "minItems",
    "maxItems", "uniqueItems", "properties", "required", "additionalProperties",
    "patternProperties", "propertyNames", "minProperties", "maxProperties"}
"""Keywords that hold for ``null`` whatever their value (each constrains only one type)."""


def _joined(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """One schema requiring both ``base`` and ``over``, ``over``'s annotations shown; a
    keyword the two give different values stays a conjunction (``allOf``)."""
    if any(base[key] != over[key] for key in base.keys() & over.keys() - _ANNOTATIONS):
        return {**over, "allOf": [*over.get("allOf", ()), base]}
    return {**base, **over}


def _inlined(schema: Any, defs: dict[str, Any]) -> Any:
    """``schema`` with each ``$ref`` to its ``$defs`` replaced by the definition, joined with
    the keywords beside the reference (a field's description, its default): a client's
    validator resolves no reference per item (a page of 50 calls: a fifth less time), and
    clients that do not follow references read it too. The contract's models refer to no
    model within itself, so this ends."""
    if isinstance(schema, list):
        return [_inlined(item, defs) for item in schema]
    if not isinstance(schema, dict):
        return schema
    inlined = {key: _inlined(value, defs) for key, value in schema.items() if key != "$ref"}
    if "$ref" not in schema:
        return inlined
    return _joined(_inlined(defs[schema["$ref"].rsplit("/", 1)[-1]], defs), inlined)


def _nullable(schema: Any) -> Any:
    """``anyOf: [{type: T, ...}, {type: null}]`` as ``type: [T, "null"]``, the field's own
    keywords (its title, description, default) kept over the type's: the same schema,
    which a client's validator checks in 40% less time (a page of 50 calls: 4 ms, not 7).
    Left as it is when ``T``'s keywords could refuse ``null`` (``const``, ``not``, ...)."""
    if isinstance(schema, list):
        return [_nullable(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    schema = {key: _nullable(value) for key, value in schema.items()}
    options = schema.get("anyOf")
    if not (isinstance(options, list) and len(options) == 2 and {"type": "null"} in options):
        return schema
    other = next(option for option in options if option != {"type": "null"})
    if not isinstance(other.get("type"), str) or set(other) - _IGNORED_BY_NULL - {"enum"}:
        return schema
    nullable = {**other, "type": [other["type"], "null"]}
    if "enum" in other:  # null is one of the values too
        nullable["enum"] = [*other["enum"], None]
    return _joined(nullable, {key: value for key, value in schema.items() if key != "anyOf"})


def _annotations(operation: Operation) -> ToolAnnotations:
    verb = operation.name.rpartition(".")[2]
    if is_read(operation):
        return ToolAnnotations(title=operation.name, read_only_hint=True,
                               idempotent_hint=True, open_world_hint=False)
    people = reaches_people(operation) and operation.name != "leads.create"
    return ToolAnnotations(
        title=operation.name, read_only_hint=False,
        destructive_hint=people or verb in _DESTRUCTIVE_VERBS,
        idempotent_hint=True,  # the Idempotency-Key is derived from the arguments
        open_world_hint=reaches_people(operation))


_ROLE = re.compile(r":\w+:`~?([^`]+)`")


def _first_line(model: Any) -> str:
    """The first line of a model's docstring, without reST markup."""
    doc = (getattr(model, "__doc__", None) or "").strip()
    line = doc.splitlines()[0] if doc else ""
    return _ROLE.sub(r"\1", line).replace("``", "")


def _description(operation: Operation, shape: Shape) -> str:
    scope = "any active key" if operation.scope is None else f"scope {operation.scope}"
    parts = [f"{operation.method} {operation.path} ({scope}, tier {operation.tier})."]
    if operation.switch is not None:
        parts.append(f"Needs the account switch {operation.switch}.")
    if operation.tier_blocked:
        parts.append("Answers 403 tier_not_enabled for every account for now.")
    if reaches_people(operation):
        parts.append("It can reach a real person, so it runs only after the user confirms "
                     "this very call." if operation.name != "leads.create" else
                     "Adding to a running campaign or with dial_now can reach a real person: "
                     "such an add runs only after the user confirms it.")
    if isinstance(shape.body, type) and _first_line(shape.body):
        parts.append(_first_line(shape.body))
    if shape.body == FREE_BODY:
        parts.append("The contract does not show the body: the arguments are sent as it.")
    if shape.answer not in (ANY_OBJECT, NO_JSON) and _first_line(shape.answer):
        parts.append(f"Answer: {_first_line(shape.answer)}")
    return " ".join(parts)


def _spec(operation: Operation) -> ToolSpec:
    shape = SHAPES[operation.name]
    schema = _input_model(operation, shape).model_json_schema(by_alias=True)
    schema.pop("title", None)
    return ToolSpec(
        name=tool_name(operation), operation=operation, shape=shape,
        description=_description(operation, shape), input_schema=_flat(schema),
        output_schema=_output_schema(shape), annotations=_annotations(operation))


TOOLS: tuple[ToolSpec, ...] = tuple(_spec(operation) for operation in OPERATIONS)
"""One tool per operation of :data:`dialkit.contract.OPERATIONS`, in the same order."""

TOOLS_BY_NAME: Mapping[str, ToolSpec] = {tool.name: tool for tool in TOOLS}
"""The tools by name."""
