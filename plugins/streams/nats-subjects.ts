import type { StreamRef } from './backend.js';

/**
 * How runtime streams are named on the NATS server: one JetStream stream per runtime stream
 * (`RT_<tenant>_<uid>`) and one subject per partition (`rt.<tenant>.<uid>.<partition>`). The
 * uid, not the stream's id, is in the name, so a stream re-created under the same id never sees
 * the old one's messages.
 */

/** A subject token for a tenant id: as is when it only holds safe characters, hex otherwise. */
function token(text: string): string {
  return /^[A-Za-z0-9_-]{1,64}$/.test(text) ? text : `x${Buffer.from(text).toString('hex')}`;
}

export function jetStreamName(stream: Pick<StreamRef, 'tenantId' | 'uid'>): string {
  return `RT_${token(stream.tenantId)}_${stream.uid}`;
}

export function subject(stream: Pick<StreamRef, 'tenantId' | 'uid'>, partition: number | '*'): string {
  return `rt.${token(stream.tenantId)}.${stream.uid}.${partition}`;
}

/** Whether the server said the stream or message is not there (the client reports it several ways). */
export function isNotFound(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown; api_error?: { code?: number } };
  return (
    e?.code === '404' ||
    e?.code === 404 ||
    e?.api_error?.code === 404 ||
    (typeof e?.message === 'string' && /not found|no message/i.test(e.message))
  );
}
