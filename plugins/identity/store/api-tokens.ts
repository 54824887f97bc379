import type { Knex } from 'knex';
import { hashSecret, newRecordId, newSecret } from '../tokens/format.js';
import { iso, isoOrNull } from '../time.js';

type Db = Knex | Knex.Transaction;

/**
 * The account an API token lives by ("tokens die with their minter's account"): the token is
 * refused once that account is gone or disabled, and revoked when it is deleted.
 * - `user`: minted with a user's session, or with a token that itself lives by that user (a
 *   chain of tokens ends at the account that started it, so a token cannot outlive its user by
 *   minting a successor);
 * - `provider`: minted with a JWT of a tenant's identity provider; the external subject has no
 *   account here, so the token lives as long as that provider is registered and enabled;
 * - `config_provider`: the same for a provider from configuration (`id` is its configured id);
 * - `break_glass`: minted with the break-glass key; `id` is a fingerprint of the key, so
 *   rotating or removing the key ends the tokens minted with it.
 */
export interface Minter {
  kind: 'user' | 'provider' | 'config_provider' | 'break_glass';
  /** Tenant of the user or provider; null for configuration and the break-glass key. */
  tenantId: string | null;
  /** Null only for break-glass tokens minted before fingerprints were kept (migration 002). */
  id: string | null;
}

export interface ApiTokenRow {
  tenant_id: string;
  id: string;
  name: string;
  secret_hash: string;
  roles: string[];
  read_only: boolean;
  expires_at: Date | string | null;
  revoked_at: Date | string | null;
  created_by: string;
  created_at: Date | string;
  last_used_at: Date | string | null;
  minter_kind: Minter['kind'];
  minter_tenant_id: string | null;
  minter_id: string | null;
}

/** A token row with the state of the account it lives by, read in the same query. */
export interface ApiTokenLookup extends ApiTokenRow {
  /** Null when the minting user no longer exists (or the token does not live by a user). */
  minter_user_disabled: boolean | null;
  /** Null when the minting provider no longer exists (or the token does not live by one). */
  minter_provider_enabled: boolean | null;
}

/** A token record as the API shows it; the secret is never part of it. */
export interface ApiToken {
  id: string;
  tenant_id: string;
  name: string;
  roles: string[];
  read_only: boolean;
  revoked: boolean;
  expires_at: string | null;
  created_at: string;
  created_by: string;
  last_used_at: string | null;
}

export function toApiToken(row: ApiTokenRow): ApiToken {
  return {
    id: row.id,
    tenant_id: row.tenant_id,
    name: row.name,
    roles: row.roles,
    read_only: row.read_only,
    revoked: row.revoked_at !== null,
    expires_at: isoOrNull(row.expires_at),
    created_at: iso(row.created_at),
    created_by: row.created_by,
    last_used_at: isoOrNull(row.last_used_at),
  };
}

export async function mintToken(
  db: Db,
  tenantId: string,
  input: {
    name: string;
    roles: string[];
    readOnly: boolean;
    expiresAt: Date | null;
    createdBy: string;
    minter: Minter;
  },
  now: Date,
): Promise<{ secret: string; token: ApiToken }> {
  const secret = newSecret('api_token');
  const [row] = (await db('identity_api_tokens')
    .insert({
      tenant_id: tenantId,
      id: newRecordId('tok'),
      name: input.name,
      secret_hash: hashSecret(secret),
      roles: input.roles,
      read_only: input.readOnly,
      expires_at: input.expiresAt,
      created_by: input.createdBy,
      minter_kind: input.minter.kind,
      minter_tenant_id: input.minter.tenantId,
      minter_id: input.minter.id,
      created_at: now,
    })
    .returning('*')) as ApiTokenRow[];
  return { secret, token: toApiToken(row as ApiTokenRow) };
}

/**
 * The token of a secret hash with its minter's state: one query, the token found by its unique
 * hash and the user or provider by primary key.
 */
export async function findTokenByHash(db: Db, hash: string): Promise<ApiTokenLookup | undefined> {
  return db('identity_api_tokens as t')
    .leftJoin('identity_users as u', function joinUser() {
      this.on('t.minter_kind', '=', db.raw('?', ['user']))
        .andOn('u.tenant_id', '=', 't.minter_tenant_id')
        .andOn('u.id', '=', 't.minter_id');
    })
    .leftJoin('identity_providers as p', function joinProvider() {
      this.on('t.minter_kind', '=', db.raw('?', ['provider']))
        .andOn('p.tenant_id', '=', 't.minter_tenant_id')
        .andOn('p.id', '=', 't.minter_id');
    })
    .where('t.secret_hash', hash)
    .first('t.*', 'u.disabled as minter_user_disabled', 'p.enabled as minter_provider_enabled');
}

