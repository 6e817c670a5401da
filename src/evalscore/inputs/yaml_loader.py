"""Safe YAML for suites, read with YAML 1.2 core-schema scalars.

PyYAML implements YAML 1.1, where ``yes`` is true and ``2024-01-01`` is a
date. Suites are authored for a JSON data model (the anchor reads them as
YAML 1.2), so only ``true``/``false``, ``null``/``~`` and JSON-like numbers
are resolved; everything else stays a string. Aliases are counted so that
an alias bomb is refused instead of expanded.
"""

from __future__ import annotations

import re
from typing import Any, Final

import yaml

MAX_EXPANDED_NODES: Final = 1_000_000


class YamlTooLargeError(ValueError):
    """The YAML expands (through aliases) to more nodes than evalscore will build."""


class _CoreSchemaLoader(yaml.SafeLoader):
    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        """JSON's data model: every mapping key is a string (``1: x`` would be an integer key)."""
        for key_node, _ in node.value:
            if key_node.tag != "tag:yaml.org,2002:str":
                shown = repr(key_node.value) if isinstance(key_node, yaml.ScalarNode) else "a collection"
                raise yaml.constructor.ConstructorError(
                    None, None, f"mapping key {shown} is not a string (quote it)", key_node.start_mark
                )
        return super().construct_mapping(node, deep=deep)


_CoreSchemaLoader.yaml_implicit_resolvers = {}
_CoreSchemaLoader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)
_CoreSchemaLoader.add_implicit_resolver(
    "tag:yaml.org,2002:null", re.compile(r"^(?:~|null|Null|NULL|)$"), ["~", "n", "N", ""]
)
_CoreSchemaLoader.add_implicit_resolver("tag:yaml.org,2002:int", re.compile(r"^[-+]?[0-9]+$"), list("-+0123456789"))
_CoreSchemaLoader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$"),
    list("-+0123456789."),
)


def _expanded_size(node: yaml.Node, memo: dict[int, int]) -> int:
    known = memo.get(id(node))
    if known is not None:
        return known
    memo[id(node)] = 1  # a cycle counts once; its expansion is caught by the total below
    size = 1
    if isinstance(node, yaml.SequenceNode):
        size += sum(_expanded_size(child, memo) for child in node.value)
    elif isinstance(node, yaml.MappingNode):
        size += sum(_expanded_size(k, memo) + _expanded_size(v, memo) for k, v in node.value)
    memo[id(node)] = size
    if size > MAX_EXPANDED_NODES:
        raise YamlTooLargeError(f"the YAML expands to more than {MAX_EXPANDED_NODES:,} nodes through aliases")
    return size


def load_yaml(data: bytes) -> Any:
    """One YAML document as JSON-like data; raises yaml.YAMLError or YamlTooLargeError."""
    loader = _CoreSchemaLoader(data)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _expanded_size(node, {})
        return loader.construct_document(node)
    finally:
        loader.dispose()
