/**
 * One typed error hierarchy. REST maps it to SPEC's envelope (2.1, 7.1); MCP maps it to
 * JSON-RPC errors. Anything that is not an AppError is an internal error whose message
 * never leaves the process.
 */
export interface ErrorExtras {
  code?: string;
  retryable?: boolean;
  action?: string;
  /** Additional SPEC fields for domain errors (e.g. `suggestion`, `conflicting_study_refs`). */
  details?: Record<string, unknown>;
  headers?: Record<string, string>;
}

export class AppError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly retryable: boolean | undefined;
  readonly action: string | undefined;
  readonly details: Record<string, unknown> | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(status: number, message: string, extras: ErrorExtras = {}) {
    super(message);
    this.name = new.target.name;
    this.status = status;
    this.code = extras.code;
    this.retryable = extras.retryable;
    this.action = extras.action;
    this.details = extras.details;
    this.headers = extras.headers;
  }
}

export class ValidationError extends AppError {
  constructor(message: string, extras: ErrorExtras = {}) {
    super(400, message, { code: 'invalid_request', ...extras });
  }
}
export class AuthenticationError extends AppError {
  constructor(message = 'Authentication required', extras: ErrorExtras = {}) {
    super(401, message, { code: 'unauthenticated', ...extras });
  }
}
export class PaymentRequiredError extends AppError {
  constructor(message: string, extras: ErrorExtras = {}) {
    super(402, message, { code: 'payment_required', ...extras });
  }
}
export class ForbiddenError extends AppError {
  constructor(message: string, extras: ErrorExtras = {}) {
    super(403, message, { code: 'forbidden', ...extras });
  }
}
export class NotFoundError extends AppError {
  constructor(message = 'Not found', extras: ErrorExtras = {}) {
    super(404, message, { code: 'not_found', ...extras });
  }
}
export class ConflictError extends AppError {
  constructor(message: string, extras: ErrorExtras = {}) {
    super(409, message, { code: 'conflict', ...extras });
  }
}
export class PayloadTooLargeError extends AppError {
  constructor(message: string, extras: ErrorExtras = {}) {
    super(413, message, { code: 'payload_too_large', ...extras });
  }
}
/** Domain rule refused the request; retrying the same request will not help. */
export class DomainError extends AppError {
  constructor(message: string, extras: ErrorExtras = {}) {
    super(422, message, { retryable: false, ...extras });
  }
}
export class RateLimitedError extends AppError {
  constructor(message = 'Too many requests', extras: ErrorExtras = {}) {
    super(429, message, { code: 'rate_limited', retryable: true, ...extras });
  }
}
/** A dependency is missing or temporarily unavailable; the envelope says what. */
export class UnavailableError extends AppError {
  constructor(message: string, extras: ErrorExtras = {}) {
    super(503, message, { retryable: true, ...extras });
  }
}

export interface ErrorEnvelope {
  error: string;
  code?: string;
  retryable?: boolean;
  action?: string;
  requestId?: string;
  [extra: string]: unknown;
}

export function toEnvelope(err: AppError, requestId: string): ErrorEnvelope {
  const body: ErrorEnvelope = { error: err.message };
  if (err.code) body.code = err.code;
  if (err.retryable !== undefined) body.retryable = err.retryable;
  if (err.action) body.action = err.action;
  Object.assign(body, err.details);
  body.requestId = requestId;
  return body;
}

export function internalEnvelope(requestId: string): ErrorEnvelope {
  return { error: 'Internal error', code: 'internal_error', retryable: true, requestId };
}

/**
 * JSON-RPC codes for MCP protocol errors only: resources/read, prompts/get, unknown tools and
 * SPEC 5.4's scope gate. A tool's own failures are tool results with `isError` (core/mcp-server.ts).
 * Standard codes: -32602 invalid params, -32002 resource not found (MCP), -32603 internal.
 */
const jsonRpcCodes: Record<number, number> = {
  400: -32602,
  413: -32602,
  422: -32602,
};

/** `notFound`: what a 404 means here; prompts/get says -32602, since the argument names nothing. */
export function jsonRpcCodeFor(err: AppError, notFound = -32002): number {
  if (err.code === 'agent_write_not_permitted') return -31003;
  if (err.status === 404) return notFound;
  return jsonRpcCodes[err.status] ?? -32603;
}
