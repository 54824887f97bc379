import type { Knex } from 'knex';
import type {
  DashboardSection,
  DashboardWindow,
  WorkflowTraffic,
  WorkflowTrafficSource,
} from '../dashboard/contract.js';

/**
 * Runs a section's query without parallel workers: the queries read a few index ranges, and
 * starting workers costs more than the work (tens of milliseconds on a busy server).
 */
function serial<T>(db: Knex, run: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  return db.transaction(async (trx) => {
    await trx.raw('SET LOCAL max_parallel_workers_per_gather = 0');
    return run(trx);
  });
}

/**
 * Per workflow traffic in the window from the deliveries themselves (index (tenant_id, at)). Each
 * delivery carries its message's publish time; only rows recorded before it did look the message up.
 */
async function trafficFromDeliveries(db: Knex, tenantId: string, window: DashboardWindow): Promise<WorkflowTraffic[]> {
  const result = await serial(db, (trx) =>
    trx.raw(
      `SELECT d.workflow,
            count(DISTINCT d.message_id)::int AS messages_in,
            count(*) FILTER (WHERE d.status = 'processed')::int AS processed,
            count(*) FILTER (WHERE d.status IN ('failed', 'dead'))::int AS errors,
            count(*)::int AS attempts,
            percentile_disc(0.95) WITHIN GROUP (ORDER BY extract(epoch FROM d.at - coalesce(d.published_at, (SELECT m.published_at FROM streams_messages m WHERE m.tenant_id = d.tenant_id AND m.id = d.message_id))) * 1000) FILTER (WHERE d.status = 'processed') AS p95_ms
       FROM streams_deliveries d
      WHERE d.tenant_id = ? AND d.at >= ? AND d.at < ?
      GROUP BY d.workflow`,
      [tenantId, window.since, window.until],
    ),
  );
  return (result.rows as Array<WorkflowTraffic & { p95_ms: number | string | null }>).map((r) => ({
    ...r,
    p95_ms: r.p95_ms === null ? null : Math.round(Number(r.p95_ms)),
  }));
}

/**
 * The dashboard's `workflows` section, from this plugin's deliveries, dead letters and consumer
 * offsets. Per workflow: traffic in the window — messages handled, processed, failed attempts, error rate
 * and p95 end-to-end latency (delivery time − publish time of processed messages); for 5m and 1h
 * from the deliveries in the window, for 24h from the traffic source (the workflows plugin's
 * hourly counters) when one is contributed; dead letters not yet redriven (the streams plugin's
 * open dead letters, one index range); and lag and oldest unacknowledged age of the consumer of the workflow's name.
 */
export function workflowsSection(source: () => WorkflowTrafficSource | undefined): DashboardSection {
  return {
    key: 'workflows',
    async build(db, tenantId, window) {
      const daily = window.name === '24h' ? source() : undefined;
      const [traffic, dead, consumers] = await Promise.all([
        daily ? daily.daily(db, tenantId, window) : trafficFromDeliveries(db, tenantId, window),
        db.raw(`SELECT workflow, count(*)::int AS n FROM streams_dead_letters WHERE tenant_id = ? GROUP BY workflow`, [
          tenantId,
        ]),
        serial(db, (trx) =>
          trx.raw(
            `SELECT o.consumer, sum(greatest(p.next_offset - o.committed_offset, 0))::bigint AS lag, min(m.published_at) AS oldest
         FROM streams_consumer_offsets o
         JOIN streams_partitions p ON p.tenant_id = o.tenant_id AND p.stream_uid = o.stream_uid AND p.partition = o.partition
         LEFT JOIN streams_messages m ON p.next_offset > o.committed_offset
              AND m.tenant_id = o.tenant_id AND m.stream_uid = o.stream_uid AND m.partition = o.partition AND m."offset" = o.committed_offset
        WHERE o.tenant_id = ?
        GROUP BY o.consumer`,
            [tenantId],
          ),
        ),
      ]);
      const byWorkflow = new Map<string, Record<string, unknown>>();
      const entry = (workflow: string) => {
        let found = byWorkflow.get(workflow);
        if (!found) {
          found = {
            workflow,
            messages_in: 0,
            messages_out: 0,
            errors: 0,
            error_rate: 0,
            p95_ms: null,
            dead_letters: 0,
            lag: 0,
            oldest_unacked_seconds: null,
          };
          byWorkflow.set(workflow, found);
        }
        return found;
      };
      for (const r of traffic) {
        Object.assign(entry(r.workflow), {
          messages_in: r.messages_in,
          messages_out: r.processed,
          errors: r.errors,
          error_rate: r.attempts > 0 ? r.errors / r.attempts : 0,
          p95_ms: r.p95_ms,
        });
      }
      for (const r of dead.rows as Array<{ workflow: string; n: number }>) entry(r.workflow).dead_letters = r.n;
      for (const r of consumers.rows as Array<{ consumer: string; lag: string; oldest: Date | null }>) {
        if (!byWorkflow.has(r.consumer)) continue;
        Object.assign(entry(r.consumer), {
          lag: Number(r.lag),
          oldest_unacked_seconds: r.oldest
            ? Math.max(0, Math.round((window.until.getTime() - new Date(r.oldest).getTime()) / 1000))
            : null,
        });
      }
      return [...byWorkflow.values()].sort((a, b) => String(a.workflow).localeCompare(String(b.workflow)));
    },
  };
}
