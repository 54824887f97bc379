import type { Knex } from 'knex';
import { GUARD } from '../batch.js';

/** What the stores share. Every query names the tenant first. */

/** `guarded`: the write tests the batch's guard (see WriteBatch.runGuarded) and does nothing without it. */
export const GUARDED = ` where exists (select 1 from ${GUARD})`;

export type Db = Knex | Knex.Transaction;
export const iso = (d: unknown): string | null =>
  d === null || d === undefined ? null : new Date(d as string).toISOString();
