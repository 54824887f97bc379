import type { RuntimeMessage } from '../components/contract.js';

/** The bytes a sink sends for a message: its raw body, or its value as JSON. */
export function payloadOf(message: RuntimeMessage): { bytes: Buffer; contentType: string } {
  if (message.value !== undefined)
    return { bytes: Buffer.from(JSON.stringify(message.value), 'utf8'), contentType: 'application/json' };
  if (message.body !== undefined)
    return { bytes: Buffer.from(message.body), contentType: message.content_type ?? 'application/octet-stream' };
  return { bytes: Buffer.alloc(0), contentType: message.content_type ?? 'application/octet-stream' };
}

/** Header values as text (brokers hand over numbers, buffers, arrays). */
export function textHeaders(input: Record<string, unknown> | undefined | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(input ?? {})) {
    if (value === undefined || value === null) continue;
    out[name.toLowerCase()] = Buffer.isBuffer(value)
      ? value.toString('utf8')
      : typeof value === 'string'
        ? value
        : JSON.stringify(value);
    if (Object.keys(out).length >= 64) break;
  }
  return out;
}

/** Races a promise against a deadline, naming what timed out. */
export async function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>(
        (_, reject) => (timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms)),
      ),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
