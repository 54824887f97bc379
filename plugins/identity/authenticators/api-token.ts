import type { Knex } from 'knex';
import { SharedReads } from '../../../kernel/plugin/api.js';
import type { Authenticator } from '../../../kernel/types.js';
import type { IdentityDeps } from '../deps.js';
import { minterVouches } from '../minters.js';
import { findTokenByHash, touchToken, type ApiTokenLookup } from '../store/api-tokens.js';
import { hashSecret, hasPrefix, parseSecret, sameHash } from '../tokens/format.js';
import { authorizationCredential, invalidCredential } from './credentials.js';
import { heldApiTokens } from './held.js';

/** last_used_at is written at most this often per token, so reads stay one query. */
const TOUCH_INTERVAL_MS = 60_000;

/** Lookups of one token by requests that arrive together, made once (per database). */
const lookups = new WeakMap<Knex | Knex.Transaction, SharedReads<string, ApiTokenLookup | undefined>>();

function lookUp(db: Knex | Knex.Transaction, hash: string): Promise<ApiTokenLookup | undefined> {
  let shared = lookups.get(db);
  if (!shared) lookups.set(db, (shared = new SharedReads()));
  return shared.read(hash, () => findTokenByHash(db, hash));
}

/**
 * `Authorization: Bearer sk_…` or `X-API-Key: sk_…`; checked against the database every time,
 * together with the account the token lives by (one query): a token stops working as soon as
 * the user who minted it is disabled or deleted, or its provider is disabled or deleted. Requests
 * with one token that arrive together share that query, sent after the last of them arrived
 * (SharedReads), so each still sees every revocation committed before it came.
 */
export function apiTokenAuthenticator(deps: IdentityDeps): Authenticator {
  return {
    ...heldApiTokens(deps),
    name: 'api_token',
    securitySchemes: {
      apiToken: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'sk_…',
        description: 'API token from POST /api-tokens.',
      },
      apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'API token (sk_…) in a header.' },
    },
    async authenticate(call) {
      const bearer = authorizationCredential(call.headers.authorization, 'Bearer');
      const token = bearer && hasPrefix(bearer, 'api_token') ? bearer : call.headers['x-api-key']?.trim();
      if (!token) return null;
      if (parseSecret(token) !== 'api_token') throw invalidCredential('The API token is malformed.');
      const hash = hashSecret(token);
      const row = await lookUp(call.db, hash);
      const now = deps.clock.now();
      if (
        !row ||
        !sameHash(row.secret_hash, hash) ||
        row.revoked_at !== null ||
        (row.expires_at !== null && new Date(row.expires_at) <= now)
      ) {
        throw invalidCredential('The API token is expired or revoked.');
      }
      if (!minterVouches(row, deps))
        throw invalidCredential('The account that minted this API token is disabled or gone.');
      if (row.last_used_at === null || now.getTime() - new Date(row.last_used_at).getTime() > TOUCH_INTERVAL_MS) {
        await touchToken(call.db, row.tenant_id, row.id, now);
      }
      return {
        subjectId: row.id,
        tenantId: row.tenant_id,
        credential: { kind: 'api_token', id: row.id },
        roles: [...row.roles],
        permissions: await deps.roles.permissionsOf(call.db, row.tenant_id, row.roles),
        ...(row.read_only ? { readOnly: true } : {}),
      };
    },
  };
}
