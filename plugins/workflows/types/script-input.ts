import type { RuntimeMessage } from '../../components/contract.js';
import type { SandboxInput } from '../../../sandbox/types.js';

const TEXTUAL = /^(text\/|application\/(json|xml|x-ndjson)|[^;]*\+json)/;

/**
 * What a script sees as `input` (RUNTIME.md): the raw body as a string for text and JSON, bytes
 * otherwise; a message that so far has only a value (after a codec or an earlier script) shows it
 * as JSON text, so `service.json.decode(input.body)` reads it either way.
 */
export function sandboxInput(message: RuntimeMessage): SandboxInput {
  let body: string | Uint8Array | null;
  if (
    message.value !== undefined &&
    (message.body === undefined || message.content_type === undefined || !TEXTUAL.test(message.content_type))
  )
    body = JSON.stringify(message.value);
  else if (message.body !== undefined)
    body = TEXTUAL.test(message.content_type ?? '') ? Buffer.from(message.body).toString('utf8') : message.body;
  else body = null;
  return { body, headers: message.headers, key: message.key };
}

/** A message onward with `value` replacing what it carried. */
export function withValue(message: RuntimeMessage, value: unknown): RuntimeMessage {
  return { id: message.id, key: message.key, headers: message.headers, value, content_type: 'application/json' };
}
