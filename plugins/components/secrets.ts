import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** The name of the kernel key (kernel_secrets) that encrypts components' secret config fields. */
export const SECRET_KEY_NAME = 'components.config-secrets';

/**
 * Secret config fields at rest: AES-256-GCM under a kernel key (made once, shared by every
 * instance through `kernel_secrets`). `v1.<iv>.<tag>.<ciphertext>`, base64url. The tenant and
 * component id are the associated data, so a ciphertext copied onto another row does not open.
 */
export function seal(key: Buffer, values: Record<string, unknown>, where: { tenantId: string; id: string }): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(`${where.tenantId}\u001f${where.id}`));
  const body = Buffer.concat([cipher.update(JSON.stringify(values), 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join(
    '.',
  );
}

export function open(key: Buffer, sealed: string, where: { tenantId: string; id: string }): Record<string, unknown> {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('unknown secret format');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(`${where.tenantId}\u001f${where.id}`));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  const text = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  return JSON.parse(text) as Record<string, unknown>;
}
