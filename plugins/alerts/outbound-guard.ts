import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { ApiError } from '../../kernel/errors.js';

/** Addresses a webhook must not reach unless the operator allows it: loopback, private, link-local, unspecified, multicast. */
export function isPrivateAddress(address: string): boolean {
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (isIP(v4) === 4) {
    const [a = 0, b = 0] = v4.split('.').map(Number);
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      a >= 224
    );
  }
  const v6 = address.toLowerCase();
  return (
    v6 === '::' ||
    v6 === '::1' ||
    v6.startsWith('fc') ||
    v6.startsWith('fd') ||
    v6.startsWith('fe80') ||
    v6.startsWith('ff')
  );
}

/** Loopback addresses (127/8, ::1, and their IPv4-mapped form): this machine. */
export function isLoopbackAddress(address: string): boolean {
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (isIP(v4) === 4) return v4.startsWith('127.');
  return address.toLowerCase() === '::1';
}

/**
 * Which non-public targets webhooks may reach: `loopback` (this machine: on in the local
 * profile, for trying alerts against a receiver on the same laptop) and `private` (every
 * loopback, private, link-local address). `true`/`false` stand for all or none.
 */
export type WebhookAllowance = boolean | { loopback: boolean; private: boolean };

function permits(allow: WebhookAllowance, address: string): boolean {
  if (typeof allow === 'boolean') return allow;
  return allow.private || (allow.loopback && isLoopbackAddress(address));
}

function refusal(url: string, why: string): ApiError {
  return new ApiError('validation_error', `Webhook ${url} is refused: ${why}.`, {
    details: [{ in: 'body', pointer: '/notify', message: why }],
  });
}

/** Checks a webhook URL's shape, and its host when it is a literal address (at rule write time). */
export function checkWebhookUrl(raw: string, allow: WebhookAllowance): void {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refusal(raw, 'not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refusal(raw, 'only http and https are allowed');
  if (url.username || url.password) throw refusal(raw, 'credentials in the URL are not allowed');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const literal = host === 'localhost' ? '127.0.0.1' : isIP(host) !== 0 ? host : undefined;
  if (literal !== undefined && isPrivateAddress(literal) && !permits(allow, literal))
    throw refusal(raw, 'it points at a loopback or private address');
}

/** Resolves the host at send time and refuses private targets (a name may resolve anywhere). */
export async function assertPublicTarget(raw: string, allow: WebhookAllowance): Promise<void> {
  if (allow === true) return;
  const host = new URL(raw).hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) !== 0 ? [{ address: host }] : await lookup(host, { all: true });
  const bad = addresses.find((a) => isPrivateAddress(a.address) && !permits(allow, a.address));
  if (bad) throw new Error(`${host} resolves to ${bad.address}, a loopback or private address`);
}
