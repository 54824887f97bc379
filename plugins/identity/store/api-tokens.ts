import type { Knex } from 'knex';
import { hashSecret, newRecordId, newSecret } from '../tokens/format.js';
import { iso, isoOrNull } from '../time.js';

type Db = Knex | Knex.Transaction;

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
  input: { name: string; roles: string[]; readOnly: boolean; expiresAt: Date | null; createdBy: string },
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
      created_at: now,
    })
    .returning('*')) as ApiTokenRow[];
  return { secret, token: toApiToken(row as ApiTokenRow) };
}

export async function findTokenByHash(db: Db, hash: string): Promise<ApiTokenRow | undefined> {
  return db('identity_api_tokens').where({ secret_hash: hash }).first();
}

export async function listTokens(db: Db, tenantId: string, afterId: string | undefined, fetch: number): Promise<ApiToken[]> {
  const query = db('identity_api_tokens').where({ tenant_id: tenantId }).orderBy('id', 'asc').limit(fetch);
  if (afterId !== undefined) query.andWhere('id', '>', afterId);
  return ((await query) as ApiTokenRow[]).map(toApiToken);
}

/** Marks a token revoked; revoking twice keeps the first time. Null when no such token. */
export async function revokeToken(db: Db, tenantId: string, id: string, now: Date): Promise<ApiTokenRow | undefined> {
  const existing = (await db('identity_api_tokens').where({ tenant_id: tenantId, id }).first()) as ApiTokenRow | undefined;
  if (!existing) return undefined;
  if (existing.revoked_at === null) await db('identity_api_tokens').where({ tenant_id: tenantId, id }).whereNull('revoked_at').update({ revoked_at: now });
  return existing;
}

export async function touchToken(db: Db, tenantId: string, id: string, now: Date): Promise<void> {
  await db('identity_api_tokens').where({ tenant_id: tenantId, id }).update({ last_used_at: now });
}
