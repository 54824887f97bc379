import { ApiError } from '../errors.js';
import { createCursorCodec, type CursorCodec } from './cursor.js';
import { cursorScope, filterFields } from './scope.js';
import { ACCOUNT_WIDE } from '../tenancy/scope.js';
import type { Reply, StepFactory } from '../types.js';

export const NEXT_CURSOR_HEADER = 'X-Next-Cursor';

function limitOf(raw: unknown, fallback: number, ceiling: number): number {
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : fallback;
  return Math.max(1, Math.min(Number.isInteger(n) ? n : fallback, ceiling));
}

/**
 * Cursor paging from the manifest's policy (spec §4). Before the handler: `?limit=` clamped
 * to the ceiling and `?cursor=` verified into a keyset position (`call.page`). After it: the
 * `items` beyond the limit are dropped and the next cursor, naming the last item served, goes
 * in `X-Next-Cursor` or the body's `next_cursor`. No cursor means the list has ended.
 */
export const pagingStep: StepFactory = (route, kernel) => {
  const policy = route.decl.paging;
  if (!policy) return null;
  const fields = filterFields(route);
  // The key was loaded at boot, so awaiting it here never touches the database.
  let codec: CursorCodec | undefined;
  const codecReady = kernel.secrets.key('cursor').then((key) => (codec = createCursorCodec(key)));

  return async (call, next) => {
    const cursors = codec ?? (await codecReady);
    const limit = limitOf(call.query.limit, policy.default_limit, policy.max_limit);
    const scope = cursorScope(route, fields, call);
    // Account-wide pages are ordered by tenant first (tenancy/account-wide.ts), so their
    // cursors name the tenant of the last row before the route's own key.
    const key = call.tenantId === ACCOUNT_WIDE ? ['tenant_id', ...policy.key] : policy.key;
    const raw = call.query.cursor;
    let after: unknown[] | undefined;
    if (raw !== undefined) {
      after = (typeof raw === 'string' ? cursors.decode(scope, raw) : null) ?? undefined;
      if (!after || after.length !== key.length) {
        throw new ApiError(
          'bad_request',
          'The cursor is not valid for this list: it is malformed, was changed, or belongs to another tenant or other filters. Start again without a cursor.',
          {
            details: [{ in: 'query', pointer: '/cursor', message: 'is not a cursor of this list' }],
          },
        );
      }
    }
    call.page = after ? { limit, fetch: limit + 1, after } : { limit, fetch: limit + 1 };

    const reply = await next();
    const body = reply.body as { items?: unknown[] } | undefined;
    if (reply.status !== 200 || !body || !Array.isArray(body.items)) return reply;
    const more = body.items.length > limit;
    const items = more ? body.items.slice(0, limit) : body.items;
    const last = items[items.length - 1] as Record<string, unknown> | undefined;
    const next_cursor =
      more && last
        ? cursors.encode(
            scope,
            key.map((k) => last[k] ?? null),
          )
        : undefined;
    if (policy.cursor_in === 'body') {
      const out: Reply = { ...reply, body: { ...body, items, ...(next_cursor ? { next_cursor } : {}) } };
      return out;
    }
    const headers = next_cursor ? { ...(reply.headers ?? {}), [NEXT_CURSOR_HEADER]: next_cursor } : reply.headers;
    return { ...reply, body: { ...body, items }, ...(headers ? { headers } : {}) };
  };
};
