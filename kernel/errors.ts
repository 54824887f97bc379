import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnreachable, isRefusedValue } from './db/errors.js';

/**
 * The one error catalogue. Every error the service returns has a code listed here, so clients
 * can branch on `error.code` (spec §7) and a test can check the catalogue against the spec.
 * Like koa's `expose` flag: 4xx messages reach the client, 5xx messages never do.
 */
export const ERROR_CATALOGUE = {
  bad_request: { status: 400, message: 'The request is not valid.' },
  invalid_json: { status: 400, message: 'The request body is not valid JSON.' },
  validation_error: { status: 400, message: 'The request does not match the schema.' },
  invalid_credentials: { status: 401, message: 'The credential is not valid.' },
  authentication_required: { status: 401, message: 'This route needs a credential.' },
  forbidden: { status: 403, message: 'The credential lacks the permission this route needs.' },
  not_found: { status: 404, message: 'No such resource.' },
  method_not_allowed: { status: 405, message: 'The path does not accept this method.' },
  request_timeout: { status: 408, message: 'The request was not received in time.' },
  conflict: { status: 409, message: 'The request conflicts with the current state.' },
  duplicate_identifier: { status: 409, message: 'That identifier is already taken.' },
  // Conditional requests (If-Match) of routes declaring etag.if_match (kernel/concurrency/etag.ts; DESIGN.md: optimistic concurrency).
  precondition_failed: { status: 412, message: 'If-Match names a revision (ETag) that is no longer the current one.' },
  payload_too_large: { status: 413, message: 'The request body is larger than the limit.' },
  unsupported_media_type: { status: 415, message: 'The request body has an unsupported content type.' },
  upgrade_required: { status: 426, message: 'This route must be opened with a protocol upgrade (WebSocket).' },
  idempotency_key_reused: { status: 422, message: 'The idempotency key was used with a different payload.' },
  too_many_requests: { status: 429, message: 'Too many requests; back off and retry.' },
  request_header_fields_too_large: { status: 431, message: 'The request head is larger than the limit.' },
  internal_error: { status: 500, message: 'Internal error.' },
  not_configured: { status: 501, message: 'This capability is not configured in this deployment.' },
  unavailable: { status: 503, message: 'A dependency is unavailable.' },
} as const satisfies Record<string, { status: number; message: string }>;

/** A code of the kernel's catalogue. */
export type KernelErrorCode = keyof typeof ERROR_CATALOGUE;

/**
 * Any code of the one catalogue: the kernel's, or one a plugin's manifest declares in
 * `error_codes` (merged at boot by registerErrorCodes). The string half keeps the kernel's codes
 * suggested while letting plugins name their own.
 */
export type ErrorCode = KernelErrorCode | (string & Record<never, never>);

/** Codes plugins declared, process-wide (several kernels in one process share them). */
const declared = new Map<string, { status: number; message: string; plugin: string }>();

/** The catalogue entry of a code, or undefined for a code nobody declared. */
export function catalogueEntry(code: string): { status: number; message: string } | undefined {
  return (ERROR_CATALOGUE as Record<string, { status: number; message: string }>)[code] ?? declared.get(code);
}

/**
 * Merges a plugin's declared codes into the catalogue; returns the problems (a code the kernel
 * or another plugin already declared with another status) for the boot to report.
 */
export function registerErrorCodes(
  plugin: string,
  codes: ReadonlyArray<{ code: string; status: number; description: string }>,
): string[] {
  const problems: string[] = [];
  for (const { code, status, description } of codes) {
    const existing = catalogueEntry(code);
    const owner = code in ERROR_CATALOGUE ? 'the kernel' : `plugin ${declared.get(code)?.plugin}`;
    if (existing && (existing.status !== status || owner !== `plugin ${plugin}`)) {
      problems.push(`plugin ${plugin}: error code ${code} is already declared by ${owner}`);
      continue;
    }
    declared.set(code, { status, message: description, plugin });
  }
  return problems;
}

/** One failing location in a request, as a JSON pointer into the part that failed. */
export interface ErrorDetail {
  /** `body`, `query`, `params` or `headers`. */
  in: string;
  pointer: string;
  message: string;
}

export interface ErrorBody {
  error: { code: string; message: string; status: number; details?: ErrorDetail[] };
}

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** Whether `message` may reach the client: true for 4xx, false for 5xx (no internals leak). */
  readonly expose: boolean;
  readonly details: ErrorDetail[] | undefined;
  /** Extra response headers, such as `Allow` on 405 or `Retry-After` on 409. */
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    message?: string,
    options: { details?: ErrorDetail[]; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    const known = catalogueEntry(code);
    // A code nobody declared is a bug of the thrower: it becomes a 500 that says so in the log
    // (and the catalogue test fails on it), never a status made up on the spot.
    const entry = known ?? ERROR_CATALOGUE.internal_error;
    super(
      known ? (message ?? entry.message) : `undeclared error code "${code}"`,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = 'ApiError';
    this.code = known ? code : 'internal_error';
    this.status = entry.status;
    this.expose = entry.status < 500;
    this.details = options.details;
    this.headers = options.headers ?? {};
  }

  toBody(): ErrorBody {
    const message = this.expose ? this.message : (catalogueEntry(this.code) ?? ERROR_CATALOGUE.internal_error).message;
    const error: ErrorBody['error'] = { code: this.code, message, status: this.status };
    if (this.details && this.details.length > 0) error.details = this.details;
    return { error };
  }
}

/**
 * Turns anything thrown into an ApiError; unknown errors become a 500 that hides its text. A lost
 * or refused database connection is 503 `unavailable` with Retry-After (spec §7: back off and
 * retry), wherever it was thrown: a handler, a pipeline step, an authenticator or the MCP server.
 */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (isDatabaseUnreachable(err)) {
    return new ApiError('unavailable', 'The database is unreachable; retry later.', {
      headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) },
      cause: err,
    });
  }
  if (isRefusedValue(err)) {
    return new ApiError(
      'validation_error',
      'A value in the request cannot be stored: it is out of range or too large for its field.',
      {
        cause: err,
        details: [{ in: 'body', pointer: '/', message: 'holds a value out of range or too large to store' }],
      },
    );
  }
  return new ApiError('internal_error', undefined, { cause: err });
}

export function isApiError(err: unknown, code?: ErrorCode): err is ApiError {
  return err instanceof ApiError && (code === undefined || err.code === code);
}
