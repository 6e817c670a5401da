"""Field descriptions for the published schemas, read from the attribute docstrings of the models.

Pydantic can read them itself (``use_attribute_docstrings``), but it does so while each model class
is made, by walking the interpreter's frames and tokenizing the class's source: about 50 ms of
``score``'s start-up, paid by every command that imports a model, though only the schema builders
ever use a description. The models therefore leave that option off, and the builders generate their
schemas with ``DescribedJsonSchema``, which writes each description where pydantic would have: on the
field's property, over what the field's type says, unless the field's ``Field(description=...)`` says
it already. ``scripts/check_schema_drift.py`` checks the result against the published files.
"""

from __future__ import annotations

import ast
import functools
import inspect
import itertools
import sys
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue
from pydantic_core import core_schema


class DescribedJsonSchema(GenerateJsonSchema):
    """Pydantic's JSON Schema generator, with each field's attribute docstring as its description."""

    def model_schema(self, schema: core_schema.ModelSchema) -> JsonSchemaValue:
        json_schema = super().model_schema(schema)
        model: type[BaseModel] = schema["cls"]
        properties = json_schema.get("properties", {})
        for name, field in model.model_fields.items():
            docstring = field_docstring(model, name)
            if field.description is None and docstring is not None and name in properties:
                properties[name] = self.handle_ref_overrides({**properties[name], "description": docstring})
        return json_schema


def field_docstring(model: type, name: str) -> str | None:
    """The docstring under the annotation of ``name`` in the class of ``model``'s MRO that declares it
    (a parametrized generic model, made by pydantic, declares nothing of its own)."""
    for cls in model.__mro__:
        if _is_parametrized(cls):
            continue
        if name in vars(cls).get("__annotations__", {}):
            return attribute_docstrings(cls).get(name)
    return None


def _is_parametrized(cls: type) -> bool:
    metadata = getattr(cls, "__pydantic_generic_metadata__", None)
    return bool(metadata and metadata.get("origin") is not None)


@functools.cache
def attribute_docstrings(cls: type) -> dict[str, str]:
    """Each annotated attribute of ``cls``'s own body followed by a string, with that string cleaned
    (``inspect.cleandoc``): what pydantic's ``use_attribute_docstrings`` reads."""
    module = sys.modules.get(cls.__module__)
    if module is None:
        return {}
    try:
        tree = ast.parse(inspect.getsource(module))
    except (OSError, TypeError):  # no source: no descriptions, as pydantic gives
        return {}
    body = _class_body(tree, cls.__qualname__.split("."))
    docs: dict[str, str] = {}
    for previous, statement in itertools.pairwise(body):
        if (
            isinstance(previous, ast.AnnAssign)
            and isinstance(previous.target, ast.Name)
            and isinstance(statement, ast.Expr)
            and isinstance(statement.value, ast.Constant)
            and isinstance(statement.value.value, str)
        ):
            docs[previous.target.id] = inspect.cleandoc(statement.value.value)
    return docs


def _class_body(tree: ast.Module, path: list[str]) -> list[ast.stmt]:
    body: list[Any] = tree.body
    for name in path:
        found = [node for node in body if isinstance(node, ast.ClassDef) and node.name == name]
        if not found:
            return []
        body = found[-1].body  # a later definition of the same name is the one the module kept
    return body
