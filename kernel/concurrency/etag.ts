import { ApiError } from '../errors.js';
import { isStreaming } from '../manifest/types.js';
import type { Call, StepFactory } from '../types.js';

/** The reply header that carries a resource's version (RFC 9110 §8.8.3). */
export const ETAG_HEADER = 'ETag';
/** The request header that makes a change conditional on the version the client read. */
export const IF_MATCH_HEADER = 'if-match';

/** Characters an entity tag may hold between its quotes (RFC 9110 `etagc`). */
const ETAGC = /^[\x21\x23-\x7e\x80-\xff]*$/;
/** One entity tag of a list: strong (`"1"`) or weak (`W/"1"`). */
const TAG = /(W\/)?"([^"]*)"/g;

/**
 * The strong entity tag of a version (`7` → `"7"`), or undefined for a value that cannot be one
 * (absent, an object, a string with a quote or a space): the kernel then sends no ETag rather
 * than one a client could not send back.
 */
export function entityTag(version: unknown): string | undefined {
  if (typeof version === 'number' && Number.isFinite(version)) return `"${version}"`;
  if (typeof version === 'string' && ETAGC.test(version)) return `"${version}"`;
  return undefined;
}

/**
 * Whether an If-Match value lets a change to `current` proceed (RFC 9110 §13.1.1): `*`, or a
 * list naming `current` with a strong tag (a weak tag never matches: the comparison is strong).
 */
export function ifMatchAllows(header: string, current: string | undefined): boolean {
  if (header.split(',').some((part) => part.trim() === '*')) return true;
  if (current === undefined) return false;
  for (const [, weak, opaque] of header.matchAll(TAG)) if (!weak && `"${opaque}"` === current) return true;
  return false;
}

/**
 * Optimistic concurrency for a route whose manifest declares `etag.if_match`: the handler reads
 * the resource (for update) and calls this with its current version before changing it. No
 * If-Match (or an empty one) means "whatever is current"; one that does not name the current
 * version is a 412 `precondition_failed`, so a client that read an older version reads again
 * instead of overwriting a change it never saw. `resource` names it in the message
 * (`Thing "a"`); the version's name is the manifest's `etag.field`.
 */
export function ifMatch(call: Call, version: unknown, resource = 'The resource'): void {
  const declared = call.route.decl.etag;
  if (!declared?.if_match)
    throw new Error(
      `operation ${call.route.decl.operation} checks If-Match, but its manifest does not declare etag.if_match`,
    );
  const header = call.headers[IF_MATCH_HEADER];
  if (header === undefined || header.trim() === '') return;
  const current = entityTag(version);
  if (ifMatchAllows(header, current)) return;
  const shown = current ?? String(version);
  throw new ApiError(
    'precondition_failed',
    `${resource} is at ${declared.field} ${String(version)} (ETag ${shown}), not ${header.slice(0, 100)}; read it again and retry.`,
    { details: [{ in: 'headers', pointer: '/if-match', message: `does not match the current ETag ${shown}` }] },
  );
}

/**
 * The ETag of a route that declares `etag`: on each successful reply whose body carries the
 * declared version field, the kernel sends that version as a strong entity tag, so no handler
 * sets the header itself. It sits next to the handler, inside the idempotency step, so a stored
 * response replays with the ETag it was first sent with, and a dry run reports it.
 */
export const entityTagStep: StepFactory = (route) => {
  const field = route.decl.etag?.field;
  if (field === undefined || !route.schemas.response || isStreaming(route.decl)) return null;
  return async (_call, next) => {
    const reply = await next();
    if (reply.status < 200 || reply.status >= 300 || reply.headers?.[ETAG_HEADER] !== undefined) return reply;
    const body = reply.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body) || Buffer.isBuffer(body)) return reply;
    const tag = entityTag((body as Record<string, unknown>)[field]);
    if (tag === undefined) return reply;
    return { ...reply, headers: { ...(reply.headers ?? {}), [ETAG_HEADER]: tag } };
  };
};
