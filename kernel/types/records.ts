/** What the kernel records besides the effect of a call: the audit trail and runtime logs, and their sinks. */
import type { Knex } from 'knex';
import type { CombinedWrite } from '../db/combined-write.js';
import type { Attribution, Principal, Transport } from './call.js';

export type AuditOutcome = 'success' | 'refused' | 'failed' | 'replayed' | 'dry_run';

/** Record of one mutating call, written by the kernel's audit step through an AuditSink. */
export interface AuditEntry {
  tenantId: string;
  operation: string;
  method: string;
  path: string;
  resourceId: string | null;
  status: number;
  /**
   * success: the effect committed; refused: a 4xx; failed: a 5xx; replayed: an idempotent
   * retry answered from the stored response; dry_run: checked and rolled back, nothing persisted.
   */
  outcome: AuditOutcome;
  errorCode: string | null;
  requestId: string;
  idempotencyKey: string | null;
  principal: Principal | null;
  attribution: Attribution;
  fields: Record<string, unknown>;
  detail: Record<string, unknown>;
  severity: 'info' | 'critical';
  transport: Transport;
  at: Date;
}

export interface AuditSink {
  /** Writes the record using `db`, which is the call's own transaction when it has one. */
  write(db: Knex | Knex.Transaction, entry: AuditEntry): Promise<void>;
  /** Adds the record to a call's combined write, so it commits with the effect in one statement; without it, such calls run in a transaction. */
  addTo?(write: CombinedWrite, entry: AuditEntry): void;
}

/** What a runtime log record holds (GET /logs). */
export interface LogRecord {
  tenantId: string;
  level: 'debug' | 'info' | 'warn' | 'error';
  source: string;
  message: string;
  fields?: Record<string, unknown>;
}

export interface LogSink {
  /**
   * Accepts a record; resolves once it is queued, not stored, so a caller inside a request's
   * transaction never waits for the database (the embedded one has a single connection).
   */
  write(record: LogRecord): Promise<void>;
  /** Resolves when every record accepted so far is stored. */
  flush?(): Promise<void>;
}
