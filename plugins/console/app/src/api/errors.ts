/** One field-level problem the API names with a JSON pointer (`details[]` of the error shape). */
export interface ErrorDetail {
  in: string;
  pointer: string;
  message: string;
}

/** An API answer in the spec's error shape, or a network failure (status 0). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: ErrorDetail[];

  constructor(status: number, code: string, message: string, details: ErrorDetail[] = []) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
  }

  /** The problems that name `pointer` (e.g. `/name`), or any field under it. */
  detailsFor(pointer: string): ErrorDetail[] {
    return this.details.filter((d) => d.pointer === pointer || d.pointer.startsWith(`${pointer}/`));
  }
}

interface ErrorBody {
  error?: { code?: string; message?: string; status?: number; details?: ErrorDetail[] };
}

/** Builds an ApiError from a response that was not ok (its body already read, or unreadable). */
export function toApiError(response: Response, body: unknown): ApiError {
  const error = (body as ErrorBody | undefined)?.error;
  return new ApiError(
    response.status,
    error?.code ?? `http_${response.status}`,
    error?.message ?? (response.statusText || `The server answered ${response.status}.`),
    error?.details ?? [],
  );
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}
