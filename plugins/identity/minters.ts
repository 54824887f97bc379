import { ApiError } from '../../kernel/errors.js';
import type { Call, Principal } from '../../kernel/types.js';
import { invalidCredential } from './authenticators/credentials.js';
import type { IdentityDeps } from './deps.js';
import { minterOfToken, type ApiTokenLookup, type Minter } from './store/api-tokens.js';

/**
 * The credential id of a principal signed in through a provider from configuration. Tenant
 * providers keep their bare id (a tenant provider's id never holds `:`), so the two sources
 * never share an id and a token minted with either knows which one it lives by.
 */
export const CONFIGURED_PROVIDER_PREFIX = 'config:';

/** The break-glass key's fingerprint kept with the tokens it mints: part of its SHA-256, never the key. */
export function breakGlassFingerprint(keyHash: string): string {
  return keyHash.slice(0, 16);
}

/** The account a token minted by this call's caller lives by (see Minter). */
export async function minterOf(call: Call & { principal: Principal }, deps: IdentityDeps): Promise<Minter> {
  const { principal } = call;
  const { kind, id } = principal.credential;
  switch (kind) {
    case 'session':
      return { kind: 'user', tenantId: principal.tenantId, id: principal.subjectId };
    case 'api_token': {
      const parent = await minterOfToken(call.db, principal.tenantId, id);
      if (!parent) throw invalidCredential('The API token is expired or revoked.');
      return parent;
    }
    case 'oidc':
      return id.startsWith(CONFIGURED_PROVIDER_PREFIX)
        ? { kind: 'config_provider', tenantId: null, id: id.slice(CONFIGURED_PROVIDER_PREFIX.length) }
        : { kind: 'provider', tenantId: principal.tenantId, id };
    case 'break_glass':
      if (!deps.settings.breakGlass) throw invalidCredential('The break-glass key is not configured.');
      return { kind: 'break_glass', tenantId: null, id: breakGlassFingerprint(deps.settings.breakGlass.keyHash) };
    case 'local':
    case 'maintenance':
      // Without authenticators every caller is the local admin, and an operator's command acts as
      // no account: neither leaves an account for a token to live by.
      throw new ApiError('bad_request', 'API tokens are minted by a signed-in account; this caller is not one.');
  }
}

/** Whether the account a token lives by still vouches for it (read with the token in one query). */
export function minterVouches(row: ApiTokenLookup, deps: IdentityDeps): boolean {
  switch (row.minter_kind) {
    case 'user':
      return row.minter_user_disabled === false;
    case 'provider':
      return row.minter_provider_enabled === true;
    case 'config_provider':
      return row.minter_id !== null && deps.settings.providers.some((p) => p.id === row.minter_id);
    case 'break_glass':
      // Tokens minted before fingerprints were kept (no fingerprint) live while a key is configured.
      return (
        deps.settings.breakGlass !== null &&
        (row.minter_id === null || row.minter_id === breakGlassFingerprint(deps.settings.breakGlass.keyHash))
      );
    default:
      return false;
  }
}
