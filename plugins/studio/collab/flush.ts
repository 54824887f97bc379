import type { Knex } from 'knex';
import type { Logger } from 'pino';
import * as Y from 'yjs';
import type { Events } from '../../../kernel/plugin/api.js';
import type { Clock } from '../../../kernel/types.js';
import { publishCollab } from './events.js';
import type { Room } from './room.js';
import type { CollabStore } from './store.js';

const RETRY_MS = 1000;

/**
 * Stores the room's pending edits as one update and tells the other instances, in one
 * transaction (so an instance never hears of an edit that is not stored). Flushes of a room run
 * one after another; one that fails keeps its edits and tries again shortly.
 */
export function flushRoom(
  o: { db: Knex; store: CollabStore; events: Events; clock: Clock; logger: Logger; instance: string },
  room: Room,
): Promise<void> {
  clearTimeout(room.flushTimer);
  room.flushTimer = undefined;
  room.flushing = room.flushing.then(async () => {
    if (room.pending.length === 0) return;
    const update = Y.mergeUpdates(room.pending);
    room.pending = [];
    try {
      await o.db.transaction(async (trx) => {
        // A workspace deleted meanwhile takes its document with it: no stray rows for a
        // workspace later re-created under the same id to inherit.
        if (!(await o.store.share(trx, room.tenantId, room.workspaceId))) return;
        await o.store.append(trx, room.tenantId, room.workspaceId, update, o.clock.now());
        await publishCollab(
          o.events,
          {
            kind: 'update',
            tenant: room.tenantId,
            workspace: room.workspaceId,
            from: o.instance,
            data: Buffer.from(update).toString('base64'),
          },
          trx,
        );
      });
    } catch (err) {
      // Kept in memory and tried again: the clients already have the edit.
      o.logger.warn({ err, workspace: room.workspaceId }, 'collab edit could not be stored yet');
      room.pending.unshift(update);
      if (!room.retired && !room.flushTimer) room.flushTimer = setTimeout(() => flushRoom(o, room), RETRY_MS);
    }
  });
  return room.flushing;
}
