import type { Knex } from 'knex';
import type { CombinedWrite } from '../../../kernel/plugin/api.js';

/** Upper bounds (ms) of the latency histogram's bins; one more bin counts everything above. */
export const LATENCY_BOUNDS_MS = [5, 10, 25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 30_000, 60_000, 300_000];

/** One attempt as the counters see it. */
export interface CountedAttempt {
  status: 'processed' | 'filtered' | 'failed' | 'dead';
  /** The message's first attempt in this run (a retry adds an attempt, not a message). */
  first: boolean;
  /** Delivery time − publish time, for processed messages. */
  latencyMs: number | null;
}

function bin(ms: number): number {
  const i = LATENCY_BOUNDS_MS.findIndex((bound) => ms <= bound);
  return i === -1 ? LATENCY_BOUNDS_MS.length : i;
}

/**
 * Adds a batch's attempts to its (tenant, workflow, hour) row, in the transaction that records
 * the deliveries: the counters and the deliveries commit or roll back together. A batch is
 * stamped with one time, so it is one row. Call it last before the commit (the row lock is shared
 * by the workflow's partitions).
 */
export async function rollUp(
  trx: Knex.Transaction,
  key: { tenantId: string; workflowId: string; at: Date },
  attempts: readonly CountedAttempt[],
): Promise<void> {
  if (attempts.length === 0) return;
  await trx.raw(ROLL_UP, rollUpBindings(key, attempts));
}

/** The same as the last part of a combined write (its row lock taken last, as in the transaction). */
export function rollUpIn(
  write: CombinedWrite,
  key: { tenantId: string; workflowId: string; at: Date },
  attempts: readonly CountedAttempt[],
): void {
  if (attempts.length > 0) write.add('hourly', ROLL_UP, rollUpBindings(key, attempts));
}

const ROLL_UP = `INSERT INTO workflows_hourly AS h (tenant_id, hour, workflow_id, messages_in, attempts, processed, errors, dead, latency_hist)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?::integer[])
     ON CONFLICT (tenant_id, hour, workflow_id) DO UPDATE SET
       messages_in = h.messages_in + excluded.messages_in, attempts = h.attempts + excluded.attempts,
       processed = h.processed + excluded.processed, errors = h.errors + excluded.errors, dead = h.dead + excluded.dead,
       latency_hist = (SELECT array_agg(coalesce(a, 0) + coalesce(b, 0) ORDER BY i) FROM unnest(h.latency_hist, excluded.latency_hist) WITH ORDINALITY AS t(a, b, i))`;

function rollUpBindings(
  key: { tenantId: string; workflowId: string; at: Date },
  attempts: readonly CountedAttempt[],
): Knex.RawBinding[] {
  const hist = new Array<number>(LATENCY_BOUNDS_MS.length + 1).fill(0);
  let messagesIn = 0,
    processed = 0,
    errors = 0,
    dead = 0;
  for (const a of attempts) {
    if (a.first) messagesIn++;
    if (a.status === 'processed') {
      processed++;
      if (a.latencyMs !== null) hist[bin(a.latencyMs)]++;
    } else if (a.status !== 'filtered') errors++; // a filtered run went through: not an error, and nothing came out
    if (a.status === 'dead') dead++;
  }
  const hour = new Date(Math.floor(key.at.getTime() / 3_600_000) * 3_600_000);
  return [
    key.tenantId,
    hour,
    key.workflowId,
    messagesIn,
    attempts.length,
    processed,
    errors,
    dead,
    `{${hist.join(',')}}`,
  ];
}

/** A workflow's traffic over a span of whole hours. */
export interface HourlyTraffic {
  workflow: string;
  messages_in: number;
  processed: number;
  errors: number;
  attempts: number;
  /** The upper bound of the bin holding the 95th percentile (null: nothing processed; above the last bound: that bound). */
  p95_ms: number | null;
}

/** Each histogram bin summed over the rows, as one array (1-based, as PostgreSQL indexes it). */
const BIN_SUMS = `array[${LATENCY_BOUNDS_MS.concat(0)
  .map((_, i) => `coalesce(sum(latency_hist[${i + 1}]), 0)`)
  .join(', ')}]::integer[]`;

/**
 * Sums the hours from the one holding `since` up to `until` (primary key (tenant_id, hour, …)):
 * at most 25 rows per workflow whatever the traffic, read once. The bins are summed position by
 * position rather than unnested: a row per bin would be 15 times the rows to group.
 */
export async function readHourly(db: Knex, tenantId: string, since: Date, until: Date): Promise<HourlyTraffic[]> {
  const from = new Date(Math.floor(since.getTime() / 3_600_000) * 3_600_000);
  const totals = (await db.raw(
    `SELECT workflow_id, sum(messages_in)::int AS messages_in, sum(processed)::int AS processed, sum(errors)::int AS errors, sum(attempts)::int AS attempts, ${BIN_SUMS} AS hist
       FROM workflows_hourly WHERE tenant_id = ? AND hour >= ? AND hour <= ? GROUP BY workflow_id`,
    [tenantId, from, until],
  )) as {
    rows: Array<{
      workflow_id: string;
      messages_in: number;
      processed: number;
      errors: number;
      attempts: number;
      hist: number[];
    }>;
  };
  return totals.rows.map((r) => ({
    workflow: r.workflow_id,
    messages_in: r.messages_in,
    processed: r.processed,
    errors: r.errors,
    attempts: r.attempts,
    p95_ms: p95(r.hist.map(Number)),
  }));
}

/** The upper bound of the bin where the cumulative count reaches 95 %. */
function p95(counts: readonly number[]): number | null {
  const total = counts.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  let seen = 0;
  for (let i = 0; i < counts.length; i++) {
    seen += counts[i] as number;
    if (seen >= total * 0.95) return LATENCY_BOUNDS_MS[Math.min(i, LATENCY_BOUNDS_MS.length - 1)] as number;
  }
  return LATENCY_BOUNDS_MS.at(-1) as number;
}
