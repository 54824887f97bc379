import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import * as awarenessProtocol from 'y-protocols/awareness';
import * as syncProtocol from 'y-protocols/sync';
import * as Y from 'yjs';
import { closeReason, openStudioSocket } from './sockets';

/** The collab socket's message types: y-protocols' sync, awareness and query-awareness, and the studio's save (100) and status (101). */
const SYNC = 0;
const AWARENESS = 1;
const QUERY_AWARENESS = 3;
const SAVE = 100;
const STATUS = 101;

export interface CollabStatus {
  connection: 'connecting' | 'connected' | 'closed';
  synced: boolean;
  /** The last save's revision, or the last error the server sent (e.g. read_only). */
  saved?: { revision: number; unchanged: boolean; by?: string };
  error?: { code: string; message: string };
  closed?: string;
}

export interface Peer {
  clientId: number;
  name: string;
  color: string;
  file?: string;
}

const COLORS = ['#0550ae', '#8250df', '#bf3989', '#953800', '#1a7f37', '#9a6700'];

/**
 * One workspace's shared document over the studio's collab socket: a Y.Doc whose Map "files"
 * holds one Y.Text per path, kept in sync with the server (and every other editor) by the Yjs
 * sync protocol, and an Awareness that carries each editor's name, colour, file and cursor.
 * Reconnects with a fresh ticket after a drop, unless closed for good (revoked, deleted).
 */
export class CollabSession {
  readonly doc = new Y.Doc();
  readonly files = this.doc.getMap<Y.Text>('files');
  readonly awareness = new awarenessProtocol.Awareness(this.doc);
  private socket: WebSocket | null = null;
  private disposed = false;
  private retry = 0;
  private status: CollabStatus = { connection: 'connecting', synced: false };
  private readonly listeners = new Set<(status: CollabStatus) => void>();

  constructor(
    private readonly workspaceId: string,
    user: { name: string },
  ) {
    const color = COLORS[this.doc.clientID % COLORS.length] as string;
    this.awareness.setLocalStateField('user', { name: user.name, color, colorLight: `${color}33` });
    this.doc.on('update', this.onDocUpdate);
    this.awareness.on('update', this.onAwarenessUpdate);
    void this.connect();
  }

  onStatus(listener: (status: CollabStatus) => void): () => void {
    this.listeners.add(listener);
    listener(this.status);
    return () => this.listeners.delete(listener);
  }

  /** Asks the server to make a file revision of the document now (message 100); the answer comes as a status. */
  save(): void {
    this.send(encoding.toUint8Array(withType(SAVE, () => undefined)));
  }

