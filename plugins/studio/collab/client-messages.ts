import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import type { Logger } from 'pino';
import type { WebSocket } from 'ws';
import { applyAwarenessUpdate, encodeAwarenessUpdate } from 'y-protocols/awareness';
import * as sync from 'y-protocols/sync';
import * as Y from 'yjs';
import { ApiError } from '../../../kernel/errors.js';
import type { Principal } from '../../../kernel/types.js';
import type { FileLimits } from '../files.js';
import {
  message,
  MESSAGE_AWARENESS,
  MESSAGE_QUERY_AWARENESS,
  MESSAGE_SAVE,
  MESSAGE_SYNC,
  statusMessage,
} from './protocol.js';
import { close, type Conn, type Room, send } from './room.js';
import type { SaveResult } from './save.js';

const CLOSE_TOO_LARGE = 1009;
/** Unsaved edit bytes a room takes from its clients, in multiples of max_workspace_bytes. */
const UNSAVED_FACTOR = 4;

/** What a client gets first: the server's state vector (it answers with what the server lacks), and who else is there. */
export function greet(socket: WebSocket, room: Room): void {
  send(
    socket,
    message(MESSAGE_SYNC, (encoder) => sync.writeSyncStep1(encoder, room.doc)),
  );
  const states = [...room.awareness.getStates().keys()];
  if (states.length > 0)
    send(
      socket,
      message(MESSAGE_AWARENESS, (encoder) =>
        encoding.writeVarUint8Array(encoder, encodeAwarenessUpdate(room.awareness, states)),
      ),
    );
}

/**
 * One message of a client socket, as y-websocket speaks it (sync, awareness, a query for
 * awareness) plus our save message. A viewer's edits and saves are refused here, on the
 * server: the read-only editor in the browser is a convenience, not the check.
 */
export async function handleClientMessage(
  o: {
    limits: FileLimits;
    logger: Logger;
    save: (room: Room, principal: Principal | null, trigger: 'message') => Promise<SaveResult>;
  },
  room: Room,
  conn: Conn,
  data: Uint8Array,
): Promise<void> {
  if (room.retired) return;
  const decoder = decoding.createDecoder(data);
  const type = decoding.readVarUint(decoder);
  switch (type) {
    case MESSAGE_SYNC: {
      const step = decoding.readVarUint(decoder);
      if (step === sync.messageYjsSyncStep1) {
        send(
          conn.socket,
          message(MESSAGE_SYNC, (encoder) => sync.readSyncStep1(decoder, encoder, room.doc)),
        );
        return;
      }
      if (step !== sync.messageYjsSyncStep2 && step !== sync.messageYjsUpdate)
        throw new Error(`unknown sync message ${step}`);
      const update = decoding.readVarUint8Array(decoder);
      if (!conn.canWrite) {
        // A viewer's edits never reach the document; say so once.
        if (!conn.toldReadOnly)
          send(
            conn.socket,
            statusMessage({
              error: { code: 'read_only', message: 'This connection is read-only (studio:read): edits are refused.' },
            }),
          );
        conn.toldReadOnly = true;
        return;
      }
      // Saves are refused beyond the workspace limits; edits that pile up unsaved are bounded
      // too (four workspaces' worth), so no client can grow a document without end.
      if (room.unsavedBytes + update.length > UNSAVED_FACTOR * o.limits.max_workspace_bytes) {
        send(
          conn.socket,
          statusMessage({
            error: {
              code: 'payload_too_large',
              message: 'Too many unsaved edits: save (or shrink the files) first.',
            },
          }),
        );
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
      send(
        conn.socket,
        message(MESSAGE_AWARENESS, (encoder) =>
          encoding.writeVarUint8Array(encoder, encodeAwarenessUpdate(room.awareness, states)),
        ),
      );
      return;
    }
    case MESSAGE_SAVE: {
      if (!conn.canWrite) {
        send(conn.socket, statusMessage({ error: { code: 'forbidden', message: 'Saving needs studio:write.' } }));
        return;
      }
      try {
        send(conn.socket, statusMessage({ saved: await o.save(room, conn.principal, 'message') }));
      } catch (err) {
        send(
          conn.socket,
          statusMessage({
            error:
              err instanceof ApiError
                ? { code: err.code, message: err.message, details: err.details }
                : { code: 'unavailable', message: 'The document could not be saved; it is kept, try again.' },
          }),
        );
        if (!(err instanceof ApiError)) o.logger.error({ err, workspace: room.workspaceId }, 'collab save failed');
      }
      return;
    }
    default:
      // Unknown message types are ignored, as y-websocket does.
      return;
  }
}
