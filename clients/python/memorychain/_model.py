"""The base of the answer dataclasses: built from the JSON of an answer, nested answers included."""
from __future__ import annotations

import dataclasses
import sys
from typing import Any, ClassVar, TypeVar

T = TypeVar("T", bound="Model")


class Model:
    """A dataclass built from a JSON object; fields the class does not know are kept in ``extra``."""

    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}

    @classmethod
    def from_dict(cls: type[T], data: Any) -> T:
        if data is None:
            return None  # type: ignore[return-value]
        if not isinstance(data, dict):
            raise TypeError(f"{cls.__name__} expects a JSON object, got {type(data).__name__}")
        names = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
        models = sys.modules[cls.__module__]
        values: dict[str, Any] = {}
        extra: dict[str, Any] = {}
        for key, value in data.items():
            attr = cls.__renames__.get(key, key)
            if attr not in names or attr == "extra":
                extra[key] = value
                continue
            sub = cls.__nested__.get(attr)
            if sub is not None and value is not None:
                target = getattr(models, sub[0])
                value = [target.from_dict(v) for v in value] if sub[1] else target.from_dict(value)
            values[attr] = value
        return cls(**values, extra=extra)  # type: ignore[call-arg]

    def to_dict(self) -> dict[str, Any]:
        """The answer as JSON again (wire names, unknown fields included, None left out)."""
        back = {v: k for k, v in self.__renames__.items()}
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            if f.name == "extra":
                continue
            value = getattr(self, f.name)
            if value is None:
                continue
            if isinstance(value, Model):
                value = value.to_dict()
            elif isinstance(value, list):
                value = [v.to_dict() if isinstance(v, Model) else v for v in value]
            out[back.get(f.name, f.name)] = value
        out.update(self.extra)  # type: ignore[attr-defined]
        return out
