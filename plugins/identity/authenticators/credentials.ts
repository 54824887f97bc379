import { ApiError } from '../../../kernel/errors.js';

/** The credential part of `Authorization: <scheme> <credential>` when the scheme matches. */
export function authorizationCredential(header: string | undefined, scheme: string): string | undefined {
  if (!header) return undefined;
  const space = header.indexOf(' ');
  if (space <= 0) return undefined;
  if (header.slice(0, space).toLowerCase() !== scheme.toLowerCase()) return undefined;
  const credential = header.slice(space + 1).trim();
  return credential.length > 0 ? credential : undefined;
}

/** The one refusal of a credential: the same code for malformed, unknown, expired and revoked. */
export function invalidCredential(message = 'The credential is not valid, or it expired or was revoked.'): ApiError {
  return new ApiError('invalid_credentials', message, {
    headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
  });
}
