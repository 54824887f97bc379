import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { ApiError } from '../../kernel/errors.js';
import { isUniqueViolation } from '../../kernel/plugin/api.js';
import type { Appended, StreamRef } from './backend.js';

type Db = Knex | Knex.Transaction;

export interface Retention {
  max_age_hours?: number;
  max_messages?: number;
}

/** A stream as the API shows it. */
export interface Stream {
  id: string;
  tenant_id: string;
  name: string;
  partitions: number;
  retention: Retention;
  codec: string | null;
  revision: number;
  created_at: string;
  updated_at: string;
}

export interface StreamFields {
  name: string;
  partitions: number;
  retention: Retention;
  codec: string | null;
}

interface StreamRow {
  tenant_id: string;
  id: string;
  uid: string;
  name: string;
  partitions: number;
  max_age_hours: number | null;
  max_messages: string | number | null;
  codec: string | null;
  revision: number;
  created_at: Date | string;
  updated_at: Date | string;
}

/** A stream definition with the reference its backend needs. */
export interface StreamRecord {
  stream: Stream;
  ref: StreamRef;
}

function iso(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

function toRecord(row: StreamRow): StreamRecord {
  const maxMessages = row.max_messages === null ? null : Number(row.max_messages);
  const retention: Retention = {};
  if (row.max_age_hours !== null) retention.max_age_hours = row.max_age_hours;
  if (maxMessages !== null) retention.max_messages = maxMessages;
  return {
    stream: {
      id: row.id,
      tenant_id: row.tenant_id,
      name: row.name,
      partitions: row.partitions,
      retention,
      codec: row.codec,
      revision: row.revision,
      created_at: iso(row.created_at),
      updated_at: iso(row.updated_at),
    },
    ref: {
      tenantId: row.tenant_id,
      id: row.id,
      uid: row.uid,
      partitions: row.partitions,
      maxAgeHours: row.max_age_hours,
      maxMessages,
    },
  };
}

/** Stream definitions (`streams_streams`), keyed by tenant first. */
export class StreamStore {
  constructor(private readonly db: Db) {}

  async list(tenantId: string, afterId: string | undefined, fetch: number): Promise<Stream[]> {
    const query = this.db('streams_streams').where({ tenant_id: tenantId }).orderBy('id').limit(fetch);
    if (afterId !== undefined) query.andWhere('id', '>', afterId);
    return ((await query) as StreamRow[]).map((row) => toRecord(row).stream);
  }

  /** The stream, locked against a concurrent change or delete when `forUpdate`. */
  async get(tenantId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<StreamRecord | undefined> {
    const query = this.db('streams_streams').where({ tenant_id: tenantId, id }).first();
    if (options.forUpdate) query.forUpdate();
    const row = (await query) as StreamRow | undefined;
    return row && toRecord(row);
  }

  async insert(tenantId: string, id: string, fields: StreamFields, now: Date): Promise<StreamRecord> {
    try {
      const [row] = (await this.db('streams_streams')
        .insert({
          tenant_id: tenantId,
          id,
          uid: randomBytes(8).toString('hex'),
          name: fields.name,
          partitions: fields.partitions,
          max_age_hours: fields.retention.max_age_hours ?? null,
          max_messages: fields.retention.max_messages ?? null,
          codec: fields.codec,
          created_at: now,
          updated_at: now,
        })
        .returning('*')) as StreamRow[];
      return toRecord(row as StreamRow);
    } catch (err) {
      if (isUniqueViolation(err))
        throw new ApiError('duplicate_identifier', `A stream with id "${id}" already exists.`);
      throw err;
    }
  }

  async update(tenantId: string, id: string, fields: StreamFields, now: Date): Promise<StreamRecord> {
    const [row] = (await this.db('streams_streams')
      .where({ tenant_id: tenantId, id })
      .update({
        name: fields.name,
        partitions: fields.partitions,
        max_age_hours: fields.retention.max_age_hours ?? null,
        max_messages: fields.retention.max_messages ?? null,
        codec: fields.codec,
        revision: this.db.raw('revision + 1'),
        updated_at: now,
      })
      .returning('*')) as StreamRow[];
    return toRecord(row as StreamRow);
  }

  async remove(tenantId: string, id: string): Promise<void> {
    await this.db('streams_streams').where({ tenant_id: tenantId, id }).delete();
  }

  /** Live streams of a tenant by uid (to name a message's stream). */
  async byUid(tenantId: string, uid: string): Promise<StreamRecord | undefined> {
    const row = (await this.db('streams_streams').where({ tenant_id: tenantId, uid }).first()) as StreamRow | undefined;
    return row && toRecord(row);
  }
}

/** Results of idempotent publishes, per stream and key, kept while the stream lives. */
export class PublishStore {
  constructor(private readonly db: Db) {}

  /** Takes the key's lock for this transaction and reads what was stored for it. */
  async claim(stream: StreamRef, key: string): Promise<{ fingerprint: string; result: Appended[] } | undefined> {
    await this.db.raw('SELECT pg_advisory_xact_lock(hashtext(?), hashtext(?))', [
      `streams\u001f${stream.tenantId}\u001f${stream.uid}`,
      key,
    ]);
    const row = (await this.db('streams_publishes')
      .where({ tenant_id: stream.tenantId, stream_uid: stream.uid, key })
      .first()) as { fingerprint: string; result: Appended[] } | undefined;
    return row && { fingerprint: row.fingerprint, result: row.result };
  }

  async save(
    stream: StreamRef,
    key: string,
    fingerprint: string,
    result: readonly Appended[],
    now: Date,
  ): Promise<void> {
    await this.db('streams_publishes').insert({
      tenant_id: stream.tenantId,
      stream_uid: stream.uid,
      key,
      fingerprint,
      result: JSON.stringify(result),
      created_at: now,
    });
  }
}

export interface ConsumerOffset {
  consumer: string;
  partition: number;
  committed_offset: number;
  updated_at: string;
}

/** Committed offsets per consumer (a workflow) and partition. */
export class ConsumerStore {
  constructor(private readonly db: Db) {}

  async list(stream: StreamRef): Promise<ConsumerOffset[]> {
    const found = (await this.db('streams_consumer_offsets')
      .where({ tenant_id: stream.tenantId, stream_uid: stream.uid })
      .orderBy([{ column: 'consumer' }, { column: 'partition' }])) as Array<{
      consumer: string;
      partition: number;
      committed_offset: string | number;
      updated_at: Date | string;
    }>;
    return found.map((r) => ({
      consumer: r.consumer,
      partition: r.partition,
      committed_offset: Number(r.committed_offset),
      updated_at: iso(r.updated_at),
    }));
  }

  async commit(stream: StreamRef, consumer: string, partition: number, offset: number, now: Date): Promise<void> {
    await this.db('streams_consumer_offsets')
      .insert({
        tenant_id: stream.tenantId,
        stream_uid: stream.uid,
        consumer,
        partition,
        committed_offset: offset,
        updated_at: now,
      })
      .onConflict(['tenant_id', 'stream_uid', 'consumer', 'partition'])
      .merge(['committed_offset', 'updated_at']);
  }
}

export interface Delivery {
  workflow: string;
  revision: number;
  run_id: string;
  attempt: number;
  status: string;
  error: string | null;
  outputs: unknown[];
  at: string;
}

/** Every attempt of every workflow to process a message (written by the workflows, read here). */
export class DeliveryStore {
  constructor(private readonly db: Db) {}

  async ofMessage(tenantId: string, messageId: string): Promise<Delivery[]> {
    const found = (await this.db('streams_deliveries')
      .where({ tenant_id: tenantId, message_id: messageId })
      .orderBy([{ column: 'at' }, { column: 'workflow' }, { column: 'attempt' }])) as Array<
      Omit<Delivery, 'at'> & { at: Date | string }
    >;
    return found.map((d) => ({
      workflow: d.workflow,
      revision: d.revision,
      run_id: d.run_id,
      attempt: d.attempt,
      status: d.status,
      error: d.error,
      outputs: d.outputs,
      at: iso(d.at),
    }));
  }
}
