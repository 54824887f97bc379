import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import { WebSocket } from 'ws';
import { Awareness, applyAwarenessUpdate, encodeAwarenessUpdate } from 'y-protocols/awareness';
import * as sync from 'y-protocols/sync';
import * as Y from 'yjs';
import type { TestKernel } from '../../support/kernel.js';

const SYNC = 0;
const AWARENESS = 1;
const SAVE = 100;
const STATUS = 101;
const FROM_SERVER = Symbol('server');

export async function waitUntil(
  check: () => boolean | Promise<boolean>,
  ms = 15_000,
  what = 'condition',
): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * A real Yjs client over a real socket, as a browser editor would be: the y-protocols sync
 * (step 1 on open, step 2 in answer, updates both ways) and awareness, plus the studio's save
 * message. Its document is `doc.getMap('files')` of Y.Text.
 */
export class YClient {
  readonly awareness: Awareness;
  readonly statuses: any[] = [];
  synced = false;
  closedWith: { code: number; reason: string } | undefined;

  private constructor(
    readonly socket: WebSocket,
    readonly doc: Y.Doc,
  ) {
    this.awareness = new Awareness(doc);
    socket.binaryType = 'nodebuffer';
    socket.on('message', (data: Buffer) => this.receive(new Uint8Array(data)));
    socket.on('close', (code, reason) => (this.closedWith = { code, reason: reason.toString() }));
    const relay = (update: Uint8Array, origin: unknown) => {
      if (origin !== FROM_SERVER) this.send(SYNC, (e) => sync.writeUpdate(e, update));
    };
    doc.on('update', relay);
    // Offline (closed), the document keeps its edits; a reconnect sends them in sync step 2.
    socket.on('close', () => doc.off('update', relay));
    this.awareness.on(
      'update',
      ({ added, updated, removed }: { added: number[]; updated: number[]; removed: number[] }, origin: unknown) => {
        if (origin === FROM_SERVER) return;
        const changed = [...added, ...updated, ...removed];
        this.send(AWARENESS, (e) => encoding.writeVarUint8Array(e, encodeAwarenessUpdate(this.awareness, changed)));
      },
    );
  }

  static open(tk: TestKernel, ticket: string, query = '', doc = new Y.Doc()): Promise<YClient> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`${tk.url.replace(/^http/, 'ws')}/studio/collab/ws?ticket=${ticket}${query}`);
      const client = new YClient(socket, doc);
      socket.once('open', () => {
        client.send(SYNC, (e) => sync.writeSyncStep1(e, client.doc));
        resolve(client);
      });
      socket.once('unexpected-response', (_req, res) => reject(new Error(`collab socket refused: ${res.statusCode}`)));
      socket.once('error', reject);
    });
  }

  /** Opens and waits until the server's state has arrived. */
  /** Opens and waits until the server's state has arrived; `doc` reconnects an existing document (with its offline edits). */
  static async join(tk: TestKernel, ticket: string, doc?: Y.Doc): Promise<YClient> {
    const client = await YClient.open(tk, ticket, '', doc);
    await waitUntil(() => client.synced, 15_000, 'the first sync');
    return client;
  }

  private send(type: number, write: (e: encoding.Encoder) => void): void {
    const encoder = encoding.createEncoder();
    encoding.writeVarUint(encoder, type);
    write(encoder);
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(encoding.toUint8Array(encoder));
  }

  private receive(data: Uint8Array): void {
    const decoder = decoding.createDecoder(data);
    const type = decoding.readVarUint(decoder);
    if (type === SYNC) {
      const encoder = encoding.createEncoder();
      encoding.writeVarUint(encoder, SYNC);
      const step = sync.readSyncMessage(decoder, encoder, this.doc, FROM_SERVER);
      if (step === sync.messageYjsSyncStep2) this.synced = true;
      if (encoding.length(encoder) > 1) this.socket.send(encoding.toUint8Array(encoder));
    } else if (type === AWARENESS) {
      applyAwarenessUpdate(this.awareness, decoding.readVarUint8Array(decoder), FROM_SERVER);
    } else if (type === STATUS) {
      this.statuses.push(JSON.parse(decoding.readVarString(decoder)));
    }
  }

  text(path: string): string | undefined {
    const value = this.doc.getMap('files').get(path);
    return value instanceof Y.Text ? value.toString() : undefined;
  }

  ytext(path: string): Y.Text {
    const value = this.doc.getMap('files').get(path);
    if (!(value instanceof Y.Text)) throw new Error(`no file ${path} in the document`);
    return value;
  }

  /** Asks the server to save; resolves with the answer ({saved} or {error}). */
  async save(): Promise<any> {
    const before = this.statuses.length;
    this.send(SAVE, () => undefined);
    await waitUntil(
      () => this.statuses.slice(before).some((s) => s.saved?.by !== undefined || s.error),
      15_000,
      'the save answer',
    );
    return this.statuses.slice(before).find((s) => s.saved || s.error);
  }

  close(): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      this.socket.once('close', () => resolve());
      this.socket.close();
    });
  }

  destroy(): void {
    this.awareness.destroy();
    this.doc.destroy();
  }
}

/** Mints a studio ticket; throws unless 201. */
export async function studioTicket(
  tk: TestKernel,
  token: string,
  workspace_id: string,
  channel: 'collab' | 'terminal',
): Promise<string> {
  const res = await tk.request('POST', '/studio/tickets', { token, body: { workspace_id, channel } });
  if (res.status !== 201) throw new Error(`minting a studio ticket failed: ${res.status} ${res.text}`);
  return res.body.ticket as string;
}
