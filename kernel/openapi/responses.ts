import { rewriteRefs } from '../manifest/compile.js';
import type { CompiledRoute } from '../types.js';

export const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  302: 'Found: follow the Location header',
  400: 'Bad request',
  401: 'Missing or invalid credential',
  403: 'Permission denied',
  404: 'Not found, or in another tenant',
  405: 'Method not allowed',
  409: 'Conflict',
  412: 'Precondition failed',
  413: 'Body too large',
  415: 'Unsupported media type',
  422: 'Rejected by policy',
  429: 'Too many requests',
  500: 'Internal error',
  501: 'Not configured',
  503: 'Unavailable',
};

const DRY_RUN_REF = '#/components/schemas/DryRunReport';

/** One way a route can succeed; several on the same status are merged into one response. */
interface Success {
  description: string;
  contentType?: string;
  schema?: unknown;
  headers?: Record<string, unknown>;
}

function successes(route: CompiledRoute, ref: (r: string) => string): Map<number, Success[]> {
  const { decl } = route;
  const out = new Map<number, Success[]>();
  const add = (status: number, success: Success): void => {
    out.set(status, [...(out.get(status) ?? []), success]);
  };
  const headers: Record<string, unknown> = {};
  if (decl.paging?.cursor_in === 'header')
    headers['X-Next-Cursor'] = {
      description: 'Cursor of the next page; absent on the last page.',
      schema: { type: 'string' },
    };
  if (route.idempotency !== 'none')
    headers['Idempotent-Replayed'] = {
      description: 'true when this is a stored response replayed for a reused key.',
      schema: { type: 'string' },
    };
  if (decl.etag && route.schemas.response)
    headers.ETag = {
      description: `The ${decl.etag.field} of the resource, quoted: send it back in If-Match to change this version only.`,
      schema: { type: 'string' },
    };
  add(decl.response.status, {
    description: STATUS_TEXT[decl.response.status] ?? 'Success',
    ...(route.schemas.response
      ? {
          contentType: decl.response.content_type ?? 'application/json',
          schema: rewriteRefs(route.schemas.response, ref),
        }
      : {}),
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
  });
  for (const alternative of decl.response.alternatives ?? [])
    add(alternative.status, { description: alternative.description });
  if (route.dryRunAllowed) {
    add(200, {
      description: 'Dry run (dry_run=true): the report of what the call would have done; nothing was kept',
      contentType: 'application/json',
      schema: { $ref: DRY_RUN_REF },
    });
  }
  return out;
}

/** Merges the successes sharing a status: descriptions joined, bodies as anyOf per media type. */
function merge(list: readonly Success[]): Record<string, unknown> {
  const response: Record<string, unknown> = { description: list.map((s) => s.description).join('. Or: ') };
  const content = new Map<string, unknown[]>();
  for (const s of list)
    if (s.contentType) content.set(s.contentType, [...(content.get(s.contentType) ?? []), s.schema]);
  if (content.size > 0) {
    response.content = Object.fromEntries(
      [...content].map(([type, schemas]) => [type, { schema: schemas.length === 1 ? schemas[0] : { anyOf: schemas } }]),
    );
  }
  const headers = Object.assign({}, ...list.map((s) => s.headers ?? {})) as Record<string, unknown>;
  if (Object.keys(headers).length > 0) response.headers = headers;
  return response;
}

/** The responses of an operation: its successes (with the dry-run report) and its error statuses. */
export function operationResponses(
  route: CompiledRoute,
  errors: readonly number[],
  ref: (r: string) => string,
): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  for (const [status, list] of [...successes(route, ref)].sort(([a], [b]) => a - b))
    responses[String(status)] = merge(list);
  for (const status of errors) responses[String(status)] = { $ref: `#/components/responses/Error${status}` };
  return responses;
}

const RETRY_AFTER = { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'string' } } };
/** Statuses the kernel answers with Retry-After: a key still in flight, back-off, a dependency down. */
const RETRYABLE = new Set([409, 429, 503]);

/** The shared error response of each status in use, naming the error codes it carries. */
export function errorResponseComponents(
  statuses: Iterable<number>,
  catalogue: ReadonlyArray<{ code: string; status: number }>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const status of [...new Set(statuses)].sort((a, b) => a - b)) {
    const codes = catalogue.filter((e) => e.status === status).map((e) => e.code);
    const text = STATUS_TEXT[status] ?? 'Error';
    out[`Error${status}`] = {
      description: codes.length > 0 ? `${text} (${codes.join(', ')})` : text,
      ...(RETRYABLE.has(status) ? { headers: RETRY_AFTER } : {}),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  return out;
}
