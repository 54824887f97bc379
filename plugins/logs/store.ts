import type { Knex } from 'knex';

export const LEVELS = ['debug', 'info', 'warn', 'error'] as const;

export interface LogFilter {
  level?: string;
  source?: string;
  since?: string;
  until?: string;
}

interface LogRow {
  tenant_id: string;
  seq: string | number;
  at: Date | string;
  level: string;
  source: string;
  message: string;
  fields: Record<string, unknown>;
}

export function toLogRecord(row: LogRow): Record<string, unknown> {
  return {
    seq: Number(row.seq),
    time: new Date(row.at).toISOString(),
    tenant_id: row.tenant_id,
    level: row.level,
    source: row.source,
    message: row.message,
    fields: row.fields,
  };
}

/** A page of a tenant's runtime log, newest first, keyset on seq. `level` is a minimum. */
export async function listLogs(
  db: Knex | Knex.Transaction,
  tenantId: string,
  filter: LogFilter,
  fetch: number,
  afterSeq?: number,
): Promise<LogRow[]> {
  const query = db('runtime_logs')
    .select('tenant_id', 'seq', 'at', 'level', 'source', 'message', 'fields')
    .where('tenant_id', tenantId)
    .orderBy('seq', 'desc')
    .limit(fetch);
  if (afterSeq !== undefined) query.andWhere('seq', '<', afterSeq);
  if (filter.level) query.whereIn('level', LEVELS.slice(LEVELS.indexOf(filter.level as (typeof LEVELS)[number])));
  if (filter.source) query.andWhere('source', filter.source);
  if (filter.since) query.andWhere('at', '>=', new Date(filter.since));
  if (filter.until) query.andWhere('at', '<', new Date(filter.until));
  return (await query) as LogRow[];
}

/** Stores a batch of queued records (the sink's rows, in the table's columns). */
export async function insertLogs(db: Knex | Knex.Transaction, rows: readonly object[]): Promise<void> {
  await db('runtime_logs').insert(rows);
}