/** The part of tokenHoldsPart that asks after the account the token lives by: none for configuration and the break-glass key. */
function minterHolds(row: ApiTokenRow): { sql: string; bindings: Knex.RawBinding[] } {
  switch (row.minter_kind) {
    case 'user':
      return {
        sql: ' AND EXISTS (SELECT 1 FROM identity_users AS u WHERE u.tenant_id = ?::text AND u.id = ?::text AND u.disabled IS FALSE)',
        bindings: [row.minter_tenant_id, row.minter_id],
      };
    case 'provider':
      return {
        sql: ' AND EXISTS (SELECT 1 FROM identity_providers AS p WHERE p.tenant_id = ?::text AND p.id = ?::text AND p.enabled IS TRUE)',
        bindings: [row.minter_tenant_id, row.minter_id],
      };
    default:
      return { sql: '', bindings: [] };
  }
}

/**
 * A SELECT, as a part of a combined write, that returns a row only while the token still holds:
 * there, not revoked, and the user or provider it lives by (when it lives by one) still there and
 * enabled — the checks the authenticator makes in code on findTokenByHash's row, made by the
 * database in the statement that writes on the token's word. The token is found by its primary
 * key and its minter by its own: a token's secret, minter, roles and expiry never change once it
 * is minted (the authenticator checks the expiry against its clock), so the part is as cheap to
 * plan as a read can be, and the same for every call made with the token.
 */
export function tokenHoldsPart(row: ApiTokenRow): { sql: string; bindings: Knex.RawBinding[] } {
  const minter = minterHolds(row);
  return {
    sql: `SELECT 1 FROM identity_api_tokens AS t WHERE t.tenant_id = ?::text AND t.id = ?::text AND t.revoked_at IS NULL${minter.sql}`,
    bindings: [row.tenant_id, row.id, ...minter.bindings],
  };
}

/** The minter of a token, for a token minted with it (the child lives by the same account). */
export async function minterOfToken(db: Db, tenantId: string, id: string): Promise<Minter | undefined> {
  const row = (await db('identity_api_tokens')
    .where({ tenant_id: tenantId, id })
    .first('minter_kind', 'minter_tenant_id', 'minter_id')) as
    | Pick<ApiTokenRow, 'minter_kind' | 'minter_tenant_id' | 'minter_id'>
    | undefined;
  return row ? { kind: row.minter_kind, tenantId: row.minter_tenant_id, id: row.minter_id } : undefined;
}

/** Revokes every token that lives by a user or provider being deleted; the number revoked. */
export async function revokeTokensOf(db: Db, minter: Minter, now: Date): Promise<number> {
  return db('identity_api_tokens')
    .where({ minter_kind: minter.kind, minter_tenant_id: minter.tenantId, minter_id: minter.id })
    .whereNull('revoked_at')
    .update({ revoked_at: now });
}

export async function listTokens(
  db: Db,
  tenantId: string,
  afterId: string | undefined,
  fetch: number,
): Promise<ApiToken[]> {
  const query = db('identity_api_tokens').where({ tenant_id: tenantId }).orderBy('id', 'asc').limit(fetch);
  if (afterId !== undefined) query.andWhere('id', '>', afterId);
  return ((await query) as ApiTokenRow[]).map(toApiToken);
}

/** Marks a token revoked; revoking twice keeps the first time. Null when no such token. */
export async function revokeToken(db: Db, tenantId: string, id: string, now: Date): Promise<ApiTokenRow | undefined> {
  const existing = (await db('identity_api_tokens').where({ tenant_id: tenantId, id }).first()) as
    | ApiTokenRow
    | undefined;
  if (!existing) return undefined;
  if (existing.revoked_at === null)
    await db('identity_api_tokens')
      .where({ tenant_id: tenantId, id })
      .whereNull('revoked_at')
      .update({ revoked_at: now });
  return existing;
}

export async function touchToken(db: Db, tenantId: string, id: string, now: Date): Promise<void> {
  await db('identity_api_tokens').where({ tenant_id: tenantId, id }).update({ last_used_at: now });
}

/** API tokens that still hold at `now`: neither revoked nor expired. */
function liveTokens(db: Db, now: Date) {
  return db('identity_api_tokens')
    .whereNull('revoked_at')
    .where((q) => q.whereNull('expires_at').orWhere('expires_at', '>', now));
}

/** A held API token, if it still holds: its roles and whether it is read-only. */
export async function liveToken(
  db: Db,
  tenantId: string,
  id: string,
  now: Date,
): Promise<{ id: string; roles: string[]; read_only: boolean } | undefined> {
  return (await liveTokens(db, now).where({ tenant_id: tenantId, id }).first('id', 'roles', 'read_only')) as
    | { id: string; roles: string[]; read_only: boolean }
    | undefined;
}

/** The ids among these (tenant, token) pairs whose tokens still hold. */
export async function liveTokenIds(db: Db, pairs: Array<[string, string]>, now: Date): Promise<string[]> {
  const rows = (await liveTokens(db, now).whereIn(['tenant_id', 'id'], pairs).select('id')) as Array<{ id: string }>;
  return rows.map((r) => r.id);
}
