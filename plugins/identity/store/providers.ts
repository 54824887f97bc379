import type { Knex } from 'knex';
import { isUniqueViolation } from '../../../kernel/db/errors.js';
import { ApiError } from '../../../kernel/errors.js';
import { iso } from '../time.js';

type Db = Knex | Knex.Transaction;

export interface ProviderRow {
  tenant_id: string;
  id: string;
  issuer: string;
  audience: string;
  subject_claim: string;
  tenant_claim: string | null;
  roles_claim: string;
  algorithms: string[];
  default_roles: string[];
  allow_insecure_http: boolean;
  enabled: boolean;
  created_at: Date | string;
  updated_at: Date | string;
}

export interface IdentityProvider {
  id: string;
  tenant_id: string;
  issuer: string;
  audience: string;
  claims: { subject: string; tenant?: string; roles: string };
  algorithms: string[];
  default_roles: string[];
  allow_insecure_http: boolean;
  enabled: boolean;
  created_at: string;
  updated_at: string;
}

export function toProvider(row: ProviderRow): IdentityProvider {
  return {
    id: row.id,
    tenant_id: row.tenant_id,
    issuer: row.issuer,
    audience: row.audience,
    claims: { subject: row.subject_claim, ...(row.tenant_claim ? { tenant: row.tenant_claim } : {}), roles: row.roles_claim },
    algorithms: row.algorithms,
    default_roles: row.default_roles,
    allow_insecure_http: row.allow_insecure_http,
    enabled: row.enabled,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/** API body fields → columns. */
export function providerColumns(body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (body.issuer !== undefined) out.issuer = body.issuer;
  if (body.audience !== undefined) out.audience = body.audience;
  if (body.algorithms !== undefined) out.algorithms = body.algorithms;
  if (body.default_roles !== undefined) out.default_roles = body.default_roles;
  if (body.allow_insecure_http !== undefined) out.allow_insecure_http = body.allow_insecure_http;
  if (body.enabled !== undefined) out.enabled = body.enabled;
  const claims = body.claims as { subject?: string; tenant?: string; roles?: string } | undefined;
  if (claims) {
    out.subject_claim = claims.subject ?? 'sub';
    out.tenant_claim = claims.tenant ?? null;
    out.roles_claim = claims.roles ?? 'roles';
  }
  return out;
}

export async function providersForIssuer(db: Db, issuer: string): Promise<ProviderRow[]> {
  return db('identity_providers').where({ issuer, enabled: true }).orderBy(['tenant_id', 'id']);
}

export async function listProviders(db: Db, tenantId: string, afterId: string | undefined, fetch: number): Promise<ProviderRow[]> {
  const query = db('identity_providers').where({ tenant_id: tenantId }).orderBy('id', 'asc').limit(fetch);
  if (afterId !== undefined) query.andWhere('id', '>', afterId);
  return query;
}

export async function getProvider(db: Db, tenantId: string, id: string): Promise<ProviderRow | undefined> {
  return db('identity_providers').where({ tenant_id: tenantId, id }).first();
}

export async function insertProvider(db: Db, tenantId: string, id: string, columns: Record<string, unknown>, now: Date): Promise<ProviderRow> {
  try {
    const [row] = await db('identity_providers').insert({ tenant_id: tenantId, id, ...columns, created_at: now, updated_at: now }).returning('*');
    return row as ProviderRow;
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError('duplicate_identifier', `An identity provider with id "${id}" already exists.`);
    throw err;
  }
}

export async function updateProvider(db: Db, tenantId: string, id: string, columns: Record<string, unknown>, now: Date): Promise<ProviderRow | undefined> {
  const [row] = await db('identity_providers').where({ tenant_id: tenantId, id }).update({ ...columns, updated_at: now }).returning('*');
  return row as ProviderRow | undefined;
}

// RETURNING: knex-pglite answers a bare DELETE with its raw result, not a row count.
export async function deleteProvider(db: Db, tenantId: string, id: string): Promise<boolean> {
  return (await db('identity_providers').where({ tenant_id: tenantId, id }).delete().returning('id')).length > 0;
}
