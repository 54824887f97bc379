import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import * as encoding from 'lib0/encoding';
import type { Logger } from 'pino';
import type { WebSocket } from 'ws';
import { encodeAwarenessUpdate, removeAwarenessStates } from 'y-protocols/awareness';
import * as sync from 'y-protocols/sync';
import * as Y from 'yjs';
import type { AuditTrail, Events } from '../../../kernel/plugin/api.js';
import type { Clock, Principal } from '../../../kernel/types.js';
import type { FileLimits, FileMap } from '../files.js';
import type { FileChanges } from '../handlers.js';
import { greet, handleClientMessage } from './client-messages.js';
import { applyFiles, docFrom } from './doc.js';
import { applyCollabEvent, COLLAB_TOPIC, LEFT, LOADED, publishCollab, REMOTE, type CollabEvent } from './events.js';
import { flushRoom } from './flush.js';
import { message, MESSAGE_AWARENESS, MESSAGE_SYNC, statusMessage } from './protocol.js';
import { asBytes, close, type Conn, Room, send } from './room.js';
import { writeRevision, type SaveResult, type SaveTrigger } from './save.js';
import { CollabStore } from './store.js';

export { COLLAB_TOPIC } from './events.js';

export interface CollabSettings {
  idle_save_ms: number;
  compact_after: number;
  linger_ms: number;
}

/** Edits of this instance's clients are gathered this long into one stored update and one event. */
const FLUSH_MS = 15;

/** A workspace that does not exist (the 404 of a socket). */
const CLOSE_GONE = 4404;
const CLOSE_MALFORMED = 1007;
const CLOSE_INTERNAL = 1011;

export type { SaveResult } from './save.js';

/**
 * Collaborative editing: one Yjs document per workspace, held in memory by each instance that
 * has clients on it (a "room"). Every edit a client sends is applied, relayed to the room's
 * other clients, stored (append-only, merged into few rows now and then) and published as a
 * kernel event, which the other instances apply to their copy of the room. Awareness (cursors,
 * names) travels the same way but is never stored. The stored updates are the truth: a room is
 * built from them when its first client joins, and a save reads them whole.
 *
 * Saving makes a file revision equal to the merged document: on a client's explicit save
 * message, and after `idle_save_ms` without an edit when this instance's clients edited since
 * the last save. A save that would change nothing makes no revision.
 *
 * This class holds the rooms and their lifetimes; beside it: client-messages.ts (a socket's
 * messages), flush.ts (storing edits), save.ts (a revision), events.ts (the other instances).
 */
