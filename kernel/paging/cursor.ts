import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Opaque keyset cursors. A cursor carries only the paging-key values of the last row served;
 * its HMAC also covers a scope the server recomputes on every request (route, tenant, filters),
 * so a cursor edited by the client, or presented for another tenant or other filters, fails
 * the check instead of silently restarting or leaking another list.
 *
 * Form: base64url(JSON of the key values) "." base64url(first 16 bytes of HMAC-SHA256).
 */
export interface CursorCodec {
  encode(scope: string, values: readonly unknown[]): string;
  /** The key values, or null when the cursor is malformed, edited or from another scope. */
  decode(scope: string, cursor: string): unknown[] | null;
}

const TAG_BYTES = 16;
const SHAPE = /^[A-Za-z0-9_-]{1,2000}\.[A-Za-z0-9_-]{22}$/;

function isKeyValue(value: unknown): boolean {
  return (
    value === null ||
    typeof value === 'string' ||
    (typeof value === 'number' && Number.isFinite(value)) ||
    typeof value === 'boolean'
  );
}

export function createCursorCodec(key: Buffer): CursorCodec {
  const tag = (scope: string, payload: string): Buffer =>
    createHmac('sha256', key).update(scope).update('\n').update(payload).digest().subarray(0, TAG_BYTES);
  return {
    encode(scope, values) {
      const payload = Buffer.from(JSON.stringify(values)).toString('base64url');
      return `${payload}.${tag(scope, payload).toString('base64url')}`;
    },
    decode(scope, cursor) {
      if (!SHAPE.test(cursor)) return null;
      const [payload, mac] = cursor.split('.') as [string, string];
      const given = Buffer.from(mac, 'base64url');
      // base64url has several spellings of the same bytes (unused low bits); only ours is accepted.
      if (given.toString('base64url') !== mac) return null;
      if (given.length !== TAG_BYTES || !timingSafeEqual(given, tag(scope, payload))) return null;
      let values: unknown;
      const bytes = Buffer.from(payload, 'base64url');
      if (bytes.toString('base64url') !== payload) return null;
      try {
        values = JSON.parse(bytes.toString('utf8'));
      } catch {
        return null;
      }
      return Array.isArray(values) && values.every(isKeyValue) ? values : null;
    },
  };
}
