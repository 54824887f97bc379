import type { StoredMessage } from './backend.js';

/** A JetStream message as both reads (direct get, consumer fetch) give it. */
export interface Fetched {
  seq: number;
  data: Uint8Array;
  meta: string;
}

/** What travels with each JetStream message besides its body, as one JSON header. */
export interface Meta {
  id: string;
  stream: string;
  key: string | null;
  headers: Record<string, string>;
  content_type: string;
  published_at: string;
  replay_of: string | null;
  /** The codec revision that wrote the body (absent when none did). */
  codec?: string;
  codec_revision?: number;
}

/** One header for all of it: the body stays the user's bytes, untouched. */
export const META_HEADER = 'Rt-Meta';

export function toMessage(stored: Fetched, partition: number): StoredMessage {
  const meta = JSON.parse(stored.meta) as Meta;
  return {
    id: meta.id,
    stream: meta.stream,
    partition,
    offset: stored.seq,
    key: meta.key,
    headers: meta.headers,
    contentType: meta.content_type,
    body: Buffer.from(stored.data),
    publishedAt: new Date(meta.published_at),
    replayOf: meta.replay_of,
    writer:
      meta.codec !== undefined && meta.codec_revision !== undefined
        ? { codec: meta.codec, revision: meta.codec_revision }
        : null,
  };
}
