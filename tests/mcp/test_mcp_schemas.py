"""The tools' schemas are flat and say exactly what the contract's models say.

Issue 21: the SDK's server walks every position of a tool's input schema for each call,
and the SDK's client checks every listed item against the output schema, so both are
written with no ``$ref`` and no ``anyOf`` of a type or null. Each must accept exactly the
values the model's own JSON Schema (with its ``$defs`` and choices) accepts: checked on
values drawn from that schema, near-misses and arbitrary JSON included. One exception,
for the client's check of a page: the items of a list of objects are checked for their
fields' presence, and their fields' schemas are written in the item's description.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from mcp_harness import connect, run
from mcp_types import CallToolResult

from conftest import KEYS
from dialkit.contract import Call
from dialkit.mcp import TOOLS, TOOLS_BY_NAME, ToolSpec
from dialkit.mcp._shapes import ANY_OBJECT, NO_JSON
from dialkit.mcp._tools import ITEM_FIELDS_NOTE, _input_model
from dialkit.mcp._tools import _items_by_presence as items_by_presence
from dialkit.sandbox import Sandbox

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                 max_size=3),
    max_leaves=6)
"""Any JSON value: what a confused assistant might send, or a broken answer hold."""


def _resolved(schema: Any, defs: dict[str, Any]) -> Any:
    while isinstance(schema, dict) and "$ref" in schema:
        schema = {**defs[schema["$ref"].rsplit("/", 1)[-1]],
                  **{key: value for key, value in schema.items() if key != "$ref"}}
    return schema


def _valid(schema: Any, defs: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values ``schema`` should accept (lengths and bounds at their edges included)."""
    schema = _resolved(schema, defs)
    if not isinstance(schema, dict):
        return JSON
    if "anyOf" in schema:
        return st.one_of([_valid(choice, defs) for choice in schema["anyOf"]])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    kind = schema.get("type")
    if kind == "null":
        return st.none()
    if kind == "boolean":
        return st.booleans()
    if kind in ("integer", "number"):
        low, high = schema.get("minimum", -(2**31)), schema.get("maximum", 2**31)
        return st.sampled_from([low, high]) | st.integers(low, high)
    if kind == "string":
        if "pattern" in schema:
            return st.from_regex(schema["pattern"], fullmatch=True)
        low, high = schema.get("minLength", 0), schema.get("maxLength", 12)
        return st.text(min_size=low, max_size=min(high, 12)) | st.just("x" * high)
    if kind == "array":
        fewest = schema.get("minItems", 0)
        return st.lists(_valid(schema.get("items", {}), defs), min_size=fewest,
                        max_size=max(fewest, 3))
    if kind == "object" and "properties" not in schema:
        return st.dictionaries(st.text(max_size=5), JSON, max_size=3)
    if kind == "object":
        required = set(schema.get("required", ()))
        fields = {name: _valid(sub, defs) for name, sub in schema["properties"].items()}
        return st.fixed_dictionaries(
            {name: value for name, value in fields.items() if name in required},
            optional={name: value for name, value in fields.items() if name not in required})
    return JSON


