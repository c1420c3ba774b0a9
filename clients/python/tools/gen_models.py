"""Generates memorychain/models.py (one dataclass per component schema) from the served OpenAPI document.

A development tool, not part of the package: it needs PyYAML (the package itself uses the standard library only).

    python3 tools/gen_models.py ../openapi/memory-chain-v1.yml memorychain/models.py
"""
import keyword
import re
import sys

import yaml

TYPES = {"string": "str", "integer": "int", "number": "float", "boolean": "bool", "object": "dict"}


def class_name(schema_name):
    return re.sub(r"[^0-9A-Za-z]", "", schema_name)


def ref_name(prop):
    if "$ref" in prop:
        return prop["$ref"].split("/")[-1]
    for key in ("allOf", "oneOf", "anyOf"):
        if key in prop and len(prop[key]) == 1 and "$ref" in prop[key][0]:
            return prop[key][0]["$ref"].split("/")[-1]
    return None


def py_type(prop, schemas):
    ref = ref_name(prop)
    if ref is not None:
        return class_name(ref) if is_object(schemas.get(ref, {})) else py_type(schemas.get(ref, {}), schemas)
    kind = prop.get("type")
    if kind == "array":
        return "list[" + py_type(prop.get("items", {}), schemas) + "]"
    return TYPES.get(kind, "Any")


def is_object(schema):
    return schema.get("type", "object") == "object" and "properties" in schema


def nested(prop, schemas):
    """(class, is_list) when the property holds another generated dataclass."""
    ref = ref_name(prop)
    if ref is not None and is_object(schemas.get(ref, {})):
        return class_name(ref), False
    if prop.get("type") == "array":
        inner = ref_name(prop.get("items", {}))
        if inner is not None and is_object(schemas.get(inner, {})):
            return class_name(inner), True
    return None


def main(spec_path, out_path):
    with open(spec_path, encoding="utf-8") as f:
        spec = yaml.safe_load(f)
    schemas = spec["components"]["schemas"]
    out = ['"""Answer types of the Memory Chain REST API, generated from its OpenAPI document by tools/gen_models.py.',
           "",
           "Do not edit: regenerate after the API changes. Every field is optional (None when the answer leaves it out),",
           "unknown fields of a newer service are kept in ``extra``.",
           '"""',
           "from __future__ import annotations",
           "",
           "import dataclasses as _dc",
           "from typing import Any, ClassVar",
           "",
           "from ._model import Model",
           "",
           "__all__ = [" + ", ".join('"' + class_name(n) + '"' for n in sorted(schemas) if is_object(schemas[n])) + "]",
           ""]
    for name in sorted(schemas):
        schema = schemas[name]
        if not is_object(schema):
            continue
        own = name.split(".")[-1]
        props = {p: v for p, v in schema["properties"].items() if p != own}  # a property named after its schema is spurious
        out.append("")
        out.append("@_dc.dataclass")
        out.append(f"class {class_name(name)}(Model):")
        doc = (schema.get("description") or name).strip().replace('"""', "'''").replace("\\", "\\\\")
        out.append('    """' + " ".join(doc.split()) + '"""')
        out.append("")
        renames, nests = {}, {}
        for prop, value in props.items():
            attr = re.sub(r"[^0-9A-Za-z_]", "_", prop)
            if keyword.iskeyword(attr) or attr in ("extra", "raw"):
                attr += "_"
            if attr != prop:
                renames[prop] = attr
            sub = nested(value, schemas)
            if sub is not None:
                nests[attr] = sub
            out.append(f"    {attr}: {py_type(value, schemas)} | None = None")
        out.append("    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)")
        out.append(f"    __renames__: ClassVar[dict[str, str]] = {renames!r}")
        out.append("    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {" + ", ".join(
            f"{k!r}: ({c!r}, {l})" for k, (c, l) in nests.items()) + "}")
        out.append("")
    with open(out_path, "w", encoding="utf-8") as f:
        f.write("\n".join(out).rstrip() + "\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
