import type { Knex } from 'knex';
import { isUniqueViolation } from '../../../kernel/plugin/api.js';
import { ApiError } from '../../../kernel/errors.js';
import type { IdentityProviderPatch } from '../generated/manifest-types.js';
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
  allowed_roles: string[];
  allow_insecure_http: boolean;
  enabled: boolean;
  browser_client_id: string | null;
  display_name: string | null;
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
  allowed_roles: string[];
  allow_insecure_http: boolean;
  enabled: boolean;
  browser_client_id: string | null;
  display_name: string | null;
  created_at: string;
  updated_at: string;
}

export function toProvider(row: ProviderRow): IdentityProvider {
  return {
    id: row.id,
    tenant_id: row.tenant_id,
    issuer: row.issuer,
    audience: row.audience,
    claims: {
      subject: row.subject_claim,
      ...(row.tenant_claim ? { tenant: row.tenant_claim } : {}),
      roles: row.roles_claim,
    },
    algorithms: row.algorithms,
    default_roles: row.default_roles,
    allowed_roles: row.allowed_roles,
    allow_insecure_http: row.allow_insecure_http,
    enabled: row.enabled,
    browser_client_id: row.browser_client_id ?? null,
    display_name: row.display_name ?? null,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/** API body fields → columns. */
export function providerColumns(body: IdentityProviderPatch): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (body.issuer !== undefined) out.issuer = body.issuer;
  if (body.audience !== undefined) out.audience = body.audience;
  if (body.algorithms !== undefined) out.algorithms = body.algorithms;
  if (body.default_roles !== undefined) out.default_roles = body.default_roles;
  if (body.allowed_roles !== undefined) out.allowed_roles = body.allowed_roles;
  if (body.allow_insecure_http !== undefined) out.allow_insecure_http = body.allow_insecure_http;
  if (body.enabled !== undefined) out.enabled = body.enabled;
  if (body.browser_client_id !== undefined) out.browser_client_id = body.browser_client_id;
  if (body.display_name !== undefined) out.display_name = body.display_name;
  const { claims } = body;
  if (claims) {
    out.subject_claim = claims.subject ?? 'sub';
    out.tenant_claim = claims.tenant ?? null;
    out.roles_claim = claims.roles ?? 'roles';
  }
  return out;
}

/** The unique index that gives each (issuer, audience) pair to one tenant (migration 002). */
const PAIR_INDEX = 'identity_providers_issuer_audience';

export function pairTaken(issuer: string, audience: string): ApiError {
  // Which tenant holds the pair is not said: that would tell one tenant about another.
  return new ApiError(
    'conflict',
    `The issuer ${issuer} with audience ${audience} is registered already (here, in another tenant or in the service's configuration); a pair belongs to one tenant.`,
    {
      details: [{ in: 'body', pointer: '/audience', message: 'this issuer and audience are taken' }],
    },
  );
}

/** Whether a tenant (other than `except`) registered this exact (issuer, audience) pair. */
export async function pairRegistered(
  db: Db,
  issuer: string,
  audience: string,
  except?: { tenantId: string; id: string },
): Promise<boolean> {
  const query = db('identity_providers').where({ issuer, audience });
  if (except) query.whereNot((q) => q.where({ tenant_id: except.tenantId, id: except.id }));
  return Boolean(await query.first('id'));
}

/** The enabled providers registered for the issuer and any of the token's audiences. */
export async function providersFor(db: Db, issuer: string, audiences: readonly string[]): Promise<ProviderRow[]> {
  if (audiences.length === 0) return [];
  return db('identity_providers')
    .where({ issuer, enabled: true })
    .whereIn('audience', audiences)
    .orderBy(['tenant_id', 'id']);
}

export async function listProviders(
  db: Db,
  tenantId: string,
  afterId: string | undefined,
  fetch: number,
): Promise<ProviderRow[]> {
  const query = db('identity_providers').where({ tenant_id: tenantId }).orderBy('id', 'asc').limit(fetch);
  if (afterId !== undefined) query.andWhere('id', '>', afterId);
  return query;
}

export async function getProvider(db: Db, tenantId: string, id: string): Promise<ProviderRow | undefined> {
  return db('identity_providers').where({ tenant_id: tenantId, id }).first();
}

export async function insertProvider(
  db: Db,
  tenantId: string,
  id: string,
  columns: Record<string, unknown>,
  now: Date,
): Promise<ProviderRow> {
  try {
    const [row] = await db('identity_providers')
      .insert({ tenant_id: tenantId, id, ...columns, created_at: now, updated_at: now })
      .returning('*');
    return row as ProviderRow;
  } catch (err) {
    // A concurrent registration of the same pair passed the same check and committed first.
    if (violated(err, PAIR_INDEX)) throw pairTaken(String(columns.issuer), String(columns.audience));
    if (isUniqueViolation(err))
      throw new ApiError('duplicate_identifier', `An identity provider with id "${id}" already exists.`);
    throw err;
  }
}

export async function updateProvider(
  db: Db,
  existing: ProviderRow,
  columns: Record<string, unknown>,
  now: Date,
): Promise<ProviderRow | undefined> {
  try {
    const [row] = await db('identity_providers')
      .where({ tenant_id: existing.tenant_id, id: existing.id })
      .update({ ...columns, updated_at: now })
      .returning('*');
    return row as ProviderRow | undefined;
  } catch (err) {
    if (violated(err, PAIR_INDEX))
      throw pairTaken(String(columns.issuer ?? existing.issuer), String(columns.audience ?? existing.audience));
    throw err;
  }
}

/** A unique violation of the named index (pg and PGlite both report the constraint's name). */
function violated(err: unknown, index: string): boolean {
  return isUniqueViolation(err) && (err as { constraint?: unknown }).constraint === index;
}

// RETURNING: knex-pglite answers a bare DELETE with its raw result, not a row count.
export async function deleteProvider(db: Db, tenantId: string, id: string): Promise<boolean> {
  return (await db('identity_providers').where({ tenant_id: tenantId, id }).delete().returning('id')).length > 0;
}

/** The tenant's enabled providers a browser can sign in with (they name a client), by id. */
export async function browserProviders(
  db: Db,
  tenantId: string,
  afterId: string | undefined,
  fetch: number,
): Promise<ProviderRow[]> {
  const query = db('identity_providers')
    .where({ tenant_id: tenantId, enabled: true })
    .whereNotNull('browser_client_id')
    .orderBy('id', 'asc')
    .limit(fetch);
  if (afterId !== undefined) query.andWhere('id', '>', afterId);
  return query;
}

/** Every tenant's registrations of this (issuer, audience) pair. */
export async function registrationsOf(
  db: Db,
  issuer: string,
  audience: string,
): Promise<Array<{ tenant_id: string; id: string }>> {
  return (await db('identity_providers').where({ issuer, audience }).select('tenant_id', 'id')) as Array<{
    tenant_id: string;
    id: string;
  }>;
}
