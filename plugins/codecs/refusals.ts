import { ApiError, type ErrorDetail } from '../../kernel/errors.js';
import { CodecSchemaError, CodecValueError, type CompatibilityProblem } from './contract.js';

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A schema the kind's compile refused → 400 naming the pointer into `schema` (and the .proto line). */
export function schemaRefusal(error: unknown): ApiError {
  const pointer = error instanceof CodecSchemaError ? `/schema${error.pointer}` : '/schema';
  const line = error instanceof CodecSchemaError && error.line !== undefined ? ` (line ${error.line})` : '';
  const message = `${messageOf(error)}${line}`;
  return new ApiError('validation_error', `The schema is not valid for this kind: ${message}`, {
    details: [{ in: 'body', pointer, message }],
  });
}

/** Bytes that do not decode → 400 naming the problem (and the byte offset when the kind knows it). */
export function decodeRefusal(error: unknown): ApiError {
  const offset = error instanceof CodecValueError && error.offset !== undefined ? ` (at byte ${error.offset})` : '';
  const message = `${messageOf(error)}${offset}`;
  return new ApiError('validation_error', `The bytes do not decode with this codec: ${message}`, {
    details: [{ in: 'body', pointer: '', message }],
  });
}

/** A value that does not fit → 400 naming its path under `base` (`/value` in POST /codecs/{id}/encode). */
export function encodeRefusal(error: unknown, base: string): ApiError {
  const pointer = `${base}${error instanceof CodecValueError ? (error.pointer ?? '') : ''}`;
  const message = messageOf(error);
  return new ApiError('validation_error', `The value does not fit this codec: ${message}`, {
    details: [{ in: 'body', pointer, message }],
  });
}

/** A schema change that breaks reading data → 422 with one detail per thing that broke. */
export function incompatibility(problems: readonly CompatibilityProblem[]): ApiError {
  const details: ErrorDetail[] = problems.map((p) => ({
    in: 'body',
    pointer: '/schema',
    message: `${p.path}: ${p.problem}`,
  }));
  const first = problems[0] as CompatibilityProblem;
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
  return new ApiError(
    'incompatible_schema',
    `The new schema breaks compatibility: ${first.path}: ${first.problem}${more}. Send ?force=true to keep it anyway.`,
    { details },
  );
}
