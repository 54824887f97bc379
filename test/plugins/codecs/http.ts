import type { HttpResult, TestKernel } from '../../support/kernel.js';

export interface EncodeResult {
  status: number;
  contentType: string | null;
  /** The response bytes (the encoded value on 200). */
  bytes: Buffer;
  /** The parsed error body on a refusal. */
  body: any;
}

function tokenHeaders(token: string | undefined): Record<string, string> {
  return token ? { authorization: `Bearer ${token}` } : {};
}

/** POST /codecs/{id}/encode, reading the reply as bytes (the shared helper reads text, which would mangle them). */
export async function encode(
  tk: TestKernel,
  id: string,
  value: unknown,
  options: { token?: string; query?: string } = {},
): Promise<EncodeResult> {
  const response = await fetch(`${tk.url}/codecs/${id}/encode${options.query ?? ''}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...tokenHeaders(options.token) },
    body: JSON.stringify({ value }),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  const contentType = response.headers.get('content-type');
  return {
    status: response.status,
    contentType,
    bytes,
    body: contentType?.startsWith('application/json') ? JSON.parse(bytes.toString('utf8')) : undefined,
  };
}

/** POST /codecs/{id}/decode with the bytes as application/octet-stream. */
export function decode(
  tk: TestKernel,
  id: string,
  bytes: Uint8Array,
  options: { token?: string; query?: string } = {},
): Promise<HttpResult> {
  return tk.request('POST', `/codecs/${id}/decode${options.query ?? ''}`, {
    raw: Buffer.from(bytes),
    contentType: 'application/octet-stream',
    ...(options.token ? { token: options.token } : {}),
  });
}
