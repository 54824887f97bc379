import type { JobSpec } from '../jobs/types.js';
import { deleteExpiredRows } from '../db/expired-rows.js';
import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { ApiError } from '../errors.js';
import type { Call, Clock, HeldCredential, Migration, Principal, TicketService } from '../types.js';

export const TICKETS_TABLE = 'kernel_socket_tickets';

/** How long a ticket opens its socket (RUNTIME.md: 30 s, one use). */
export const TICKET_TTL_SECONDS = 30;

const PREFIX = 'wst_';
const SHAPE = /^wst_[A-Za-z0-9_-]{43}$/;
const CHANNEL = /^[a-z][a-z0-9_-]{0,63}$/;
const MAX_RESOURCE = 256;

export const ticketsMigration: Migration = {
  name: '004_kernel_socket_tickets',
  async up(db) {
    await db.schema.createTable(TICKETS_TABLE, (t) => {
      t.text('tenant_id').notNullable();
      t.text('ticket_hash').notNullable().unique();
      t.text('subject_id').notNullable();
      /** The minter's principal as it was then: its credential names it again at redemption. */
      t.jsonb('principal').notNullable();
      t.text('resource').notNullable();
      t.text('channel').notNullable();
      t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable();
      t.timestamp('expires_at', { useTz: true, precision: 3 }).notNullable();
      t.timestamp('used_at', { useTz: true, precision: 3 });
      t.primary(['tenant_id', 'ticket_hash']);
      t.index(['expires_at']);
    });
  },
  async down(db) {
    await db.schema.dropTable(TICKETS_TABLE);
  },
};

/** The principal as a ticket stores it (JSON: the permission set as an array). */
interface StoredPrincipal {
  subjectId: string;
  tenantId: string;
  credential: Principal['credential'];
  roles: string[];
  permissions: string[];
  readOnly?: boolean;
  email?: string;
}

/** What a redeemed ticket was bound to. */
export interface RedeemedTicket {
  tenantId: string;
  resource: string;
  channel: string;
  /** The minter's principal as it was at minting (the fallback for credentials that cannot be resumed). */
  minted: Principal;
  held: HeldCredential;
}

export interface TicketStore extends TicketService {
  /**
   * Marks the ticket used and returns what it was bound to, or null when it is unknown, used or
   * expired. One atomic UPDATE: of two instances redeeming the same ticket at once, one wins.
   * Any redemption uses the ticket up, even one the caller then refuses (wrong channel, say).
   */
  redeem(db: Knex, ticket: string, now: Date): Promise<RedeemedTicket | null>;
  /** Deletes tickets that expired more than a minute ago, in batches; returns how many. */
  purge(db: Knex, now: Date): Promise<number>;
}

function sha256(ticket: string): string {
  return createHash('sha256').update(ticket).digest('hex');
}

function storedPrincipal(principal: Principal): StoredPrincipal {
  const stored: StoredPrincipal = {
    subjectId: principal.subjectId,
    tenantId: principal.tenantId,
    credential: { kind: principal.credential.kind, id: principal.credential.id },
    roles: [...principal.roles],
    permissions: [...principal.permissions],
  };
  if (principal.readOnly) stored.readOnly = true;
  if (principal.email !== undefined) stored.email = principal.email;
  return stored;
}

function principalOf(stored: StoredPrincipal): Principal {
  const principal: Principal = {
    subjectId: stored.subjectId,
    tenantId: stored.tenantId,
    credential: stored.credential,
    roles: stored.roles,
    permissions: new Set(stored.permissions),
  };
  if (stored.readOnly) principal.readOnly = true;
  if (stored.email !== undefined) principal.email = stored.email;
  return principal;
}

interface RedeemedRow {
  tenant_id: string;
  principal: StoredPrincipal | string;
  resource: string;
  channel: string;
}

const PURGE_BATCH = 5000;

export function createTicketStore(clock: Clock): TicketStore {
  return {
    async mint(call: Call, binding) {
      const principal = call.principal;
      const tenantId = call.tenantId;
      // Programming errors of the minting plugin, not of its caller.
      if (!principal || !tenantId) throw new Error('a ticket is minted on an authenticated, tenant-scoped route');
      if (!CHANNEL.test(binding.channel))
        throw new Error(`ticket channel "${binding.channel}" must match ${CHANNEL.source}`);
      if (
        typeof binding.resource !== 'string' ||
        binding.resource.length === 0 ||
        binding.resource.length > MAX_RESOURCE
      ) {
        throw new ApiError('bad_request', `A ticket's resource is 1 to ${MAX_RESOURCE} characters.`);
      }
      const ticket = PREFIX + randomBytes(32).toString('base64url');
      const now = clock.now();
      const expiresAt = new Date(now.getTime() + TICKET_TTL_SECONDS * 1000);
      await call.db(TICKETS_TABLE).insert({
        tenant_id: tenantId,
        ticket_hash: sha256(ticket),
        subject_id: principal.subjectId,
        principal: JSON.stringify(storedPrincipal(principal)),
        resource: binding.resource,
        channel: binding.channel,
        created_at: now,
        expires_at: expiresAt,
      });
      return { ticket, expires_at: expiresAt.toISOString() };
    },

    async redeem(db, ticket, now) {
      // A malformed ticket is refused without a database read.
      if (!SHAPE.test(ticket)) return null;
      const result = await db.raw(
        `UPDATE ${TICKETS_TABLE} SET used_at = ?
          WHERE ticket_hash = ? AND used_at IS NULL AND expires_at > ?
          RETURNING tenant_id, principal, resource, channel`,
        [now, sha256(ticket), now],
      );
      const row = (result.rows as RedeemedRow[])[0];
      if (!row) return null;
      const stored = typeof row.principal === 'string' ? (JSON.parse(row.principal) as StoredPrincipal) : row.principal;
      return {
        tenantId: row.tenant_id,
        resource: row.resource,
        channel: row.channel,
        minted: principalOf(stored),
        held: { tenantId: stored.tenantId, subjectId: stored.subjectId, credential: stored.credential },
      };
    },

    purge: (db, now) => deleteExpiredRows(db, TICKETS_TABLE, new Date(now.getTime() - 60_000), PURGE_BATCH),
  };
}

/** Expired tickets are deleted by one instance at a time, every ten minutes (a kernel job). */
export function ticketPurgeJob(db: Knex, tickets: TicketStore, clock: Clock): JobSpec {
  return {
    name: 'kernel.ticket-purge',
    intervalMs: 10 * 60_000,
    run: async () => void (await tickets.purge(db, clock.now())),
  };
}
