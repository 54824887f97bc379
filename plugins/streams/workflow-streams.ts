import type { WorkflowDelivery, WorkflowInputMessage, WorkflowStream, WorkflowStreams } from '../workflows/contract.js';
import type { CombinedWrite } from '../../kernel/plugin/api.js';
import type { NewMessage, StoredMessage, StreamRef } from './backend.js';
import { messageIds } from './ids.js';
import { partitionFor } from './partition.js';
import type { StreamsService } from './service.js';
import { StreamStore } from './store.js';

function refOf(stream: WorkflowStream): StreamRef {
  // Retention does not matter to reading, appending or committing.
  return {
    tenantId: stream.tenantId,
    id: stream.id,
    uid: stream.uid,
    partitions: stream.partitions,
    maxAgeHours: null,
    maxMessages: null,
  };
}

function toInput(m: StoredMessage): WorkflowInputMessage {
  return { ...m };
}

/**
 * Records deliveries given as one JSON array (one statement for a batch), as the leading
 * common table expressions of a statement. A message appears at most once per batch, so
 * max(attempt) + 1 is its next attempt. The `workflow || ''` keeps the lookup on the primary key
 * (tenant, message): on a young table with stale statistics the planner otherwise takes the
 * (tenant, workflow, status) index and filters every delivery of the workflow for each row, which
 * made a batch's statement grow with the table (0.6 s at 20,000 deliveries).
 *
 * The open dead letters move with them: a dead delivery opens one (unless a replay of the message
 * already superseded it), any later attempt of the message by the workflow closes it (a first
 * attempt has no earlier death to close).
 */
const RECORDED = `INSERT INTO streams_deliveries (tenant_id, message_id, workflow, revision, run_id, attempt, status, error, outputs, at, published_at)
  SELECT v.tenant_id, v.message_id, v.workflow, v.revision, v.run_id,
         coalesce((SELECT max(d.attempt) FROM streams_deliveries d WHERE d.tenant_id = v.tenant_id AND d.message_id = v.message_id AND d.workflow || '' = v.workflow), 0) + 1,
         v.status, v.error, v.outputs, v.at, v.published_at
    FROM jsonb_to_recordset(?::jsonb) AS v(tenant_id text, message_id text, workflow text, revision integer, run_id text, status text, error text, outputs jsonb, at timestamptz, published_at timestamptz)
  RETURNING tenant_id, message_id, workflow, attempt, status, at`;
const died = (recorded: string) => `INSERT INTO streams_dead_letters (tenant_id, workflow, message_id, at)
  SELECT r.tenant_id, r.workflow, r.message_id, r.at FROM ${recorded} r
   WHERE r.status = 'dead'
     AND NOT EXISTS (SELECT 1 FROM streams_messages m WHERE m.tenant_id = r.tenant_id AND m.replay_of = r.message_id)
     AND NOT EXISTS (SELECT 1 FROM streams_message_replays m WHERE m.tenant_id = r.tenant_id AND m.replay_of = r.message_id)
  ON CONFLICT (tenant_id, workflow, message_id) DO UPDATE SET at = excluded.at`;
const revived = (recorded: string) => `DELETE FROM streams_dead_letters l USING ${recorded} r
   WHERE r.status <> 'dead' AND r.attempt > 1 AND l.tenant_id = r.tenant_id AND l.workflow = r.workflow AND l.message_id = r.message_id`;

/** `died` only when something in the batch died: planning its probes of every message partition costs more than the rest of the statement. */
const anyDead = (deliveries: readonly WorkflowDelivery[]) => deliveries.some((d) => d.status === 'dead');

/** The common table expressions for a batch, as the leading part of a statement. */
function deliveryStatements(deliveries: readonly WorkflowDelivery[]): string {
  return [
    `recorded AS (${RECORDED})`,
    ...(anyDead(deliveries) ? [`died AS (${died('recorded')})`] : []),
    `revived AS (${revived('recorded')})`,
  ].join(',\n');
}

/** The same as parts of a combined write. */
function addDeliveries(write: CombinedWrite, deliveries: readonly WorkflowDelivery[]): void {
  if (deliveries.length === 0) return;
  const recorded = write.add('recorded', RECORDED, [deliveryRows(deliveries)]);
  if (anyDead(deliveries)) write.add('died', died(recorded), []);
  write.add('revived', revived(recorded), []);
}

/** Moves a consumer's offset from the expected one (the RETURNING is empty when it was elsewhere). */
const MOVE_OFFSET = `INSERT INTO streams_consumer_offsets (tenant_id, stream_uid, consumer, partition, committed_offset, updated_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (tenant_id, stream_uid, consumer, partition) DO UPDATE SET committed_offset = excluded.committed_offset, updated_at = excluded.updated_at
         WHERE streams_consumer_offsets.committed_offset = ?
         RETURNING committed_offset`;

