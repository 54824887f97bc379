import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';

/**
 * The collab socket's messages: y-protocols' own (0 sync, 1 awareness, 3 query awareness),
 * plus two of the studio's: 100 save (client → server, no payload: make a file revision of the
 * merged document now) and 101 status (server → client, a UTF-8 JSON object: `{saved:
 * {revision, unchanged, by}}` after a save, or `{error: {code, message}}` when a message was
 * refused, e.g. an edit from a read-only viewer).
 */
export const MESSAGE_SYNC = 0;
export const MESSAGE_AWARENESS = 1;
export const MESSAGE_QUERY_AWARENESS = 3;
export const MESSAGE_SAVE = 100;
export const MESSAGE_STATUS = 101;

export function message(type: number, write: (encoder: encoding.Encoder) => void): Uint8Array {
  const encoder = encoding.createEncoder();
  encoding.writeVarUint(encoder, type);
  write(encoder);
  return encoding.toUint8Array(encoder);
}

export function statusMessage(status: unknown): Uint8Array {
  return message(MESSAGE_STATUS, (encoder) => encoding.writeVarString(encoder, JSON.stringify(status)));
}

export function readStatus(decoder: decoding.Decoder): unknown {
  return JSON.parse(decoding.readVarString(decoder));
}
