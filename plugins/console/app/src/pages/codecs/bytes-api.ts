import { withCsrf } from '../../api/client';
import { ApiError, toApiError } from '../../api/errors';
import { actingTenant } from '../../auth/tenant';

function tenantQuery(): string {
  const tenant = actingTenant();
  return tenant ? `?tenant_id=${encodeURIComponent(tenant)}` : '';
}

async function send(path: string, init: RequestInit): Promise<Response> {
  const response = await fetch(path, {
    credentials: 'same-origin',
    ...init,
    headers: withCsrf('POST', new Headers(init.headers)),
  }).catch((err: Error) => {
    throw new ApiError(0, 'network_error', err.message);
  });
  if (!response.ok) throw toApiError(response, await response.json().catch(() => undefined));
  return response;
}

/** Encodes a JSON value with a codec; the answer is the bytes (application/octet-stream). */
export async function encodeValue(codecId: string, value: unknown): Promise<Uint8Array> {
  const tenant = actingTenant();
  const response = await send(`/codecs/${encodeURIComponent(codecId)}/encode`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ value, ...(tenant ? { tenant_id: tenant } : {}) }),
  });
  return new Uint8Array(await response.arrayBuffer());
}

/** Decodes bytes with a codec into its JSON value. */
export async function decodeBytes(codecId: string, bytes: Uint8Array): Promise<unknown> {
  const response = await send(`/codecs/${encodeURIComponent(codecId)}/decode${tenantQuery()}`, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream' },
    body: bytes as unknown as BodyInit,
  });
  return ((await response.json()) as { value: unknown }).value;
}

/** Bytes from hex text ("0a ff 10") — spaces and newlines ignored. */
export function parseHex(text: string): Uint8Array | null {
  const clean = text.replace(/\s+/g, '');
  if (clean.length % 2 !== 0 || /[^0-9a-f]/i.test(clean)) return null;
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(clean.slice(i * 2, i * 2 + 2), 16);
  return out;
}
