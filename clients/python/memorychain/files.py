"""Bodies and answers of the Markdown file routes (``/files/{path}``), written by hand.

The served OpenAPI document leaves these routes out (a path with slashes cannot be expressed in it), so the generated
``models.py`` has no types for them; these follow the service's ``MarkdownFileWrite``, ``MarkdownPatch``,
``MarkdownAppend``, ``MarkdownEdit`` and ``MarkdownFileChange`` (memory-api, ``api.files``).
"""
from __future__ import annotations

import dataclasses as _dc
from typing import Any, ClassVar

from ._model import Model
from .models import MarkdownFileInfo

__all__ = ["MarkdownAppend", "MarkdownEdit", "MarkdownFileChange", "MarkdownFileInfo", "MarkdownFileWrite",
           "MarkdownPatch"]


@_dc.dataclass
class MarkdownAppend(Model):
    """The body of ``POST /files/{path}:append``: Markdown lines to add to the file."""

    text: str | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class MarkdownEdit(Model):
    """One text edit of a patch: ``old_text`` must occur exactly once in the file."""

    old_text: str | None = None
    new_text: str | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class MarkdownPatch(Model):
    """The body of ``POST /files/{path}:patch``: edits applied in order."""

    edits: list[MarkdownEdit] | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {"edits": ("MarkdownEdit", True)}


@_dc.dataclass
class MarkdownFileChange(Model):
    """One change a file write made: its line, created/updated/deleted/block_updated, the memory id or block, seq."""

    line: int | None = None
    action: str | None = None
    target: str | None = None
    seq: int | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {}


@_dc.dataclass
class MarkdownFileWrite(Model):
    """The answer of ``PUT``, ``:patch`` and ``:append`` on a file."""

    path: str | None = None
    applied: int | None = None
    changes: list[MarkdownFileChange] | None = None
    file: MarkdownFileInfo | None = None
    extra: dict[str, Any] = _dc.field(default_factory=dict, repr=False)
    __renames__: ClassVar[dict[str, str]] = {}
    __nested__: ClassVar[dict[str, tuple[str, bool]]] = {"changes": ("MarkdownFileChange", True),
                                                          "file": ("MarkdownFileInfo", False)}
