import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/** What an incoming X-Request-Id may look like to be kept. */
export const ACCEPTABLE = /^[A-Za-z0-9._:-]{1,128}$/;

/** A sane incoming X-Request-Id, kept, or a new one; app.ts echoes it on the response. */
export function requestIdOf(headers: IncomingHttpHeaders): string {
  const incoming = headers['x-request-id'];
  return typeof incoming === 'string' && ACCEPTABLE.test(incoming) ? incoming : randomUUID();
}
