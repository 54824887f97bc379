const STANDARD = /^[A-Za-z0-9+/]*={0,2}$/;
const URL_SAFE = /^[A-Za-z0-9_-]*={0,2}$/;

/**
 * Bytes from base64 (standard or URL-safe alphabet, padding optional), or undefined when the
 * text is not base64: Node's own decoder skips bad characters silently, which would turn a
 * typo into different bytes.
 */
export function parseBase64(text: string): Buffer | undefined {
  if (!STANDARD.test(text) && !URL_SAFE.test(text)) return undefined;
  const unpadded = text.replace(/=+$/, '');
  if (unpadded.length % 4 === 1) return undefined;
  if (unpadded.length !== text.length && text.length % 4 !== 0) return undefined;
  return Buffer.from(unpadded, 'base64');
}

/** Bytes as standard, padded base64: the form every decoded value uses. */
export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}
