import type { StoredMessage } from './backend.js';
import type { StreamCodec } from './contract.js';

/** A message as the API shows it (RUNTIME.md "Shapes the parts share"). */
export interface MessageView {
  id: string;
  stream: string;
  partition: number;
  offset: number;
  key: string | null;
  headers: Record<string, string>;
  content_type: string;
  value?: unknown;
  body_base64?: string;
  size: number;
  published_at: string;
  replay_of: string | null;
}

function decoded(message: StoredMessage, codec: StreamCodec | undefined): { value: unknown } | undefined {
  try {
    if (codec) return { value: codec.decode(message.body) };
    if (message.contentType === 'application/json')
      return { value: JSON.parse(message.body.toString('utf8')) as unknown };
  } catch {
    // A body its codec no longer reads (the codec changed since) is still shown, as bytes.
  }
  return undefined;
}

/** `value` when the stream's codec (or JSON) reads the body, `body_base64` otherwise. */
export function messageView(message: StoredMessage, codec: StreamCodec | undefined): MessageView {
  const value = decoded(message, codec);
  return {
    id: message.id,
    stream: message.stream,
    partition: message.partition,
    offset: message.offset,
    key: message.key,
    headers: message.headers,
    content_type: message.contentType,
    ...(value ? { value: value.value } : { body_base64: message.body.toString('base64') }),
    size: message.body.length,
    published_at: message.publishedAt.toISOString(),
    replay_of: message.replayOf,
  };
}
