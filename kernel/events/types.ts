import type { Knex } from 'knex';
import type { CombinedWrite } from '../db/combined-write.js';

export interface KernelEvent {
  /** Increasing in publish order within a transaction; unique. */
  readonly id: string;
  readonly topic: string;
  readonly payload: unknown;
  readonly publishedAt: Date;
}

export type EventHandler = (event: KernelEvent) => void | Promise<void>;

/**
 * Events between plugins and between instances. An event is a row in `kernel_events`, published
 * in the caller's transaction when one is given (so it exists only if the work commits), and
 * delivered to the subscribers of every running instance: at once through a database
 * notification, and by polling when a notification is lost. Each subscriber gets each event
 * published while its instance runs once; events published while an instance is down are not
 * replayed to it, so durable work belongs in the plugin's own tables, and an event only says
 * "look now".
 */
export interface Events {
  /**
   * Publishes an event; resolves with its id. Inside a transaction pass it as `db`: the event
   * then commits or rolls back with the work (and on the embedded database, whose one
   * connection the transaction holds, publishing outside it would wait for it forever).
   */
  publish(topic: string, payload: unknown, options?: { db?: Knex | Knex.Transaction }): Promise<string>;
  /** Adds the event to a call's combined write: it is published when that statement commits, and never otherwise. */
  publishIn(write: CombinedWrite, topic: string, payload: unknown): Promise<void>;
  /** Calls `handler` for each event of `topic`, one at a time in order; returns the unsubscribe function. */
  subscribe(topic: string, handler: EventHandler): () => void;
}
