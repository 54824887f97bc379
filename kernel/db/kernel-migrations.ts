import type { Migration } from '../types.js';
import { secretsMigration } from '../secrets.js';
import { idempotencyMigration, keyExpiryIndexMigration } from '../idempotency/store.js';
import { leasesMigration } from '../jobs/lease-store.js';
import { eventsMigration } from '../events/store.js';
import { requireFunctionMigration } from './combined-write.js';
import { ticketsMigration } from '../realtime/tickets.js';

/** The kernel's own tables, migrated before any plugin's. */
export const kernelMigrations: Migration[] = [
  secretsMigration,
  idempotencyMigration,
  keyExpiryIndexMigration,
  leasesMigration,
  eventsMigration,
  ticketsMigration,
  requireFunctionMigration,
];