  /**
   * Saves and waits for the server's answer: a run or a test reads the saved revision, so what
   * the user sees in the editor is saved first. Resolves with the revision (unchanged when nothing
   * was edited since), rejects with the server's refusal; without a connection it resolves at once.
   */
  saveAndWait(timeoutMs = 10_000): Promise<number | undefined> {
    if (this.socket?.readyState !== WebSocket.OPEN) return Promise.resolve(undefined);
    const before = this.status;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        stop();
        reject(new Error('The save was not answered in time.'));
      }, timeoutMs);
      const stop = this.onStatus((status) => {
        if (status === before) return;
        if (status.error && status.error !== before.error) {
          clearTimeout(timer);
          stop();
          reject(new Error(`${status.error.code}: ${status.error.message}`));
        } else if (status.saved && status.saved !== before.saved) {
          clearTimeout(timer);
          stop();
          resolve(status.saved.revision);
        }
      });
      this.save();
    });
  }

  /** The Y.Text of a path, created (empty) when the document has no such file yet. */
  text(path: string): Y.Text {
    let text = this.files.get(path);
    if (!text) {
      text = new Y.Text();
      this.files.set(path, text);
    }
    return text;
  }

  /** The other editors present now. */
  peers(): Peer[] {
    const peers: Peer[] = [];
    for (const [clientId, state] of this.awareness.getStates()) {
      if (clientId === this.doc.clientID) continue;
      const user = (state as { user?: { name?: string; color?: string }; file?: string }).user;
      if (user?.name)
        peers.push({ clientId, name: user.name, color: user.color ?? '#666', file: (state as { file?: string }).file });
    }
    return peers;
  }

  setFile(path: string | undefined): void {
    this.awareness.setLocalStateField('file', path);
  }

  destroy(): void {
    this.disposed = true;
    awarenessProtocol.removeAwarenessStates(this.awareness, [this.doc.clientID], 'local');
    this.socket?.close(1000, 'closed by the user');
    this.doc.off('update', this.onDocUpdate);
    this.awareness.off('update', this.onAwarenessUpdate);
    this.awareness.destroy();
    this.doc.destroy();
  }

  private setStatus(patch: Partial<CollabStatus>): void {
    this.status = { ...this.status, ...patch };
    for (const listener of this.listeners) listener(this.status);
  }

  private async connect(): Promise<void> {
    if (this.disposed) return;
    this.setStatus({ connection: 'connecting' });
    let socket: WebSocket;
    try {
      socket = await openStudioSocket(this.workspaceId, 'collab');
    } catch (err) {
      this.setStatus({ connection: 'closed', closed: (err as Error).message });
      this.reconnectLater();
      return;
    }
    if (this.disposed) {
      socket.close(1000);
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      this.retry = 0;
      this.setStatus({ connection: 'connected', closed: undefined });
      // Our state vector: the server answers with what we lack, and we answer its step 1 likewise.
      this.send(encoding.toUint8Array(withType(SYNC, (e) => syncProtocol.writeSyncStep1(e, this.doc))));
      this.send(encoding.toUint8Array(withType(QUERY_AWARENESS, () => undefined)));
      if (this.awareness.getLocalState())
        this.send(
          encoding.toUint8Array(
            withType(AWARENESS, (e) =>
              encoding.writeVarUint8Array(
                e,
                awarenessProtocol.encodeAwarenessUpdate(this.awareness, [this.doc.clientID]),
              ),
            ),
          ),
        );
    };
    socket.onmessage = (event) => this.receive(new Uint8Array(event.data as ArrayBuffer));
    socket.onclose = (event) => {
      this.socket = null;
      const others = [...this.awareness.getStates().keys()].filter((id) => id !== this.doc.clientID);
      awarenessProtocol.removeAwarenessStates(this.awareness, others, this);
      if (this.disposed) return;
      this.setStatus({ connection: 'closed', synced: false, closed: closeReason(event.code) });
      if (event.code !== 4401 && event.code !== 4404) this.reconnectLater();
    };
  }

  private reconnectLater(): void {
    if (this.disposed) return;
    this.retry += 1;
    setTimeout(() => void this.connect(), Math.min(500 * 2 ** this.retry, 10_000));
  }

  private receive(data: Uint8Array): void {
    const decoder = decoding.createDecoder(data);
    const type = decoding.readVarUint(decoder);
    if (type === SYNC) {
      const encoder = encoding.createEncoder();
      encoding.writeVarUint(encoder, SYNC);
      const step = syncProtocol.readSyncMessage(decoder, encoder, this.doc, this);
      if (encoding.length(encoder) > 1) this.send(encoding.toUint8Array(encoder));
      if (step === syncProtocol.messageYjsSyncStep2 && !this.status.synced) this.setStatus({ synced: true });
    } else if (type === AWARENESS) {
      awarenessProtocol.applyAwarenessUpdate(this.awareness, decoding.readVarUint8Array(decoder), this);
    } else if (type === STATUS) {
      const status = JSON.parse(decoding.readVarString(decoder)) as {
        saved?: CollabStatus['saved'];
        error?: CollabStatus['error'];
      };
      if (status.saved) this.setStatus({ saved: status.saved, error: undefined });
      if (status.error) this.setStatus({ error: status.error });
    }
  }

  private send(bytes: Uint8Array): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(bytes as Uint8Array<ArrayBuffer>);
  }

  private readonly onDocUpdate = (update: Uint8Array, origin: unknown): void => {
    if (origin === this) return;
    this.send(encoding.toUint8Array(withType(SYNC, (e) => syncProtocol.writeUpdate(e, update))));
  };

  private readonly onAwarenessUpdate = (
    { added, updated, removed }: { added: number[]; updated: number[]; removed: number[] },
    origin: unknown,
  ): void => {
    if (origin === this) return;
    const changed = added.concat(updated, removed);
    this.send(
      encoding.toUint8Array(
        withType(AWARENESS, (e) =>
          encoding.writeVarUint8Array(e, awarenessProtocol.encodeAwarenessUpdate(this.awareness, changed)),
        ),
      ),
    );
  };
}

function withType(type: number, write: (encoder: encoding.Encoder) => void): encoding.Encoder {
  const encoder = encoding.createEncoder();
  encoding.writeVarUint(encoder, type);
  write(encoder);
  return encoder;
}