export class Collab implements FileChanges {
  private readonly rooms = new Map<string, Room>();
  private readonly instance = randomUUID();
  private readonly store: CollabStore;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly input: {
      db: Knex;
      events: Events;
      clock: Clock;
      logger: Logger;
      audit: AuditTrail;
      settings: CollabSettings;
      limits: FileLimits;
    },
  ) {
    this.store = new CollabStore(input.db);
  }

  start(): void {
    this.unsubscribe = this.input.events.subscribe(COLLAB_TOPIC, (event) => this.onEvent(event.payload as CollabEvent));
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    await Promise.all([...this.rooms.values()].map((room) => this.retire(room, true)));
  }

  /** Rooms this instance holds (tests, metrics). */
  get size(): number {
    return this.rooms.size;
  }

  /** Serves a collab socket: the room's state first, then every message in order. */
  join(
    socket: WebSocket,
    who: { tenantId: string; workspaceId: string; principal: Principal; canWrite: boolean },
  ): void {
    const room = this.room(who.tenantId, who.workspaceId);
    const conn: Conn = {
      socket,
      principal: who.principal,
      canWrite: who.canWrite,
      clients: new Set(),
      chain: Promise.resolve(),
      toldReadOnly: false,
    };
    room.conns.set(socket, conn);
    const fail = (err: unknown) => {
      // What the client sent does not decode or apply (a broken update): its socket closes.
      this.input.logger.warn({ err, workspace: room.workspaceId }, 'collab message refused');
      close(socket, CLOSE_MALFORMED, 'malformed message');
    };
    conn.chain = room.ready.then(
      (exists) => {
        if (!exists) return close(socket, CLOSE_GONE, 'no such workspace');
        greet(socket, room);
      },
      (err: unknown) => {
        this.input.logger.error({ err, workspace: room.workspaceId }, 'collab document could not be loaded');
        close(socket, CLOSE_INTERNAL, 'document unavailable');
      },
    );
    socket.on('message', (data: Buffer | ArrayBuffer | Buffer[]) => {
      const bytes = asBytes(data);
      conn.chain = conn.chain
        .then(() =>
          handleClientMessage(
            { limits: this.input.limits, logger: this.input.logger, save: (r, p, t) => this.save(r, p, t) },
            room,
            conn,
            bytes,
          ),
        )
        .catch(fail);
    });
    socket.once('close', () => this.leave(room, conn));
  }

  private room(tenantId: string, workspaceId: string): Room {
    const key = `${tenantId}\u001f${workspaceId}`;
    let room = this.rooms.get(key);
    if (room && !room.retired) {
      clearTimeout(room.lingerTimer);
      return room;
    }
    const created = new Room(tenantId, workspaceId);
    created.doc.on('update', (update: Uint8Array, origin: unknown) => this.onDocUpdate(created, update, origin));
    created.awareness.on(
      'update',
      (changes: { added: number[]; updated: number[]; removed: number[] }, origin: unknown) =>
        this.onAwareness(created, changes, origin),
    );
    // A room whose document is gone or could not be read is dropped at once, so the next join
    // starts afresh instead of inheriting the failure.
    created.ready = this.load(created).then(
      (exists) => {
        if (!exists) this.drop(created);
        return exists;
      },
      (err: unknown) => {
        this.drop(created);
        throw err;
      },
    );
    this.rooms.set(key, created);
    room = created;
    return room;
  }

  private async load(room: Room): Promise<boolean> {
    if (!(await this.store.ensure(room.tenantId, room.workspaceId, this.input.clock.now()))) return false;
    const updates = await this.store.updates(this.input.db, room.tenantId, room.workspaceId);
    if (updates.length > 0) Y.applyUpdate(room.doc, Y.mergeUpdates(updates), LOADED);
    if (updates.length >= this.input.settings.compact_after) this.compact(room);
    return true;
  }

  private compact(room: Room): void {
    this.store
      .compact(room.tenantId, room.workspaceId, this.input.clock.now())
      .catch((err: unknown) =>
        this.input.logger.warn({ err, workspace: room.workspaceId }, 'collab updates could not be compacted'),
      );
  }

  private onDocUpdate(room: Room, update: Uint8Array, origin: unknown): void {
    const relayed = message(MESSAGE_SYNC, (encoder) => sync.writeUpdate(encoder, update));
    for (const conn of room.conns.values()) if (conn !== origin) send(conn.socket, relayed);
    if (origin === LOADED) return;
    if (origin !== REMOTE) {
      const conn = origin as Conn;
      room.pending.push(update);
      room.dirty = true;
      room.lastEditor = conn.principal;
      if (!room.flushTimer) room.flushTimer = setTimeout(() => this.flush(room), FLUSH_MS);
    }
    this.resetIdle(room);
  }

  private flush(room: Room): Promise<void> {
    return flushRoom({ ...this.input, store: this.store, instance: this.instance }, room);
  }

  private onAwareness(
    room: Room,
    changes: { added: number[]; updated: number[]; removed: number[] },
    origin: unknown,
  ): void {
    const changed = [...changes.added, ...changes.updated, ...changes.removed];
    if (changed.length === 0) return;
    if (origin !== REMOTE && origin !== LEFT && origin !== null && typeof origin === 'object') {
      const conn = origin as Conn;
      for (const id of changes.added) conn.clients.add(id);
      for (const id of changes.removed) conn.clients.delete(id);
    }
    const update = encodeAwarenessUpdate(room.awareness, changed);
    const relayed = message(MESSAGE_AWARENESS, (encoder) => encoding.writeVarUint8Array(encoder, update));
    for (const conn of room.conns.values()) send(conn.socket, relayed);
    if (origin !== REMOTE) {
      this.publish({
        kind: 'awareness',
        tenant: room.tenantId,
        workspace: room.workspaceId,
        from: this.instance,
        data: Buffer.from(update).toString('base64'),
      }).catch((err: unknown) => this.input.logger.debug({ err }, 'awareness not relayed'));
    }
  }

  private resetIdle(room: Room): void {
    clearTimeout(room.idleTimer);
    if (!room.dirty || room.retired) return;
    room.idleTimer = setTimeout(() => {
      if (!room.dirty || room.retired) return;
      this.save(room, room.lastEditor, 'idle').catch((err: unknown) =>
        this.input.logger.warn({ err, workspace: room.workspaceId }, 'idle collab save failed'),
      );
    }, this.input.settings.idle_save_ms);
    room.idleTimer.unref();
  }

  /**
   * Makes a file revision equal to the document as stored (every instance's stored edits, this
   * one's pending ones flushed first). No revision when the files would not change.
   */
  async save(room: Room, principal: Principal | null, trigger: SaveTrigger): Promise<SaveResult> {
    await this.flush(room);
    const { tenantId, workspaceId } = room;
    const result = await writeRevision(
      {
        ...this.input,
        store: this.store,
        publishSaved: (trx, revision, by) =>
          this.publish(
            { kind: 'saved', tenant: tenantId, workspace: workspaceId, from: this.instance, revision, by },
            trx,
          ),
      },
      room,
      principal,
      trigger,
    );
    if (room.pending.length === 0) room.dirty = false;
    room.unsavedBytes = 0;
    if (!result.unchanged) for (const conn of room.conns.values()) send(conn.socket, statusMessage({ saved: result }));
    return result;
  }

  private leave(room: Room, conn: Conn): void {
    room.conns.delete(conn.socket);
    if (room.retired) return;
    if (conn.clients.size > 0) removeAwarenessStates(room.awareness, [...conn.clients], LEFT);
    if (room.conns.size > 0) return;
    clearTimeout(room.lingerTimer);
    room.lingerTimer = setTimeout(() => void this.retire(room, false), this.input.settings.linger_ms);
    room.lingerTimer.unref();
  }

  /** Drops a room nobody uses (or all, at shutdown): pending edits stored, unsaved ones saved. */
  private async retire(room: Room, shutdown: boolean): Promise<void> {
    if (room.retired || (!shutdown && room.conns.size > 0)) return;
    clearTimeout(room.lingerTimer);
    clearTimeout(room.idleTimer);
    try {
      await this.flush(room);
      if (room.dirty) await this.save(room, room.lastEditor, shutdown ? 'shutdown' : 'left');
    } catch (err) {
      this.input.logger.warn({ err, workspace: room.workspaceId }, 'collab document could not be saved when put away');
    }
    if (!shutdown && room.conns.size > 0) return this.resetIdle(room);
    this.drop(room);
  }

  private drop(room: Room): void {
    room.retired = true;
    clearTimeout(room.flushTimer);
    clearTimeout(room.idleTimer);
    clearTimeout(room.lingerTimer);
    const key = `${room.tenantId}\u001f${room.workspaceId}`;
    if (this.rooms.get(key) === room) this.rooms.delete(key);
    room.awareness.destroy();
    room.doc.destroy();
  }

  private publish(payload: CollabEvent, db?: Knex | Knex.Transaction): Promise<string> {
    return publishCollab(this.input.events, payload, db);
  }

  private onEvent(payload: CollabEvent): void {
    if (!payload || typeof payload !== 'object') return;
    const room = this.rooms.get(`${payload.tenant}\u001f${payload.workspace}`);
    if (!room || room.retired) return;
    applyCollabEvent(room, payload, this.instance, () => this.drop(room));
  }

  // FileChanges: what PUT .../files and DELETE do to the shared document, in their transaction.

  async filesWritten(
    db: Knex | Knex.Transaction,
    tenantId: string,
    workspaceId: string,
    files: FileMap,
    revision: number,
  ): Promise<void> {
    const trx = db as Knex.Transaction;
    if (!(await this.store.lock(trx, tenantId, workspaceId))) return;
    const doc = docFrom(await this.store.updates(trx, tenantId, workspaceId));
    const update = applyFiles(doc, files);
    doc.destroy();
    if (update) {
      await this.store.append(trx, tenantId, workspaceId, update, this.input.clock.now());
      // `from` is no instance: every instance's room, this one's included, takes it.
      await this.publish(
        {
          kind: 'update',
          tenant: tenantId,
          workspace: workspaceId,
          from: 'api',
          data: Buffer.from(update).toString('base64'),
        },
        trx,
      );
    }
    await this.store.setRevision(trx, tenantId, workspaceId, revision);
  }

  async workspaceDeleted(db: Knex | Knex.Transaction, tenantId: string, workspaceId: string): Promise<void> {
    await this.publish({ kind: 'deleted', tenant: tenantId, workspace: workspaceId }, db);
  }
}
