import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import type { Logger } from 'pino';
import type { WebSocket } from 'ws';
import { applyAwarenessUpdate, encodeAwarenessUpdate, removeAwarenessStates } from 'y-protocols/awareness';
import * as sync from 'y-protocols/sync';
import * as Y from 'yjs';
import { ApiError } from '../../../kernel/errors.js';
import type { AuditTrail, Events } from '../../../kernel/plugin/api.js';
import type { Clock, Principal } from '../../../kernel/types.js';
import { nextFiles, type FileLimits, type FileMap } from '../files.js';
import type { FileChanges } from '../handlers.js';
import { WorkspaceStore } from '../store.js';
import { applyFiles, docFrom, filesOf } from './doc.js';
import { message, MESSAGE_AWARENESS, MESSAGE_QUERY_AWARENESS, MESSAGE_SAVE, MESSAGE_SYNC, statusMessage } from './protocol.js';
import { asBytes, close, type Conn, Room, sameFiles, send } from './room.js';
import { CollabStore } from './store.js';

/** The kernel event that carries a document's changes to every instance. */
export const COLLAB_TOPIC = 'studio.collab';

export interface CollabSettings {
  idle_save_ms: number;
  compact_after: number;
  linger_ms: number;
}

type Payload =
  | { kind: 'update' | 'awareness'; tenant: string; workspace: string; from: string; data: string }
  | { kind: 'saved'; tenant: string; workspace: string; from: string; revision: number; by: string | null }
  | { kind: 'deleted'; tenant: string; workspace: string };

/** Origins of document changes that did not come from a client of this instance. */
const REMOTE = Symbol('remote');
const LOADED = Symbol('loaded');
const LEFT = Symbol('left');

/** Edits of this instance's clients are gathered this long into one stored update and one event. */
const FLUSH_MS = 15;
const RETRY_MS = 1000;

const CLOSE_GONE = 4404;
const CLOSE_TOO_LARGE = 1009;
/** Unsaved edit bytes a room takes from its clients, in multiples of max_workspace_bytes. */
const UNSAVED_FACTOR = 4;
const CLOSE_MALFORMED = 1007;
const CLOSE_INTERNAL = 1011;

export interface SaveResult {
  revision: number;
  unchanged: boolean;
  by: string | null;
}

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
 */
