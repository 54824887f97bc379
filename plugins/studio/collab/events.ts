import type { Knex } from 'knex';
import { applyAwarenessUpdate } from 'y-protocols/awareness';
import * as Y from 'yjs';
import type { Events } from '../../../kernel/plugin/api.js';
import { statusMessage } from './protocol.js';
import { close, type Room, send } from './room.js';

/** The kernel event that carries a document's changes to every instance. */
export const COLLAB_TOPIC = 'studio.collab';

/** What one instance (or the files API, `from: 'api'`) tells the others about a workspace's document. */
export type CollabEvent =
  | { kind: 'update' | 'awareness'; tenant: string; workspace: string; from: string; data: string }
  | { kind: 'saved'; tenant: string; workspace: string; from: string; revision: number; by: string | null }
  | { kind: 'deleted'; tenant: string; workspace: string };

/** Origins of document changes that did not come from a client of this instance. */
export const REMOTE = Symbol('remote');
export const LOADED = Symbol('loaded');
export const LEFT = Symbol('left');

const CLOSE_GONE = 4404;

export function publishCollab(events: Events, payload: CollabEvent, db?: Knex | Knex.Transaction): Promise<string> {
  return events.publish(COLLAB_TOPIC, payload, db ? { db } : {});
}

/**
 * Applies another instance's event to this instance's room: its edits and awareness (marked
 * REMOTE, so they are relayed to the room's clients but neither stored nor published again),
 * its saves (told to the clients), a deleted workspace (its sockets closed, the room dropped).
 * This instance's own events come back too and are skipped, except the deletion.
 */
export function applyCollabEvent(room: Room, payload: CollabEvent, instance: string, drop: () => void): void {
  if (payload.kind === 'deleted') {
    for (const conn of room.conns.values()) close(conn.socket, CLOSE_GONE, 'workspace deleted');
    drop();
    return;
  }
  if (payload.from === instance) return;
  if (payload.kind === 'update') Y.applyUpdate(room.doc, Buffer.from(payload.data, 'base64'), REMOTE);
  else if (payload.kind === 'awareness')
    applyAwarenessUpdate(room.awareness, Buffer.from(payload.data, 'base64'), REMOTE);
  else if (payload.kind === 'saved')
    for (const conn of room.conns.values())
      send(conn.socket, statusMessage({ saved: { revision: payload.revision, unchanged: false, by: payload.by } }));
}