def _edge(schema: Any, defs: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values just past what ``schema`` accepts, or of another type."""
    schema = _resolved(schema, defs)
    near: list[Any] = [None, True, 0, 1.5, "", "x", [], {}]
    if isinstance(schema, dict):
        for choice in schema.get("anyOf", ()):
            choice = _resolved(choice, defs)
            near += [choice.get("maxLength", 0) * "y" + "y", choice.get("minimum", 0) - 1,
                     choice.get("maximum", 0) + 1]
        near += ["y" * (schema.get("maxLength", 0) + 1), "y" * (schema.get("minLength", 1) - 1),
                 schema.get("minimum", 0) - 1, schema.get("maximum", 0) + 1]
    return st.sampled_from(near) | JSON


def _near(schema: Any, defs: dict[str, Any], depth: int = 0) -> st.SearchStrategy[Any]:
    """A value ``schema`` accepts with one thing changed: a field past its edge, a
    required field missing, an unknown field added, or one item of a list so changed."""
    schema = _resolved(schema, defs)
    if not isinstance(schema, dict) or depth > 3:
        return _edge(schema, defs)
    for choice in schema.get("anyOf", ()):
        if _resolved(choice, defs).get("type") in ("object", "array"):
            return _near(choice, defs, depth + 1)
    if schema.get("type") == "array":
        return st.tuples(st.lists(_valid(schema.get("items", {}), defs), max_size=2),
                         _near(schema.get("items", {}), defs, depth + 1)).map(
            lambda pair: [*pair[0], pair[1]])
    if schema.get("type") != "object" or not schema.get("properties"):
        return _edge(schema, defs)
    properties = schema["properties"]

    def changed(value: dict[str, Any], name: str, new: Any) -> dict[str, Any]:
        return {**value, name: new}

    names = st.sampled_from(sorted(properties))
    return st.one_of(
        st.tuples(_valid(schema, defs), names).flatmap(
            lambda pair: _near(properties[pair[1]], defs, depth + 1).map(
                lambda new: changed(pair[0], pair[1], new))),
        st.tuples(_valid(schema, defs), names).map(
            lambda pair: {k: v for k, v in pair[0].items() if k != pair[1]}),
        _valid(schema, defs).map(lambda value: {**value, "unknown_field": 1}))


def _items_by_presence(schema: Any, defs: dict[str, Any]) -> Any:
    """The model's own ``schema`` with the items of each list of objects checked for their
    fields' presence only: what an output schema promises."""
    schema = _resolved(schema, defs)
    if not isinstance(schema, dict):
        return schema
    schema = dict(schema)
    if isinstance(schema.get("properties"), dict):
        schema["properties"] = {name: _items_by_presence(field, defs)
                                for name, field in schema["properties"].items()}
    item = _resolved(schema.get("items"), defs)
    if isinstance(item, dict) and "properties" in item:
        schema["items"] = {**{key: item[key] for key in ("type", "required", "additionalProperties")
                              if key in item},
                           "properties": dict.fromkeys(item["properties"], True)}
    return schema


def _schemas() -> list[tuple[str, dict[str, Any], dict[str, Any], dict[str, Any]]]:
    """(name, the model's own schema, what the tool's schema must accept, the tool's schema)
    for every input and output."""
    cases: list[tuple[str, dict[str, Any], dict[str, Any], dict[str, Any]]] = []
    for tool in TOOLS:
        own = _input_model(tool.operation, tool.shape).model_json_schema(by_alias=True)
        own.pop("title", None)
        cases.append((f"{tool.name} input", own, own, tool.input_schema))
        answer = tool.shape.answer
        if answer not in (ANY_OBJECT, NO_JSON):
            assert tool.output_schema is not None
            own = answer.model_json_schema(mode="serialization")
            cases.append((f"{tool.name} output", own, _items_by_presence(own, own.get("$defs", {})),
                          tool.output_schema))
    return cases


SCHEMAS = _schemas()


@pytest.mark.parametrize(("own", "promised", "flat"), [case[1:] for case in SCHEMAS],
                         ids=[case[0] for case in SCHEMAS])
def test_a_flat_schema_accepts_exactly_what_the_models_schema_accepts(
        own: dict[str, Any], promised: dict[str, Any], flat: dict[str, Any]) -> None:
    before, after = Draft202012Validator(promised), Draft202012Validator(flat)

    @settings(max_examples=25, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    @given(_valid(own, own.get("$defs", {})) | _near(own, own.get("$defs", {})))
    def same_verdict(value: Any) -> None:
        assert after.is_valid(value) == before.is_valid(value), value

    same_verdict()


def _listed_items(schema: Any) -> list[dict[str, Any]]:
    """The item schemas of every list of objects in an output schema."""
    if not isinstance(schema, dict):
        return []
    found = [item for item in [schema.get("items")] if isinstance(item, dict)
             and item.get("type") == "object"]
    for field in (schema.get("properties") or {}).values():
        found += _listed_items(field)
    return found


def documented_fields(item: dict[str, Any]) -> dict[str, Any]:
    """The fields' schemas a listed item's description gives."""
    fields: dict[str, Any] = json.loads(item["description"].split(ITEM_FIELDS_NOTE)[1])
    return fields


LISTED = [(tool.name, item) for tool in TOOLS for item in _listed_items(tool.output_schema)]


@pytest.mark.parametrize(("tool", "item"), LISTED, ids=[tool for tool, _ in LISTED])
def test_a_listed_items_fields_are_checked_for_presence_and_their_schemas_written(
        tool: str, item: dict[str, Any]) -> None:
    assert "properties" not in item  # fields of schema true the client's check would walk
    fields = documented_fields(item)
    assert list(fields) == item["required"] and all(isinstance(f, dict) for f in fields.values())
    Draft202012Validator.check_schema({"type": "object", "properties": fields})


def test_a_listed_item_that_refuses_other_fields_still_allows_its_own() -> None:
    item = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"],
            "additionalProperties": False}
    flat = items_by_presence({"type": "object", "properties": {
        "data": {"type": "array", "items": item}}})
    assert flat["properties"]["data"]["items"]["properties"] == {"a": True}
    page = Draft202012Validator(flat)
    assert page.is_valid({"data": [{"a": 1}]})
    assert not page.is_valid({"data": [{"a": "x", "b": 1}]})
    assert not page.is_valid({"data": [{}]})


def test_a_page_of_calls_names_the_contracts_fields_with_their_types() -> None:
    item = TOOLS_BY_NAME["calls_list"].output_schema["properties"]["data"]["items"]
    assert item["required"] == list(Call.model_fields)
    fields = documented_fields(item)
    assert fields["answered_at"] == {"format": "date-time", "type": ["string", "null"]}
    assert fields["direction"]["enum"] == ["inbound", "outbound"]
    assert fields["id"]["pattern"].startswith("^call_")
    call = {name: None for name in item["required"]}
    page = Draft202012Validator(TOOLS_BY_NAME["calls_list"].output_schema)
    assert page.is_valid({"data": [call], "page": {"next_cursor": None, "has_more": False}})
    assert not page.is_valid({"data": [{k: v for k, v in call.items() if k != "status"}],
                              "page": {"next_cursor": None, "has_more": False}})


@pytest.mark.parametrize("tool", TOOLS, ids=[tool.name for tool in TOOLS])
def test_schemas_refer_to_nothing_and_offer_no_choice(tool: ToolSpec) -> None:
    written = json.dumps([tool.input_schema, tool.output_schema])
    assert not [word for word in ("$ref", "$defs", "anyOf", "oneOf", "allOf")
                if f'"{word}"' in written]


def test_a_fields_own_description_is_kept_over_its_types() -> None:
    by_name = {tool.name: tool for tool in TOOLS}
    phone = by_name["leads_create"].input_schema["properties"]["phone"]
    assert phone["description"].startswith("Any JSON.") and phone["default"] is None
    direction = by_name["calls_list"].input_schema["properties"]["direction"]
    assert direction["type"] == ["string", "null"] and None in direction["enum"]


LIST_TOOLS = ["calls_list", "leads_list", "campaigns_list", "appointments_list"]
"""The list tools whose pages the test world fills."""


def test_real_pages_pass_the_sdk_clients_check_and_their_items_the_written_schemas(
        sandbox: Sandbox) -> None:
    async def scenario() -> dict[str, CallToolResult]:
        async with connect(sandbox, KEYS["full"]) as client:  # the SDK's client checks each
            return {tool: await client.call_tool(tool, {"limit": 100}) for tool in LIST_TOOLS}

    pages: dict[str, CallToolResult] = run(scenario)
    for tool, result in pages.items():
        assert not result.is_error, (tool, result.content)
        item = TOOLS_BY_NAME[tool].output_schema["properties"]["data"]["items"]
        fields = Draft202012Validator({"type": "object", "properties": documented_fields(item)})
        items = result.structured_content["data"]
        assert items and all(fields.is_valid(one) for one in items), tool
