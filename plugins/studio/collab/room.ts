import type { WebSocket } from 'ws';
import { Awareness } from 'y-protocols/awareness';
import * as Y from 'yjs';
import type { Principal } from '../../../kernel/types.js';
import type { FileMap } from '../files.js';

/** One client socket of a room. */
export interface Conn {
  socket: WebSocket;
  principal: Principal;
  canWrite: boolean;
  /** Awareness client ids this connection set, removed when it leaves. */
  clients: Set<number>;
  chain: Promise<void>;
  toldReadOnly: boolean;
}

/** A workspace's document as one instance holds it while it has clients. */
export class Room {
  readonly doc = new Y.Doc();
  readonly awareness = new Awareness(this.doc);
  readonly conns = new Map<WebSocket, Conn>();
  ready!: Promise<boolean>;
  pending: Uint8Array[] = [];
  flushing: Promise<void> = Promise.resolve();
  flushTimer: NodeJS.Timeout | undefined;
  idleTimer: NodeJS.Timeout | undefined;
  lingerTimer: NodeJS.Timeout | undefined;
  /** Edits of this instance's clients since the last save. */
  dirty = false;
  lastEditor: Principal | null = null;
  /** Bytes of edits this instance's clients sent since the last save (bounded: see Collab). */
  unsavedBytes = 0;
  retired = false;

  constructor(
    readonly tenantId: string,
    readonly workspaceId: string,
  ) {
    // The server has no presence of its own.
    this.awareness.setLocalState(null);
  }
}

export function send(socket: WebSocket, data: Uint8Array): void {
  if (socket.readyState === socket.OPEN) socket.send(data, { binary: true });
}

export function close(socket: WebSocket, code: number, reason: string): void {
  if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING) socket.close(code, reason);
}

export function asBytes(data: Buffer | ArrayBuffer | Buffer[]): Uint8Array {
  if (Array.isArray(data)) return new Uint8Array(Buffer.concat(data));
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

export function sameFiles(a: FileMap, b: FileMap): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => Object.hasOwn(b, k) && a[k] === b[k]);
}
