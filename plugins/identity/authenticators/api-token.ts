import type { Knex } from 'knex';
import { SharedReads } from '../../../kernel/plugin/api.js';
import type { Authenticator, Call, Principal } from '../../../kernel/types.js';
import type { IdentityDeps } from '../deps.js';
import { minterVouches } from '../minters.js';
import { findTokenByHash, tokenHoldsPart, touchToken, type ApiTokenLookup } from '../store/api-tokens.js';
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

/** Tokens remembered at most (the least recently checked go first). */
const REMEMBERED = 1000;

/** What a fresh check of a token found, kept for the calls that may confirm it in their own write. */
interface Kept {
  row: ApiTokenLookup;
  permissions: ReadonlySet<string>;
}

/** The token a call shows, if it shows one (Authorization: Bearer sk_… or X-API-Key). */
function presented(call: Call): string | undefined {
  const bearer = authorizationCredential(call.headers.authorization, 'Bearer');
  return bearer && hasPrefix(bearer, 'api_token') ? bearer : call.headers['x-api-key']?.trim();
}

/**
 * `Authorization: Bearer sk_…` or `X-API-Key: sk_…`; checked against the database every time,
 * together with the account the token lives by (one query): a token stops working as soon as
 * the user who minted it is disabled or deleted, or its provider is disabled or deleted. Requests
 * with one token that arrive together share that query, sent after the last of them arrived
 * (SharedReads), so each still sees every revocation committed before it came.
 *
 * A call whose writes the kernel combines into one statement needs no read at all once a check
 * of its token passed (`remembered`): the statement itself carries the check (tokenHoldsPart), so
 * what it writes commits only while the token holds, and a token that no longer does is read
 * afresh and refused. Only tokens whose roles are all built in are kept (a custom role's
 * permissions are read each time), and a token due for its last-used stamp is read afresh.
 */
export function apiTokenAuthenticator(deps: IdentityDeps): Authenticator {
  const kept = new Map<string, Kept>();
  const keep = (hash: string, entry: Kept): void => {
    kept.delete(hash);
    kept.set(hash, entry);
    if (kept.size > REMEMBERED) kept.delete(kept.keys().next().value as string);
  };
  const principalOf = (row: ApiTokenLookup, permissions: ReadonlySet<string>): Principal => ({
    subjectId: row.id,
    tenantId: row.tenant_id,
    credential: { kind: 'api_token', id: row.id },
    roles: [...row.roles],
    permissions,
    ...(row.read_only ? { readOnly: true } : {}),
  });
  const touchDue = (row: ApiTokenLookup, now: Date): boolean =>
    row.last_used_at === null || now.getTime() - new Date(row.last_used_at).getTime() > TOUCH_INTERVAL_MS;
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
      const token = presented(call);
      if (!token) return null;
      if (parseSecret(token) !== 'api_token') throw invalidCredential('The API token is malformed.');
      const hash = hashSecret(token);
      // Whatever this check finds replaces what was kept: a refused token is forgotten.
      kept.delete(hash);
      let row = await lookUp(call.db, hash);
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
      if (touchDue(row, now)) {
        await touchToken(call.db, row.tenant_id, row.id, now);
        row = { ...row, last_used_at: now };
      }
      const permissions = await deps.roles.permissionsOf(call.db, row.tenant_id, row.roles);
      if (row.roles.every((role) => deps.roles.isBuiltIn(role))) keep(hash, { row, permissions });
      return principalOf(row, permissions);
    },
    remembered(call) {
      const token = presented(call);
      if (!token || parseSecret(token) !== 'api_token') return null;
      const hash = hashSecret(token);
      const entry = kept.get(hash);
      if (!entry) return null;
      const { row } = entry;
      const now = deps.clock.now();
      // Expiry, a minter from configuration and the last-used stamp are decided here, as a fresh check would.
      if (
        (row.expires_at !== null && new Date(row.expires_at) <= now) ||
        !minterVouches(row, deps) ||
        touchDue(row, now)
      ) {
        kept.delete(hash);
        return null;
      }
      return {
        principal: principalOf(row, entry.permissions),
        confirmIn(write, options) {
          const { sql, bindings } = tokenHoldsPart(row);
          write.add('api_token', sql, bindings, options);
        },
      };
    },
  };
}
