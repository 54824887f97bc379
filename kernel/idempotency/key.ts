import { createHash } from 'node:crypto';
import { ApiError } from '../errors.js';
import { canonicalJson } from '../paging/canonical.js';
import { KERNEL_FIELDS } from '../manifest/kernel-fields.js';
import type { Call } from '../types.js';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const MAX_KEY = 255;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

function bodyField(call: Call): unknown {
  const field = call.route.idempotency;
  const body = call.body;
  if (field === 'none' || typeof body !== 'object' || body === null || Buffer.isBuffer(body)) return undefined;
  return (body as Record<string, unknown>)[field];
}

/**
 * The key of an idempotent call: the body field the manifest names (`request_id` or
 * `idempotency_key`) or the `Idempotency-Key` header. Both may be sent only if they agree.
 */
export function idempotencyKeyOf(call: Call): string | undefined {
  const fromBody = bodyField(call);
  const fromHeader = call.headers[IDEMPOTENCY_HEADER]?.trim() || undefined;
  if (fromHeader !== undefined && fromHeader.length > MAX_KEY) {
    throw new ApiError('bad_request', `The Idempotency-Key header is longer than ${MAX_KEY} characters.`, {
      details: [{ in: 'headers', pointer: '/idempotency-key', message: `must be at most ${MAX_KEY} characters` }],
    });
  }
  if (typeof fromBody === 'string' && CONTROL.test(fromBody)) {
    throw new ApiError('bad_request', `The ${call.route.idempotency} must not contain control characters.`, {
      details: [{ in: 'body', pointer: `/${call.route.idempotency}`, message: 'contains control characters' }],
    });
  }
  if (typeof fromBody === 'string' && fromHeader !== undefined && fromBody !== fromHeader) {
    throw new ApiError(
      'bad_request',
      `The Idempotency-Key header and the body field ${call.route.idempotency} differ; send one key.`,
    );
  }
  return typeof fromBody === 'string' ? fromBody : fromHeader;
}

/** The key as far as it can be read without validation (for the audit record of a refused call). */
export function presentedKey(call: Call): string | null {
  const fromBody = bodyField(call);
  if (typeof fromBody === 'string') return fromBody.slice(0, MAX_KEY);
  return call.headers[IDEMPOTENCY_HEADER]?.trim().slice(0, MAX_KEY) || null;
}

/**
 * What "the same payload" means: the concrete path, the query and the body, minus the key
 * itself, the tenant (already part of the key's scope) and the dry-run flag.
 */
export function payloadFingerprint(call: Call): string {
  const body =
    typeof call.body === 'object' && call.body !== null && !Buffer.isBuffer(call.body)
      ? { ...(call.body as Record<string, unknown>) }
      : call.body;
  if (body && typeof body === 'object' && !Buffer.isBuffer(body)) {
    delete (body as Record<string, unknown>)[call.route.idempotency];
    delete (body as Record<string, unknown>)[KERNEL_FIELDS.tenant];
  }
  const query = { ...call.query };
  delete query[KERNEL_FIELDS.dryRun];
  delete query[KERNEL_FIELDS.tenant];
  const content = Buffer.isBuffer(body) ? createHash('sha256').update(body).digest('hex') : body;
  return createHash('sha256')
    .update(canonicalJson([call.method, call.path, query, content ?? null]))
    .digest('base64url');
}
