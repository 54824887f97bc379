import type { Knex } from 'knex';

type Db = Knex | Knex.Transaction;
type Row = Record<string, unknown>;

/**
 * The alerts plugin's rows of alerts, silences and queued notifications (its rules are in
 * rule-store.ts): the queries of its handlers, evaluation, delivery and gauge.
 */

/** A page of a tenant's alerts by id, optionally of one state or rule. */
export async function listAlerts(
  db: Db,
  tenantId: string,
  filter: { state?: string; rule?: string },
  fetch: number,
  after?: string,
): Promise<Row[]> {
  const query = db('alerts_alerts').where({ tenant_id: tenantId }).orderBy('id').limit(fetch);
  if (filter.state !== undefined) query.andWhere({ state: filter.state });
  if (filter.rule !== undefined) query.andWhere({ rule_id: filter.rule });
  if (after !== undefined) query.andWhere('id', '>', after);
  return (await query) as Row[];
}

/** Marks an alert acknowledged; undefined when there is no such alert. */
export async function ackAlert(
  db: Db,
  tenantId: string,
  id: string,
  at: Date,
  by: string | null,
): Promise<Row | undefined> {
  const [row] = await db('alerts_alerts')
    .where({ tenant_id: tenantId, id })
    .update({ acked_at: at, acked_by: by, updated_at: at })
    .returning('*');
  return row as Row | undefined;
}

/** A rule's pending and firing alerts, locked for its evaluation step. */
export async function lockOpenAlerts<T>(trx: Db, tenantId: string, ruleId: string): Promise<T[]> {
  return (await trx('alerts_alerts')
    .where({ tenant_id: tenantId, rule_id: ruleId })
    .whereIn('state', ['pending', 'firing'])
    .forUpdate()) as T[];
}

export async function insertAlert(trx: Db, row: Row): Promise<void> {
  await trx('alerts_alerts').insert(row);
}

export async function updateAlert(trx: Db, tenantId: string, id: string, changes: Row): Promise<void> {
  await trx('alerts_alerts').where({ tenant_id: tenantId, id }).update(changes);
}

/** Open alerts (pending or firing) counted per tenant, rule, the rule's severity and state. */
export async function countOpenAlerts(
  db: Db,
): Promise<Array<{ tenant_id: string; rule_id: string; severity: string; state: string; n: string | number }>> {
  return (await db('alerts_alerts as a')
    .join('alerts_rules as r', function () {
      this.on('r.tenant_id', 'a.tenant_id').andOn('r.id', 'a.rule_id');
    })
    .whereIn('a.state', ['pending', 'firing'])
    .groupBy('a.tenant_id', 'a.rule_id', 'r.severity', 'a.state')
    .select('a.tenant_id', 'a.rule_id', 'r.severity', 'a.state')
    .count({ n: '*' })) as Array<{
    tenant_id: string;
    rule_id: string;
    severity: string;
    state: string;
    n: string | number;
  }>;
}

export async function insertSilence(db: Db, row: Row): Promise<Row> {
  const [inserted] = await db('alerts_silences').insert(row).returning('*');
  return inserted as Row;
}

/** A page of a tenant's silences by id. */
export async function listSilences(db: Db, tenantId: string, fetch: number, after?: string): Promise<Row[]> {
  const query = db('alerts_silences').where({ tenant_id: tenantId }).orderBy('id').limit(fetch);
  if (after !== undefined) query.andWhere('id', '>', after);
  return (await query) as Row[];
}

/** Ends a silence now unless it ends earlier; undefined when there is no such silence. */
export async function expireSilence(db: Db, tenantId: string, id: string, now: Date): Promise<Row | undefined> {
  const [row] = await db('alerts_silences')
    .where({ tenant_id: tenantId, id })
    .update({ ends_at: db.raw('LEAST(ends_at, ?::timestamptz)', [now]) })
    .returning('*');
  return row as Row | undefined;
}

/** The matchers of a tenant's silences in force at `now`. */
export async function activeSilences<T>(trx: Db, tenantId: string, now: Date): Promise<T[]> {
  return (await trx('alerts_silences')
    .where({ tenant_id: tenantId })
    .andWhere('starts_at', '<=', now)
    .andWhere('ends_at', '>', now)
    .select('matchers')) as T[];
}

/** Queues a notification; one per (alert, status, target) however often it is queued. */
export async function queueNotification(trx: Db, row: Row): Promise<void> {
  await trx('alerts_notifications').insert(row).onConflict(['tenant_id', 'alert_id', 'status', 'url']).ignore();
}

export interface DueNotification {
  seq: string;
  tenant_id: string;
  url: string;
  payload: unknown;
  attempts: number;
}

/** Unsent notifications due by `now`, oldest first, at most `limit`. */
export async function dueNotifications(db: Db, now: Date, limit: number): Promise<DueNotification[]> {
  return (await db('alerts_notifications')
    .whereNull('sent_at')
    .andWhere('next_at', '<=', now)
    .orderBy('seq')
    .limit(limit)) as DueNotification[];
}

export async function updateNotification(db: Db, seq: string, changes: Row): Promise<void> {
  await db('alerts_notifications').where({ seq }).update(changes);
}
