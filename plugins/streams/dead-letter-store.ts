import type { Knex } from 'knex';
import type { CombinedWrite } from '../../kernel/plugin/api.js';

/**
 * The one definition of a workflow's dead letters, in SQL, for every reader: a message is *dead*
 * for a workflow while it has a row in `streams_dead_letters` (its latest delivery died and no
 * replay superseded it; migrations/005 says which transactions keep the rows). `GET /messages?
 * status=dead`, the redrive, the dashboard's dead letters and the alerts' `dlq_depth` all read
 * these rows, so they cannot disagree. A dead message that was replayed (redriven) is *redriven*:
 * listed with `status=redriven` and the id of its replay.
 *
 * Both predicates are over a messages table aliased `m`, with the workflow as their one binding.
 */
export const OPEN_DEAD_LETTER = `EXISTS (SELECT 1 FROM streams_dead_letters l
  WHERE l.tenant_id = m.tenant_id AND l.workflow = ? AND l.message_id = m.id)`;

/** Replays of a message, whichever backend appended them (postgres: the message row; nats: the replay index). */
const REPLAYED = `(EXISTS (SELECT 1 FROM streams_messages r WHERE r.tenant_id = m.tenant_id AND r.replay_of = m.id)
  OR EXISTS (SELECT 1 FROM streams_message_replays r WHERE r.tenant_id = m.tenant_id AND r.replay_of = m.id))`;

/** Its latest delivery to the workflow died, and it was replayed since. */
export const REDRIVEN = `EXISTS (SELECT 1 FROM streams_deliveries d WHERE d.tenant_id = m.tenant_id AND d.message_id = m.id AND d.workflow = ? AND d.status = 'dead'
  AND d.attempt = (SELECT max(d2.attempt) FROM streams_deliveries d2 WHERE d2.tenant_id = d.tenant_id AND d2.message_id = d.message_id AND d2.workflow = d.workflow))
  AND ${REPLAYED}`;

/**
 * Takes these messages out of the workflow's dead letters and answers the ids that were still
 * there: a redrive replays only those, so two redrives (or two at once: the second waits on the
 * rows the first deletes, then finds them gone) replay each dead message once.
 */
export async function claimDeadLetters(
  db: Knex | Knex.Transaction,
  tenantId: string,
  workflow: string,
  messageIds: readonly string[],
): Promise<Set<string>> {
  if (messageIds.length === 0) return new Set();
  const rows = (await db('streams_dead_letters')
    .where({ tenant_id: tenantId, workflow })
    .whereIn('message_id', [...messageIds])
    .delete()
    .returning('message_id')) as Array<{ message_id: string }>;
  return new Set(rows.map((r) => r.message_id));
}

/** The replays of each of these messages (oldest first), from either backend's records. */
export async function replaysOf(
  db: Knex | Knex.Transaction,
  tenantId: string,
  messageIds: readonly string[],
): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (messageIds.length === 0) return out;
  const ids = [...messageIds];
  const rows = (await db
    .select('replay_of', 'id')
    .from('streams_messages')
    .where({ tenant_id: tenantId })
    .whereIn('replay_of', ids)
    .union((q) =>
      q
        .select('replay_of', 'id')
        .from('streams_message_replays')
        .where({ tenant_id: tenantId })
        .whereIn('replay_of', ids),
    )
    .orderBy('id')) as Array<{ replay_of: string; id: string }>;
  for (const r of rows) out.set(r.replay_of, [...(out.get(r.replay_of) ?? []), r.id]);
  return out;
}

/** Drops a tenant's open dead letters of these messages (they were replayed). */
export async function dropDeadLetters(
  db: Knex | Knex.Transaction,
  tenantId: string,
  messageIds: readonly string[],
): Promise<void> {
  await db('streams_dead_letters').where({ tenant_id: tenantId }).whereIn('message_id', messageIds).delete();
}

/** The same, as a part of a combined write (committed with the append it belongs to). */
export function dropDeadLettersWith(write: CombinedWrite, tenantId: string, messageIds: string[]): void {
  write.add(
    'streams_dead_letters',
    'DELETE FROM streams_dead_letters WHERE tenant_id = ? AND message_id = ANY(?::text[])',
    [tenantId, messageIds],
  );
}
