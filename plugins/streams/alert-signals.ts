import type { AlertSignal } from '../alerts/contract.js';

/**
 * Alert signals over this plugin's tables (deliveries, consumer offsets, partitions). Each query
 * starts from a tenant-keyed index and never scans the messages.
 */

/** Messages whose latest delivery to a workflow is dead and that no replay (redrive) has superseded yet. */
export const dlqDepth: AlertSignal = {
  name: 'dlq_depth',
  description: 'Dead letters per workflow: messages whose latest delivery is dead and that were not yet redriven.',
  selector: { workflow: 'Only this workflow.' },
  async measure(db, tenantId, selector) {
    // The streams plugin keeps the open dead letters as rows of their own (deaths add, replays and later attempts remove).
    const rows = await db.raw(
      `SELECT workflow, count(*)::int AS value FROM streams_dead_letters
        WHERE tenant_id = ? ${selector.workflow !== undefined ? 'AND workflow = ?' : ''}
        GROUP BY workflow`,
      selector.workflow !== undefined ? [tenantId, selector.workflow] : [tenantId],
    );
    return (rows.rows as Array<{ workflow: string; value: number }>).map((r) => ({
      labels: { workflow: r.workflow },
      value: r.value,
    }));
  },
};

function consumerFilter(selector: Readonly<Record<string, string>>): { sql: string; bindings: string[] } {
  const parts: string[] = [];
  const bindings: string[] = [];
  if (selector.stream !== undefined) {
    parts.push('AND s.id = ?');
    bindings.push(selector.stream);
  }
  if (selector.consumer !== undefined) {
    parts.push('AND o.consumer = ?');
    bindings.push(selector.consumer);
  }
  return { sql: parts.join(' '), bindings };
}

/** Messages appended after each consumer's committed offset, summed over partitions. */
export const consumerLag: AlertSignal = {
  name: 'consumer_lag',
  description:
    "Messages a consumer (a workflow's or a committed consumer's) has not yet read, per stream and consumer.",
  selector: { stream: 'Only this stream.', consumer: 'Only this consumer.' },
  async measure(db, tenantId, selector) {
    const filter = consumerFilter(selector);
    const rows = await db.raw(
      `SELECT s.id AS stream, o.consumer, sum(greatest(p.next_offset - o.committed_offset, 0))::bigint AS value
         FROM streams_consumer_offsets o
         JOIN streams_streams s ON s.tenant_id = o.tenant_id AND s.uid = o.stream_uid
         JOIN streams_partitions p ON p.tenant_id = o.tenant_id AND p.stream_uid = o.stream_uid AND p.partition = o.partition
        WHERE o.tenant_id = ? ${filter.sql}
        GROUP BY s.id, o.consumer`,
      [tenantId, ...filter.bindings],
    );
    return (rows.rows as Array<{ stream: string; consumer: string; value: string }>).map((r) => ({
      labels: { stream: r.stream, consumer: r.consumer },
      value: Number(r.value),
    }));
  },
};

/** Age of the oldest message a consumer has not read: the first of its partition at or after its committed offset. */
export const oldestUnacked: AlertSignal = {
  name: 'oldest_unacked_seconds',
  description: 'Seconds since the oldest message a consumer has not yet read was published, per stream and consumer.',
  selector: { stream: 'Only this stream.', consumer: 'Only this consumer.' },
  async measure(db, tenantId, selector, now) {
    const filter = consumerFilter(selector);
    const rows = await db.raw(
      `SELECT s.id AS stream, o.consumer, min(coalesce(m.published_at, i.published_at)) AS oldest
         FROM streams_consumer_offsets o
         JOIN streams_streams s ON s.tenant_id = o.tenant_id AND s.uid = o.stream_uid
         LEFT JOIN streams_messages m ON m.tenant_id = o.tenant_id AND m.stream_uid = o.stream_uid AND m.partition = o.partition AND m."offset" = o.committed_offset
         LEFT JOIN LATERAL (
           -- The nats backend's index. JetStream numbers a stream's partitions together, so the
           -- committed offset (the next to read) is often another partition's: the oldest unread
           -- message is the partition's first at or after it, found in the first run (by last
           -- offset, indexed) holding one. Runs published concurrently may hold one a few
           -- milliseconds older; an age in seconds does not see it, and the scan stops early.
           SELECT i.published_at FROM streams_message_positions i
            WHERE i.tenant_id = o.tenant_id AND i.stream_uid = o.stream_uid AND i.last_offset >= o.committed_offset
              AND i.partition = o.partition AND i."offset" >= o.committed_offset
            ORDER BY i.last_offset LIMIT 1) i ON true
        WHERE o.tenant_id = ? ${filter.sql}
        GROUP BY s.id, o.consumer`,
      [tenantId, ...filter.bindings],
    );
    return (rows.rows as Array<{ stream: string; consumer: string; oldest: Date | null }>).map((r) => ({
      labels: { stream: r.stream, consumer: r.consumer },
      value: r.oldest ? Math.max(0, (now.getTime() - new Date(r.oldest).getTime()) / 1000) : 0,
    }));
  },
};

export const STREAM_SIGNALS: readonly AlertSignal[] = [dlqDepth, consumerLag, oldestUnacked];
