import type { Knex } from 'knex';
import { extensionPoint, type CombinedWrite } from '../../kernel/plugin/api.js';

/**
 * What the workflows plugin offers other plugins: the single extension point `workflows.streams`
 * through which the streams plugin gives its streams, messages, consumer offsets and deliveries
 * (plugins/streams/workflow-streams.ts), usable inside the worker's transaction without importing
 * its code. (Components referenced by id come through the components plugin's own
 * `components.directory` point, plugins/components/contract.ts.) A plain JavaScript plugin
 * contributes with `{ point: { id: 'workflows.streams' }, value: {...} }`.
 */

type Db = Knex | Knex.Transaction;

/** A stream as a workflow uses it. */
export interface WorkflowStream {
  tenantId: string;
  id: string;
  /** Internal identity (a stream re-created under the same id is another stream). */
  uid: string;
  partitions: number;
  codec: string | null;
}

/** One stored message, as a worker reads it. */
export interface WorkflowInputMessage {
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
}

/** One message a workflow writes into a stream: a value (encoded by the stream's codec, JSON without one) or raw bytes. */
export interface WorkflowOutputMessage {
  key: string | null;
  headers: Record<string, string>;
  value?: unknown;
  body?: Uint8Array;
  contentType?: string;
  replayOf?: string | null;
}

export interface WorkflowDelivery {
  tenantId: string;
  messageId: string;
  workflow: string;
  revision: number;
  runId: string;
  status: 'processed' | 'filtered' | 'failed' | 'dead';
  error: string | null;
  /** Ids of the messages the attempt wrote, or other small JSON about what it delivered. */
  outputs: unknown[];
  at: Date;
  /** When the message was published: the dashboard's end-to-end latency reads it from the delivery. */
  publishedAt?: Date;
}

export interface WorkflowStreams {
  /** `postgres`: appends join the caller's transaction (exactly-once stream → workflow → stream). */
  readonly backend: 'postgres' | 'nats';
  stream(db: Db, tenantId: string, id: string): Promise<WorkflowStream | undefined>;
  /** Messages of one partition from `fromOffset` on, in offset order. */
  read(
    db: Db,
    stream: WorkflowStream,
    partition: number,
    fromOffset: number,
    limit: number,
  ): Promise<WorkflowInputMessage[]>;
  /** One message by id (any of the tenant's live streams). */
  message(db: Db, tenantId: string, id: string): Promise<WorkflowInputMessage | undefined>;
  /** Appends in the caller's transaction; refuses (throws) a value the stream's codec does not take. */
  publish(
    trx: Knex.Transaction,
    stream: WorkflowStream,
    messages: readonly WorkflowOutputMessage[],
  ): Promise<Array<{ id: string; partition: number; offset: number }>>;
  /** The next offset the consumer reads in the partition (0 when it never committed). */
  committed(db: Db, stream: WorkflowStream, consumer: string, partition: number): Promise<number>;
  /**
   * Moves the consumer's offset from `expected` to `nextOffset`; false (and nothing changed) when
   * it was no longer at `expected` (someone else committed meanwhile). `deliveries` are recorded in
   * the same statement (as recordDeliveries would); on false the caller must roll back.
   */
  commit(
    trx: Knex.Transaction,
    stream: WorkflowStream,
    consumer: string,
    partition: number,
    expected: number,
    nextOffset: number,
    deliveries?: readonly WorkflowDelivery[],
  ): Promise<boolean>;
  /**
   * `commit` as parts of a combined write (one statement, no transaction): the deliveries and the
   * offset's move from `expected` to `nextOffset`. When the offset was no longer at `expected`
   * nothing of the write commits and it throws RunInTransaction (the caller's transactional path
   * then sees why). Optional: without it the worker commits in a transaction.
   */
  commitIn?(
    write: CombinedWrite,
    stream: WorkflowStream,
    consumer: string,
    partition: number,
    expected: number,
    nextOffset: number,
    deliveries: readonly WorkflowDelivery[],
  ): void;
  /** Drops a consumer's offsets on every stream of the tenant (its workflow was deleted; one re-created under the id starts afresh). */
  forgetConsumer(trx: Knex.Transaction, tenantId: string, consumer: string): Promise<void>;
  /** Records attempts, in one statement; each one's number is the next for its message and workflow. */
  recordDeliveries(trx: Knex.Transaction, deliveries: readonly WorkflowDelivery[]): Promise<void>;
  /** The next offset to be written in the partition (lag = end − committed). */
  end(db: Db, stream: WorkflowStream, partition: number): Promise<number>;
  /** Wake-up hint when messages were appended to a stream's partitions; returns an unsubscribe. */
  onAppended(handler: (tenantId: string, streamUid: string, partitions: readonly number[]) => void): () => void;
}

export const workflowStreams = extensionPoint<WorkflowStreams>('workflows.streams', { single: true });

/** A configured component as a workflow step or sink uses it. */
export interface ResolvedComponent {
  type: string;
  config: Record<string, unknown>;
}
