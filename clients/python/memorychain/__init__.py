"""Python client of the Memory Chain REST API (standard library only)."""
from . import files, models
from .client import MarkdownText, MemoryChain, if_match_header
from .errors import ERRORS, MemoryChainError, error_for
from .errors import *  # noqa: F401,F403 (one class per error code)
from .operations import EXEMPTIONS, ROUTES
from .tools import TOOL_DEFINITIONS, fetch_tool_definitions, run_tool, tool_definitions
from .transport import RetryPolicy

__version__ = "0.1.0"
__all__ = ["MemoryChain", "MemoryChainError", "RetryPolicy", "MarkdownText", "models", "files", "ERRORS", "EXEMPTIONS",
           "ROUTES", "error_for", "if_match_header", "TOOL_DEFINITIONS", "tool_definitions",
           "fetch_tool_definitions", "run_tool"] + [cls.__name__ for cls in ERRORS.values()]
