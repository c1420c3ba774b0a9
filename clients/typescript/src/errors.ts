/** One error class per error code of the API, each carrying the code, message, request id and HTTP status. */

export interface ErrorDetails {
  status?: number;
  requestId?: string;
  retryAfter?: number;
  body?: unknown;
}

/** An error answer of the service, or a transport failure once retries are spent (code UNAVAILABLE or TIMEOUT). */
export class MemoryChainError extends Error {
  readonly code: string;
  readonly status?: number;
  readonly requestId?: string;
  readonly retryAfter?: number;
  readonly body?: unknown;

  constructor(code: string, message: string, details: ErrorDetails = {}) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    this.status = details.status;
    this.requestId = details.requestId;
    this.retryAfter = details.retryAfter;
    this.body = details.body;
  }

  override toString(): string {
    return `${this.name} ${this.code}: ${this.message}` + (this.requestId ? ` (request ${this.requestId})` : "");
  }
}

export class InvalidArgumentError extends MemoryChainError {}
export class UnknownBlockLabelError extends MemoryChainError {}
export class ForbiddenError extends MemoryChainError {}
export class ConstitutionalError extends MemoryChainError {}
export class NotInRefinementError extends MemoryChainError {}
export class CategoryNotAllowedError extends MemoryChainError {}
export class NotFoundError extends MemoryChainError {}
export class VersionConflictError extends MemoryChainError {}
export class InvalidStateError extends MemoryChainError {}
export class AlreadyLinkedError extends MemoryChainError {}
/** The write waits for the user's consent as the consent request its message names. */
export class HeldForConsentError extends MemoryChainError {}
export class AlreadyResolvedError extends MemoryChainError {}
export class BudgetExceededError extends MemoryChainError {}
export class ExpiredError extends MemoryChainError {}
export class TooLargeError extends MemoryChainError {}
export class InvalidPathError extends MemoryChainError {}
export class InvalidFilterError extends MemoryChainError {}
export class PatchConflictError extends MemoryChainError {}
export class InvalidConfirmationError extends MemoryChainError {}
export class ConfirmationNotYoursError extends MemoryChainError {}
export class UnauthenticatedError extends MemoryChainError {}
export class SpaceNotAllowedError extends MemoryChainError {}
export class RoleNotAllowedError extends MemoryChainError {}
export class GrantRequiredError extends MemoryChainError {}
export class MethodNotAllowedError extends MemoryChainError {}
export class NotAcceptableError extends MemoryChainError {}
export class UnsupportedMediaTypeError extends MemoryChainError {}
export class RejectedError extends MemoryChainError {}
export class TimeoutError extends MemoryChainError {}
export class ChainBrokenError extends MemoryChainError {}
export class UnavailableError extends MemoryChainError {}
export class RebalancingError extends MemoryChainError {}
export class RateLimitedError extends MemoryChainError {}
export class NotOwnerError extends MemoryChainError {}
export class NotAvailableError extends MemoryChainError {}
export class InternalError extends MemoryChainError {}

/** The class of each code the service answers. */
export const ERRORS = {
  INVALID_ARGUMENT: InvalidArgumentError,
  UNKNOWN_BLOCK_LABEL: UnknownBlockLabelError,
  FORBIDDEN: ForbiddenError,
  CONSTITUTIONAL: ConstitutionalError,
  NOT_IN_REFINEMENT: NotInRefinementError,
  CATEGORY_NOT_ALLOWED: CategoryNotAllowedError,
  NOT_FOUND: NotFoundError,
  VERSION_CONFLICT: VersionConflictError,
  INVALID_STATE: InvalidStateError,
  HELD_FOR_CONSENT: HeldForConsentError,
  ALREADY_LINKED: AlreadyLinkedError,
  ALREADY_RESOLVED: AlreadyResolvedError,
  BUDGET_EXCEEDED: BudgetExceededError,
  EXPIRED: ExpiredError,
  TOO_LARGE: TooLargeError,
  INVALID_PATH: InvalidPathError,
  INVALID_FILTER: InvalidFilterError,
  PATCH_CONFLICT: PatchConflictError,
  INVALID_CONFIRMATION: InvalidConfirmationError,
  CONFIRMATION_NOT_YOURS: ConfirmationNotYoursError,
  UNAUTHENTICATED: UnauthenticatedError,
  SPACE_NOT_ALLOWED: SpaceNotAllowedError,
  ROLE_NOT_ALLOWED: RoleNotAllowedError,
  GRANT_REQUIRED: GrantRequiredError,
  METHOD_NOT_ALLOWED: MethodNotAllowedError,
  NOT_ACCEPTABLE: NotAcceptableError,
  UNSUPPORTED_MEDIA_TYPE: UnsupportedMediaTypeError,
  REJECTED: RejectedError,
  TIMEOUT: TimeoutError,
  CHAIN_BROKEN: ChainBrokenError,
  UNAVAILABLE: UnavailableError,
  REBALANCING: RebalancingError,
  RATE_LIMITED: RateLimitedError,
  NOT_OWNER: NotOwnerError,
  NOT_AVAILABLE: NotAvailableError,
  INTERNAL: InternalError,
} as const satisfies Record<string, typeof MemoryChainError>;

export type ErrorCode = keyof typeof ERRORS;

/** The typed error of a code; a code this client does not know yet gives MemoryChainError with the code kept. */
export function errorFor(code: string | undefined, message: string, details: ErrorDetails = {}): MemoryChainError {
  const known = code !== undefined && Object.hasOwn(ERRORS, code) ? ERRORS[code as ErrorCode] : MemoryChainError;
  return new known(code ?? "UNKNOWN", message, details);
}