function deliveryRows(deliveries: readonly WorkflowDelivery[]): string {
  return JSON.stringify(
    deliveries.map((d) => ({
      tenant_id: d.tenantId,
      message_id: d.messageId,
      workflow: d.workflow,
      revision: d.revision,
      run_id: d.runId,
      status: d.status,
      error: d.error,
      outputs: d.outputs,
      at: d.at.toISOString(),
      published_at: d.publishedAt?.toISOString() ?? null,
    })),
  );
}

/**
 * What the streams plugin gives the workflows plugin (`workflows.streams`): streams, messages,
 * consumer offsets and deliveries, all usable inside the worker's own transaction.
 */
export function workflowStreamsFor(service: StreamsService): WorkflowStreams {
  return {
    backend: service.backend.name,

    async stream(db, tenantId, id) {
      const found = await new StreamStore(db).get(tenantId, id);
      return (
        found && { tenantId, id, uid: found.ref.uid, partitions: found.stream.partitions, codec: found.stream.codec }
      );
    },

    async read(db, stream, partition, fromOffset, limit) {
      return (await service.backend.read(db, refOf(stream), { partition, fromOffset, limit })).map(toInput);
    },

    async message(db, tenantId, id) {
      const found = await service.backend.get(db, tenantId, id);
      return found && toInput(found);
    },

    async publish(trx, stream, messages) {
      const codec = await service.codecOf(trx, { tenant_id: stream.tenantId, codec: stream.codec });
      const ids = messageIds(messages.length);
      const encoded: NewMessage[] = messages.map((m, i) => {
        let body: Buffer;
        let contentType: string;
        if (m.value !== undefined) {
          body = codec ? Buffer.from(codec.encode(m.value)) : Buffer.from(JSON.stringify(m.value), 'utf8');
          contentType = codec ? codec.contentType : 'application/json';
        } else {
          body = Buffer.from(m.body ?? new Uint8Array());
          contentType = m.contentType ?? 'application/octet-stream';
        }
        return {
          id: ids[i] as string,
          partition: partitionFor(m.key, stream.partitions),
          key: m.key,
          headers: m.headers,
          contentType,
          body,
          replayOf: m.replayOf ?? null,
        };
      });
      if (encoded.length === 0) return [];
      return (await service.publish(trx, refOf(stream), encoded, { dryRun: false })).appended;
    },

    async committed(db, stream, consumer, partition) {
      const row = (await db('streams_consumer_offsets')
        .where({ tenant_id: stream.tenantId, stream_uid: stream.uid, consumer, partition })
        .first('committed_offset')) as { committed_offset: string | number } | undefined;
      return row ? Number(row.committed_offset) : 0;
    },

    async commit(trx, stream, consumer, partition, expected, nextOffset, deliveries = []) {
      // One statement: the batch's deliveries, the check that nobody moved the offset and the move
      // itself. When the check fails nothing is returned, the caller rolls back, and the
      // deliveries go with it.
      const result = (await trx.raw(
        `WITH ${deliveryStatements(deliveries)}
         ${MOVE_OFFSET}`,
        [
          deliveryRows(deliveries),
          stream.tenantId,
          stream.uid,
          consumer,
          partition,
          nextOffset,
          service.clock.now(),
          expected,
        ],
      )) as { rows: unknown[] };
      return result.rows.length === 1;
    },

    commitIn(write, stream, consumer, partition, expected, nextOffset, deliveries) {
      addDeliveries(write, deliveries);
      write.add(
        'offset_moved',
        MOVE_OFFSET,
        [stream.tenantId, stream.uid, consumer, partition, nextOffset, service.clock.now(), expected],
        { orTransaction: true },
      );
    },

    async forgetConsumer(trx, tenantId, consumer) {
      await trx('streams_consumer_offsets').where({ tenant_id: tenantId, consumer }).delete();
    },

    async recordDeliveries(trx, deliveries) {
      if (deliveries.length === 0) return;
      await trx.raw(`WITH ${deliveryStatements(deliveries)} SELECT 1`, [deliveryRows(deliveries)]);
    },

    async end(db, stream, partition) {
      const ends = await service.backend.ends(db, refOf(stream));
      return ends[partition] ?? 0;
    },

    onAppended(handler) {
      return service.subscribeAppended((event) => handler(event.tenant_id, event.stream_uid, event.partitions));
    },
  };
}
