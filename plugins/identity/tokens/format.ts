import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';

/**
 * Secret format, GitHub style: `<prefix>_<body><checksum>`. The body is 30 base62 characters
 * drawn uniformly (≈178 random bits); the checksum is the CRC32 of `<prefix>_<body>` written
 * as 6 base62 characters. A typo or a truncated paste fails the checksum, so it is refused
 * before any database read, and secret scanners can recognise our tokens by shape.
 */
export type SecretKind = 'session' | 'refresh' | 'api_token';

const PREFIXES: Record<SecretKind, string> = { session: 'sess', refresh: 'rt', api_token: 'sk' };
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BODY_LENGTH = 30;
const CHECKSUM_LENGTH = 6;
const SHAPE = new RegExp(`^(sess|rt|sk)_([0-9A-Za-z]{${BODY_LENGTH + CHECKSUM_LENGTH}})$`);

function base62(value: number, width: number): string {
  let out = '';
  let rest = value;
  for (let i = 0; i < width; i++) {
    out = ALPHABET[rest % 62] + out;
    rest = Math.floor(rest / 62);
  }
  return out;
}

function checksum(payload: string): string {
  return base62(crc32(payload), CHECKSUM_LENGTH);
}

/** A fresh secret of the given kind. */
export function newSecret(kind: SecretKind): string {
  let body = '';
  for (let i = 0; i < BODY_LENGTH; i++) body += ALPHABET[randomInt(62)];
  const payload = `${PREFIXES[kind]}_${body}`;
  return payload + checksum(payload);
}

/** The kind of a well-formed secret whose checksum holds, or null. Reads no database. */
export function parseSecret(value: string): SecretKind | null {
  const match = SHAPE.exec(value);
  if (!match) return null;
  const prefix = match[1] as string;
  const rest = match[2] as string;
  const payload = `${prefix}_${rest.slice(0, BODY_LENGTH)}`;
  if (checksum(payload) !== rest.slice(BODY_LENGTH)) return null;
  return (Object.keys(PREFIXES) as SecretKind[]).find((k) => PREFIXES[k] === prefix) ?? null;
}

/** Whether a value looks like one of our secrets by prefix (to decide which link of the chain owns it). */
export function hasPrefix(value: string, kind: SecretKind): boolean {
  return value.startsWith(`${PREFIXES[kind]}_`);
}

/** Only this hash is stored; secrets carry enough entropy that a fast hash is safe. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Constant-time comparison of two hex digests (a stored hash against a computed one). */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}

/** A short random id for records (sessions, tokens), safe in paths and slug-shaped. */
export function newRecordId(prefix: string): string {
  const lower = ALPHABET.slice(0, 36).toLowerCase();
  let out = '';
  for (let i = 0; i < 20; i++) out += lower[randomInt(36)];
  return `${prefix}-${out}`;
}
