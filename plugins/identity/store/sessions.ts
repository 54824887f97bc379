import type { Knex } from 'knex';
import { hashSecret, newRecordId, newSecret } from '../tokens/format.js';
import { addSeconds, iso, isoOrNull } from '../time.js';

type Db = Knex | Knex.Transaction;

export interface SessionLifetimes {
  accessTokenTtlSeconds: number;
  refreshIdleTtlSeconds: number;
  sessionMaxTtlSeconds: number;
}

export interface SessionRow {
  tenant_id: string;
  id: string;
  subject_id: string;
  access_hash: string;
  access_expires_at: Date | string;
  refresh_hash: string;
  refresh_expires_at: Date | string;
  max_expires_at: Date | string;
  generation: number;
  user_agent: string | null;
  created_at: Date | string;
  refreshed_at: Date | string | null;
  revoked_at: Date | string | null;
  revoked_reason: string | null;
  provider_id?: string | null;
}

/** What a client receives once, at login or refresh; only hashes stay in the database. */
export interface IssuedTokens {
  access_token: string;
  refresh_token: string;
  token_type: 'Bearer';
  expires_at: string;
  refresh_expires_at: string;
  session_id: string;
  subject_id: string;
  tenant_id: string;
}

function issued(row: SessionRow, access: string, refresh: string): IssuedTokens {
  return {
    access_token: access,
    refresh_token: refresh,
    token_type: 'Bearer',
    expires_at: iso(row.access_expires_at),
    refresh_expires_at: iso(row.refresh_expires_at),
    session_id: row.id,
    subject_id: row.subject_id,
    tenant_id: row.tenant_id,
  };
}

function earlier(a: Date, b: Date | string): Date {
  const other = new Date(b);
  return a < other ? a : other;
}

export async function createSession(
  db: Db,
  input: {
    tenantId: string;
    subjectId: string;
    userAgent: string | null;
    /** Single sign-on: the provider, and the roles and e-mail mapped from its ID token. */
    provider?: { id: string; roles: readonly string[]; email: string | null };
  },
  life: SessionLifetimes,
  now: Date,
): Promise<IssuedTokens> {
  const access = newSecret('session');
  const refresh = newSecret('refresh');
  const maxExpires = addSeconds(now, life.sessionMaxTtlSeconds);
  const [row] = (await db('identity_sessions')
    .insert({
      tenant_id: input.tenantId,
      id: newRecordId('ses'),
      subject_id: input.subjectId,
      access_hash: hashSecret(access),
      access_expires_at: earlier(addSeconds(now, life.accessTokenTtlSeconds), maxExpires),
      refresh_hash: hashSecret(refresh),
      refresh_expires_at: earlier(addSeconds(now, life.refreshIdleTtlSeconds), maxExpires),
      max_expires_at: maxExpires,
      user_agent: input.userAgent,
      ...(input.provider
        ? { provider_id: input.provider.id, roles: [...input.provider.roles], email: input.provider.email }
        : {}),
      created_at: now,
    })
    .returning('*')) as SessionRow[];
  return issued(row as SessionRow, access, refresh);
}

export async function findByRefreshHash(db: Db, hash: string): Promise<SessionRow | undefined> {
  return db('identity_sessions').where({ refresh_hash: hash }).first();
}

/** The session a rotated-out refresh token belonged to, if the token was ever issued. */
export async function findRotatedOut(
  db: Db,
  hash: string,
): Promise<{ tenant_id: string; session_id: string } | undefined> {
  return db('identity_refresh_history').where({ refresh_hash: hash }).first('tenant_id', 'session_id');
}

/**
 * Rotates both tokens with a conditional update on the presented refresh hash: when several
 * requests race with the same refresh token, PostgreSQL's row lock lets exactly one update
 * match; the others find the hash changed and get null.
 */
export async function rotateSession(
  db: Db,
  session: SessionRow,
  presentedHash: string,
  life: SessionLifetimes,
  now: Date,
): Promise<IssuedTokens | null> {
  const access = newSecret('session');
  const refresh = newSecret('refresh');
  const [row] = (await db('identity_sessions')
    .where({ tenant_id: session.tenant_id, id: session.id, refresh_hash: presentedHash })
    .whereNull('revoked_at')
    .update({
      access_hash: hashSecret(access),
      access_expires_at: earlier(addSeconds(now, life.accessTokenTtlSeconds), session.max_expires_at),
      refresh_hash: hashSecret(refresh),
      refresh_expires_at: earlier(addSeconds(now, life.refreshIdleTtlSeconds), session.max_expires_at),
      generation: db.raw('generation + 1'),
      refreshed_at: now,
    })
    .returning('*')) as SessionRow[];
  if (!row) return null;
  await db('identity_refresh_history').insert({
    tenant_id: session.tenant_id,
    session_id: session.id,
    refresh_hash: presentedHash,
    rotated_at: now,
  });
  return issued(row, access, refresh);
}

export async function revokeSession(db: Db, tenantId: string, id: string, reason: string, now: Date): Promise<boolean> {
  return (
    (await db('identity_sessions')
      .where({ tenant_id: tenantId, id })
      .whereNull('revoked_at')
      .update({ revoked_at: now, revoked_reason: reason })) > 0
  );
}

export async function revokeSubjectSessions(
  db: Db,
  tenantId: string,
  subjectId: string,
  reason: string,
  now: Date,
): Promise<number> {
  return db('identity_sessions')
    .where({ tenant_id: tenantId, subject_id: subjectId })
    .whereNull('revoked_at')
    .update({ revoked_at: now, revoked_reason: reason });
}

export interface SessionView {
  id: string;
  tenant_id: string;
  subject_id: string;
  created_at: string;
  refreshed_at: string | null;
  expires_at: string;
  refresh_expires_at: string;
  user_agent: string | null;
  current: boolean;
}

/** Sessions that can still be used or refreshed, never with their hashes. */
export async function listActiveSessions(
  db: Db,
  tenantId: string,
  subjectId: string,
  now: Date,
  page: { afterId?: string; fetch: number },
  currentId: string | undefined,
): Promise<SessionView[]> {
  const query = db('identity_sessions')
    .where({ tenant_id: tenantId, subject_id: subjectId })
    .whereNull('revoked_at')
    .andWhere('refresh_expires_at', '>', now)
    .orderBy('id', 'asc')
    .limit(page.fetch);
  if (page.afterId !== undefined) query.andWhere('id', '>', page.afterId);
  return ((await query) as SessionRow[]).map((row) => ({
    id: row.id,
    tenant_id: row.tenant_id,
    subject_id: row.subject_id,
    created_at: iso(row.created_at),
    refreshed_at: isoOrNull(row.refreshed_at),
    expires_at: iso(row.access_expires_at),
    refresh_expires_at: iso(row.refresh_expires_at),
    user_agent: row.user_agent,
    current: row.id === currentId,
  }));
}

/** The session an access token belongs to, whatever its state (the caller checks it). */
export async function findByAccessHash(db: Db, hash: string): Promise<SessionRow | undefined> {
  return db('identity_sessions').where({ access_hash: hash }).first();
}

export async function getSession(db: Db, tenantId: string, id: string): Promise<SessionRow | undefined> {
  return db('identity_sessions').where({ tenant_id: tenantId, id }).first();
}
