import type { Knex } from 'knex';
import type { CombinedWrite } from '../../kernel/plugin/api.js';

/**
 * Where a stream's messages live. Two backends implement it (postgres, nats) and one conformance
 * suite checks both through the API; everything around the messages (stream definitions,
 * idempotent publish results, consumer offsets, deliveries) stays in the plugin's tables in
 * PostgreSQL, so the API does not change with the backend.
 */

/** A stream as a backend needs it. */
export interface StreamRef {
  tenantId: string;
  id: string;
  /** Internal identity: a stream re-created under the same id is another stream. */
  uid: string;
  partitions: number;
  maxAgeHours: number | null;
  maxMessages: number | null;
}

/** The codec revision that encoded a message's body (recorded so it can be read with that schema later). */
export interface CodecWriter {
  codec: string;
  revision: number;
}

/** One message to append, already encoded. */
export interface NewMessage {
  id: string;
  partition: number;
  key: string | null;
  headers: Record<string, string>;
  contentType: string;
  body: Buffer;
  replayOf: string | null;
  /** The codec revision that encoded the body; absent or null for bodies no revisioned codec wrote. */
  writer?: CodecWriter | null;
}

/** One stored message. */
export interface StoredMessage {
  id: string;
  stream: string;
  partition: number;
  offset: number;
  key: string | null;
  headers: Record<string, string>;
  contentType: string;
  body: Buffer;
  publishedAt: Date;
  replayOf: string | null;
  writer?: CodecWriter | null;
}

export interface Appended {
  id: string;
  partition: number;
  offset: number;
}

export interface AppendOptions {
  dryRun: boolean;
  /** For a publish with an idempotency key: that key and its messages' fingerprint (`dedupKeyOf`). */
  dedupKey?: string;
  /** What `publishAhead` answered for these messages: `append` only records them. */
  published?: readonly Appended[];
  /** The call's combined write: records go there (with `published`), committing with the call's audit record in one statement. */
  write?: CombinedWrite;
}

/** A position in a stream: read messages after it, in (partition, offset) order. */
export interface ReadRequest {
  /** Only this partition. */
  partition?: number;
  /** Offsets from this one (within each partition read). */
  fromOffset?: number;
  /** Keyset position of the last message already served. */
  after?: { partition: number; offset: number };
  limit: number;
}

/** Filters of GET /messages, across a tenant's streams. */
export interface MessageQuery {
  stream?: StreamRef;
  /** Only messages whose latest delivery to this workflow has this status. */
  delivery?: { workflow: string; status: string };
  since?: Date;
  until?: Date;
  afterId?: string;
  limit: number;
}

export interface StreamBackend {
  readonly name: 'postgres' | 'nats';
  /** Prepares storage for a new stream, or for one whose partitions grew or retention changed. */
  provision(db: Knex | Knex.Transaction, stream: StreamRef): Promise<void>;
  /** Drops a deleted stream's messages, or leaves them to `enforceRetention` (postgres: in batches). */
  discard(db: Knex | Knex.Transaction, stream: StreamRef): Promise<void>;
  /**
   * Appends the messages; offsets grow within each partition in the order given. postgres: in the
   * caller's transaction (atomic, dense offsets). nats: published before the caller commits, with
   * `dedupKey`-derived message ids for JetStream's de-duplication; nothing is published on a dry run.
   */
  append(
    db: Knex.Transaction,
    stream: StreamRef,
    messages: readonly NewMessage[],
    now: Date,
    options: AppendOptions,
  ): Promise<Appended[]>;
  /**
   * The same append as parts of a combined write (one statement, no transaction around it), for
   * appenders that need no offsets back (sources): postgres moves each partition's counter and
   * inserts the messages after it, and the statement fails when a partition is gone (the stream
   * deleted meanwhile). Backends without it (nats) append in a transaction.
   */
  appendIn?(write: CombinedWrite, stream: StreamRef, messages: readonly NewMessage[], now: Date): void;
  /**
   * Backends whose messages live outside the database (nats): publishes messages before the
   * call's transaction opens, so no database connection is held while the server acknowledges
   * (on the embedded database that one connection serves every write); `append` then records
   * them, given the result as `options.published`. postgres has none: its append is the INSERT.
   */
  publishAhead?(stream: StreamRef, messages: readonly NewMessage[], now: Date): Promise<Appended[]>;
  read(db: Knex | Knex.Transaction, stream: StreamRef, request: ReadRequest): Promise<StoredMessage[]>;
  /** A message of one of the tenant's streams (never of a deleted one). */
  get(db: Knex | Knex.Transaction, tenantId: string, id: string): Promise<StoredMessage | undefined>;
  /** A tenant's messages of live streams in id order (ids grow with time), for GET /messages. */
  list(db: Knex | Knex.Transaction, tenantId: string, query: MessageQuery): Promise<StoredMessage[]>;
  /** The next offset of each partition (where a reader starting now begins), by partition. */
  ends(db: Knex | Knex.Transaction, stream: StreamRef): Promise<number[]>;
  /** How many retained messages of a partition have an offset at or after `fromOffset`. */
  pending(db: Knex | Knex.Transaction, stream: StreamRef, partition: number, fromOffset: number): Promise<number>;
  /** Removes messages beyond retention and of deleted streams, at most `batch` at a time; the number removed. */
  enforceRetention(db: Knex, batch: number, now: Date): Promise<number>;
  close?(): Promise<void>;
}
