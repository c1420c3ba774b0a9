"""One exception class per error code of the API, each carrying the code, message, request id and HTTP status."""
from __future__ import annotations

from typing import Any


class MemoryChainError(Exception):
    """An error answer of the service (or a transport failure once retries are spent: code UNAVAILABLE/TIMEOUT)."""

    code: str = ""

    def __init__(self, code: str, message: str, request_id: str | None = None, status: int | None = None,
                 retry_after: float | None = None, body: Any = None):
        super().__init__(f"{code}: {message}" + (f" (request {request_id})" if request_id else ""))
        self.code = code
        self.message = message
        self.request_id = request_id
        self.status = status
        self.retry_after = retry_after
        self.body = body


class InvalidArgumentError(MemoryChainError):
    """INVALID_ARGUMENT (HTTP bad request)."""


class UnknownBlockLabelError(MemoryChainError):
    """UNKNOWN_BLOCK_LABEL (HTTP bad request)."""


class ForbiddenError(MemoryChainError):
    """FORBIDDEN (HTTP forbidden)."""


class ConstitutionalError(MemoryChainError):
    """CONSTITUTIONAL (HTTP forbidden)."""


class NotInRefinementError(MemoryChainError):
    """NOT_IN_REFINEMENT (HTTP forbidden)."""


class CategoryNotAllowedError(MemoryChainError):
    """CATEGORY_NOT_ALLOWED (HTTP forbidden)."""


class NotFoundError(MemoryChainError):
    """NOT_FOUND (HTTP not found)."""


class VersionConflictError(MemoryChainError):
    """VERSION_CONFLICT (HTTP conflict)."""


class InvalidStateError(MemoryChainError):
    """INVALID_STATE (HTTP conflict)."""


class HeldForConsentError(MemoryChainError):
    """HELD_FOR_CONSENT (HTTP conflict): the write waits for the user's consent as the consent request named."""


class AlreadyLinkedError(MemoryChainError):
    """ALREADY_LINKED (HTTP conflict)."""


class AlreadyResolvedError(MemoryChainError):
    """ALREADY_RESOLVED (HTTP conflict)."""


class BudgetExceededError(MemoryChainError):
    """BUDGET_EXCEEDED (HTTP conflict)."""


class ExpiredError(MemoryChainError):
    """EXPIRED (HTTP conflict)."""


class TooLargeError(MemoryChainError):
    """TOO_LARGE (HTTP request entity too large)."""


class InvalidPathError(MemoryChainError):
    """INVALID_PATH (HTTP bad request)."""


class InvalidFilterError(MemoryChainError):
    """INVALID_FILTER (HTTP bad request)."""


class PatchConflictError(MemoryChainError):
    """PATCH_CONFLICT (HTTP conflict)."""


class InvalidConfirmationError(MemoryChainError):
    """INVALID_CONFIRMATION (HTTP bad request)."""


class ConfirmationNotYoursError(MemoryChainError):
    """CONFIRMATION_NOT_YOURS (HTTP forbidden)."""


class UnauthenticatedError(MemoryChainError):
    """UNAUTHENTICATED (HTTP unauthorized)."""


class SpaceNotAllowedError(MemoryChainError):
    """SPACE_NOT_ALLOWED (HTTP forbidden)."""


class RoleNotAllowedError(MemoryChainError):
    """ROLE_NOT_ALLOWED (HTTP forbidden)."""


class GrantRequiredError(MemoryChainError):
    """GRANT_REQUIRED (HTTP forbidden)."""


class MethodNotAllowedError(MemoryChainError):
    """METHOD_NOT_ALLOWED (HTTP method not allowed)."""


class NotAcceptableError(MemoryChainError):
    """NOT_ACCEPTABLE (HTTP not acceptable)."""


class UnsupportedMediaTypeError(MemoryChainError):
    """UNSUPPORTED_MEDIA_TYPE (HTTP unsupported media type)."""


class RejectedError(MemoryChainError):
    """REJECTED (HTTP unprocessable entity)."""


class TimeoutError(MemoryChainError):
    """TIMEOUT (HTTP service unavailable)."""


class ChainBrokenError(MemoryChainError):
    """CHAIN_BROKEN (HTTP conflict)."""


class UnavailableError(MemoryChainError):
    """UNAVAILABLE (HTTP service unavailable)."""


class RebalancingError(MemoryChainError):
    """REBALANCING (HTTP service unavailable)."""


class RateLimitedError(MemoryChainError):
    """RATE_LIMITED (HTTP too many requests): the key is past its quota."""


class NotOwnerError(MemoryChainError):
    """NOT_OWNER (HTTP misdirected request)."""


class NotAvailableError(MemoryChainError):
    """NOT_AVAILABLE (HTTP not implemented)."""


class InternalError(MemoryChainError):
    """INTERNAL (HTTP internal server error)."""


ERRORS: dict[str, type[MemoryChainError]] = {
    "INVALID_ARGUMENT": InvalidArgumentError,
    "UNKNOWN_BLOCK_LABEL": UnknownBlockLabelError,
    "FORBIDDEN": ForbiddenError,
    "CONSTITUTIONAL": ConstitutionalError,
    "NOT_IN_REFINEMENT": NotInRefinementError,
    "CATEGORY_NOT_ALLOWED": CategoryNotAllowedError,
    "NOT_FOUND": NotFoundError,
    "VERSION_CONFLICT": VersionConflictError,
    "INVALID_STATE": InvalidStateError,
    "ALREADY_LINKED": AlreadyLinkedError,
    "HELD_FOR_CONSENT": HeldForConsentError,
    "ALREADY_RESOLVED": AlreadyResolvedError,
    "BUDGET_EXCEEDED": BudgetExceededError,
    "EXPIRED": ExpiredError,
    "TOO_LARGE": TooLargeError,
    "INVALID_PATH": InvalidPathError,
    "INVALID_FILTER": InvalidFilterError,
    "PATCH_CONFLICT": PatchConflictError,
    "INVALID_CONFIRMATION": InvalidConfirmationError,
    "CONFIRMATION_NOT_YOURS": ConfirmationNotYoursError,
    "UNAUTHENTICATED": UnauthenticatedError,
    "SPACE_NOT_ALLOWED": SpaceNotAllowedError,
    "ROLE_NOT_ALLOWED": RoleNotAllowedError,
    "GRANT_REQUIRED": GrantRequiredError,
    "METHOD_NOT_ALLOWED": MethodNotAllowedError,
    "NOT_ACCEPTABLE": NotAcceptableError,
    "UNSUPPORTED_MEDIA_TYPE": UnsupportedMediaTypeError,
    "REJECTED": RejectedError,
    "TIMEOUT": TimeoutError,
    "CHAIN_BROKEN": ChainBrokenError,
    "UNAVAILABLE": UnavailableError,
    "REBALANCING": RebalancingError,
    "RATE_LIMITED": RateLimitedError,
    "NOT_OWNER": NotOwnerError,
    "NOT_AVAILABLE": NotAvailableError,
    "INTERNAL": InternalError,
}


def error_for(code: str | None, message: str, request_id: str | None = None, status: int | None = None,
              retry_after: float | None = None, body: Any = None) -> MemoryChainError:
    """The typed error of a code; a code this client does not know yet gives the base class with the code kept."""
    code = code or "UNKNOWN"
    return ERRORS.get(code, MemoryChainError)(code, message, request_id, status, retry_after, body)
