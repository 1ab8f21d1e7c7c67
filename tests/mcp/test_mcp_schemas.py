"""The tools' schemas are flat and say exactly what the contract's models say.

Issue 21: the SDK's server walks every position of a tool's input schema for each call,
and the SDK's client checks every listed item against the output schema, so both are
written with no ``$ref`` and no ``anyOf`` of a type or null. Each must accept exactly the
values the model's own JSON Schema (with its ``$defs`` and choices) accepts: checked on
values drawn from that schema, near-misses and arbitrary JSON included.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from dialkit.mcp import TOOLS, ToolSpec
from dialkit.mcp._shapes import ANY_OBJECT, NO_JSON
from dialkit.mcp._tools import _input_model

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


def _schemas() -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """(name, the model's own schema, the tool's schema) for every input and output."""
    pairs: list[tuple[str, dict[str, Any], dict[str, Any]]] = []
    for tool in TOOLS:
        own = _input_model(tool.operation, tool.shape).model_json_schema(by_alias=True)
        own.pop("title", None)
        pairs.append((f"{tool.name} input", own, tool.input_schema))
        answer = tool.shape.answer
        if answer not in (ANY_OBJECT, NO_JSON):
            assert tool.output_schema is not None
            pairs.append((f"{tool.name} output",
                          answer.model_json_schema(mode="serialization"), tool.output_schema))
    return pairs


SCHEMAS = _schemas()


@pytest.mark.parametrize(("own", "flat"), [pair[1:] for pair in SCHEMAS],
                         ids=[pair[0] for pair in SCHEMAS])
def test_a_flat_schema_accepts_exactly_what_the_models_schema_accepts(
        own: dict[str, Any], flat: dict[str, Any]) -> None:
    before, after = Draft202012Validator(own), Draft202012Validator(flat)

    @settings(max_examples=25, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    @given(_valid(own, own.get("$defs", {})) | _near(own, own.get("$defs", {})))
    def same_verdict(value: Any) -> None:
        assert after.is_valid(value) == before.is_valid(value), value

    same_verdict()


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