export class Collab implements FileChanges {
  private readonly rooms = new Map<string, Room>();
  private readonly instance = randomUUID();
  private readonly store: CollabStore;
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly input: { db: Knex; events: Events; clock: Clock; logger: Logger; audit: AuditTrail; settings: CollabSettings; limits: FileLimits }) {
    this.store = new CollabStore(input.db);
  }

  start(): void {
    this.unsubscribe = this.input.events.subscribe(COLLAB_TOPIC, (event) => this.onEvent(event.payload as Payload));
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
  join(socket: WebSocket, who: { tenantId: string; workspaceId: string; principal: Principal; canWrite: boolean }): void {
    const room = this.room(who.tenantId, who.workspaceId);
    const conn: Conn = { socket, principal: who.principal, canWrite: who.canWrite, clients: new Set(), chain: Promise.resolve(), toldReadOnly: false };
    room.conns.set(socket, conn);
    const fail = (err: unknown) => {
      // What the client sent does not decode or apply (a broken update): its socket closes.
      this.input.logger.warn({ err, workspace: room.workspaceId }, 'collab message refused');
      close(socket, CLOSE_MALFORMED, 'malformed message');
    };
    conn.chain = room.ready.then(
      (exists) => {
        if (!exists) return close(socket, CLOSE_GONE, 'no such workspace');
        // The server's state vector: the client answers with what the server lacks.
        send(socket, message(MESSAGE_SYNC, (encoder) => sync.writeSyncStep1(encoder, room.doc)));
        const states = [...room.awareness.getStates().keys()];
        if (states.length > 0) send(socket, message(MESSAGE_AWARENESS, (encoder) => encoding.writeVarUint8Array(encoder, encodeAwarenessUpdate(room.awareness, states))));
      },
      (err: unknown) => {
        this.input.logger.error({ err, workspace: room.workspaceId }, 'collab document could not be loaded');
        close(socket, CLOSE_INTERNAL, 'document unavailable');
      },
    );
    socket.on('message', (data: Buffer | ArrayBuffer | Buffer[]) => {
      const bytes = asBytes(data);
      conn.chain = conn.chain.then(() => this.handle(room, conn, bytes)).catch(fail);
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
    created.awareness.on('update', (changes: { added: number[]; updated: number[]; removed: number[] }, origin: unknown) => this.onAwareness(created, changes, origin));
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
    this.store.compact(room.tenantId, room.workspaceId, this.input.clock.now()).catch((err: unknown) => this.input.logger.warn({ err, workspace: room.workspaceId }, 'collab updates could not be compacted'));
  }

  private async handle(room: Room, conn: Conn, data: Uint8Array): Promise<void> {
    if (room.retired) return;
    const decoder = decoding.createDecoder(data);
    const type = decoding.readVarUint(decoder);
    switch (type) {
      case MESSAGE_SYNC: {
        const step = decoding.readVarUint(decoder);
        if (step === sync.messageYjsSyncStep1) {
          send(conn.socket, message(MESSAGE_SYNC, (encoder) => sync.readSyncStep1(decoder, encoder, room.doc)));
          return;
        }
        if (step !== sync.messageYjsSyncStep2 && step !== sync.messageYjsUpdate) throw new Error(`unknown sync message ${step}`);
        const update = decoding.readVarUint8Array(decoder);
        if (!conn.canWrite) {
          // A viewer's edits never reach the document; say so once.
          if (!conn.toldReadOnly) send(conn.socket, statusMessage({ error: { code: 'read_only', message: 'This connection is read-only (studio:read): edits are refused.' } }));
          conn.toldReadOnly = true;
          return;
        }
        // Saves are refused beyond the workspace limits; edits that pile up unsaved are bounded
        // too (four workspaces' worth), so no client can grow a document without end.
        if (room.unsavedBytes + update.length > UNSAVED_FACTOR * this.input.limits.max_workspace_bytes) {
          send(conn.socket, statusMessage({ error: { code: 'payload_too_large', message: 'Too many unsaved edits: save (or shrink the files) first.' } }));
          close(conn.socket, CLOSE_TOO_LARGE, 'too many unsaved edits');
          return;
        }
        room.unsavedBytes += update.length;
        Y.applyUpdate(room.doc, update, conn);
        return;
      }
      case MESSAGE_AWARENESS:
        applyAwarenessUpdate(room.awareness, decoding.readVarUint8Array(decoder), conn);
        return;
      case MESSAGE_QUERY_AWARENESS: {
        const states = [...room.awareness.getStates().keys()];
        send(conn.socket, message(MESSAGE_AWARENESS, (encoder) => encoding.writeVarUint8Array(encoder, encodeAwarenessUpdate(room.awareness, states))));
        return;
      }
      case MESSAGE_SAVE: {
        if (!conn.canWrite) {
          send(conn.socket, statusMessage({ error: { code: 'forbidden', message: 'Saving needs studio:write.' } }));
          return;
        }
        try {
          send(conn.socket, statusMessage({ saved: await this.save(room, conn.principal, 'message') }));
        } catch (err) {
          send(conn.socket, statusMessage({ error: err instanceof ApiError ? { code: err.code, message: err.message, details: err.details } : { code: 'unavailable', message: 'The document could not be saved; it is kept, try again.' } }));
          if (!(err instanceof ApiError)) this.input.logger.error({ err, workspace: room.workspaceId }, 'collab save failed');
        }
        return;
      }
      default:
        // Unknown message types are ignored, as y-websocket does.
        return;
    }
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

  /** Stores the room's pending edits as one update and tells the other instances, in one transaction. */
  private flush(room: Room): Promise<void> {
    clearTimeout(room.flushTimer);
    room.flushTimer = undefined;
    room.flushing = room.flushing.then(async () => {
      if (room.pending.length === 0) return;
      const update = Y.mergeUpdates(room.pending);
      room.pending = [];
      try {
        await this.input.db.transaction(async (trx) => {
          // A workspace deleted meanwhile takes its document with it: no stray rows for a
          // workspace later re-created under the same id to inherit.
          if (!(await this.store.share(trx, room.tenantId, room.workspaceId))) return;
          await this.store.append(trx, room.tenantId, room.workspaceId, update, this.input.clock.now());
          await this.publish({ kind: 'update', tenant: room.tenantId, workspace: room.workspaceId, from: this.instance, data: Buffer.from(update).toString('base64') }, trx);
        });
      } catch (err) {
        // Kept in memory and tried again: the clients already have the edit.
        this.input.logger.warn({ err, workspace: room.workspaceId }, 'collab edit could not be stored yet');
        room.pending.unshift(update);
        if (!room.retired && !room.flushTimer) room.flushTimer = setTimeout(() => this.flush(room), RETRY_MS);
      }
    });
    return room.flushing;
  }

  private onAwareness(room: Room, changes: { added: number[]; updated: number[]; removed: number[] }, origin: unknown): void {
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
      this.publish({ kind: 'awareness', tenant: room.tenantId, workspace: room.workspaceId, from: this.instance, data: Buffer.from(update).toString('base64') }).catch((err: unknown) =>
        this.input.logger.debug({ err }, 'awareness not relayed'),
      );
    }
  }

  private resetIdle(room: Room): void {
    clearTimeout(room.idleTimer);
    if (!room.dirty || room.retired) return;
    room.idleTimer = setTimeout(() => {
      if (!room.dirty || room.retired) return;
      this.save(room, room.lastEditor, 'idle').catch((err: unknown) => this.input.logger.warn({ err, workspace: room.workspaceId }, 'idle collab save failed'));
    }, this.input.settings.idle_save_ms);
    room.idleTimer.unref();
  }

  /**
   * Makes a file revision equal to the document as stored (every instance's stored edits, this
   * one's pending ones flushed first). No revision when the files would not change.
   */
  async save(room: Room, principal: Principal | null, trigger: 'message' | 'idle' | 'left' | 'shutdown'): Promise<SaveResult> {
    await this.flush(room);
    const { tenantId, workspaceId } = room;
    const by = principal?.subjectId ?? null;
    const result = await this.input.db.transaction(async (trx): Promise<SaveResult> => {
      const workspaces = new WorkspaceStore(trx);
      const current = await workspaces.get(tenantId, workspaceId, { forUpdate: true });
      if (!current) throw new ApiError('not_found', `No workspace "${workspaceId}".`);
      if (!(await this.store.lock(trx, tenantId, workspaceId))) throw new ApiError('not_found', `Workspace "${workspaceId}" has no shared document.`);
      const doc = docFrom(await this.store.updates(trx, tenantId, workspaceId));
      const files = filesOf(doc);
      doc.destroy();
      const before = (await workspaces.files(tenantId, workspaceId, current.revision)) ?? {};
      if (sameFiles(before, files)) return { revision: current.revision, unchanged: true, by };
      const written: FileMap = {};
      for (const [path, content] of Object.entries(files)) if (before[path] !== content) written[path] = content;
      const deleted = Object.keys(before).filter((path) => !Object.prototype.hasOwnProperty.call(files, path));
      const next = nextFiles(before, written, deleted, this.input.limits);
      const saved = await workspaces.appendRevision(tenantId, current, { ...next, source: 'collab', createdBy: by }, this.input.clock.now());
      await this.store.setRevision(trx, tenantId, workspaceId, saved.revision);
      await this.publish({ kind: 'saved', tenant: tenantId, workspace: workspaceId, from: this.instance, revision: saved.revision, by }, trx);
      await this.audited(trx, room, principal, saved.revision, trigger);
      return { revision: saved.revision, unchanged: false, by };
    });
    if (room.pending.length === 0) room.dirty = false;
    room.unsavedBytes = 0;
    if (!result.unchanged) for (const conn of room.conns.values()) send(conn.socket, statusMessage({ saved: result }));
    return result;
  }

  /** A save changes the workspace: its audit record commits with the revision. */
  private async audited(trx: Knex.Transaction, room: Room, principal: Principal | null, revision: number, trigger: string): Promise<void> {
    if (!this.input.audit.enabled) return;
    await this.input.audit.write(trx, {
      tenantId: room.tenantId,
      operation: 'openCollabSocket',
      method: 'GET',
      path: '/studio/collab/ws',
      resourceId: room.workspaceId,
      status: 200,
      outcome: 'success',
      errorCode: null,
      requestId: randomUUID(),
      idempotencyKey: null,
      principal,
      attribution: { actorType: 'human' },
      fields: { command: 'save', revision },
      detail: { collab_save: trigger },
      severity: 'info',
      transport: 'http',
      at: this.input.clock.now(),
    });
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

  private publish(payload: Payload, db?: Knex | Knex.Transaction): Promise<string> {
    return this.input.events.publish(COLLAB_TOPIC, payload, db ? { db } : {});
  }

  private onEvent(payload: Payload): void {
    if (!payload || typeof payload !== 'object') return;
    const room = this.rooms.get(`${payload.tenant}\u001f${payload.workspace}`);
    if (!room || room.retired) return;
    if (payload.kind === 'deleted') {
      for (const conn of room.conns.values()) close(conn.socket, CLOSE_GONE, 'workspace deleted');
      this.drop(room);
      return;
    }
    if (payload.from === this.instance) return;
    if (payload.kind === 'update') Y.applyUpdate(room.doc, Buffer.from(payload.data, 'base64'), REMOTE);
    else if (payload.kind === 'awareness') applyAwarenessUpdate(room.awareness, Buffer.from(payload.data, 'base64'), REMOTE);
    else if (payload.kind === 'saved') for (const conn of room.conns.values()) send(conn.socket, statusMessage({ saved: { revision: payload.revision, unchanged: false, by: payload.by } }));
  }

  // FileChanges: what PUT .../files and DELETE do to the shared document, in their transaction.

  async filesWritten(db: Knex | Knex.Transaction, tenantId: string, workspaceId: string, files: FileMap, revision: number): Promise<void> {
    const trx = db as Knex.Transaction;
    if (!(await this.store.lock(trx, tenantId, workspaceId))) return;
    const doc = docFrom(await this.store.updates(trx, tenantId, workspaceId));
    const update = applyFiles(doc, files);
    doc.destroy();
    if (update) {
      await this.store.append(trx, tenantId, workspaceId, update, this.input.clock.now());
      // `from` is no instance: every instance's room, this one's included, takes it.
      await this.publish({ kind: 'update', tenant: tenantId, workspace: workspaceId, from: 'api', data: Buffer.from(update).toString('base64') }, trx);
    }
    await this.store.setRevision(trx, tenantId, workspaceId, revision);
  }

  async workspaceDeleted(db: Knex | Knex.Transaction, tenantId: string, workspaceId: string): Promise<void> {
    await this.publish({ kind: 'deleted', tenant: tenantId, workspace: workspaceId }, db);
  }
}
