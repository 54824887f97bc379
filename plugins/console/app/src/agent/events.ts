import { ApiError, type ErrorDetail } from '../api/errors';

/** One event of an agent turn (POST /agent/chat, /agent/actions/{id}/approve|deny), its data checked. */
export type AgentEvent =
  /** Not sent by the server: the turn was accepted (its X-Conversation-Id header), before any event. */
  | { event: 'opened'; conversationId: string }
  | { event: 'message'; delta: string }
  | { event: 'tool_call'; id: string; tool: string; arguments: Record<string, unknown> }
  | { event: 'tool_result'; id: string; status: number; summary: string }
  | {
      event: 'confirmation_required';
      actionId: string;
      tool: string;
      arguments: Record<string, unknown>;
      dryRun: unknown;
    }
  | { event: 'error'; error: ApiError }
  | { event: 'done'; conversationId: string; pendingActions: string[] };

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const objectOf = (value: unknown): JsonObject => (isObject(value) ? value : {});

function detailsOf(value: unknown): ErrorDetail[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isObject).map((d) => ({ in: text(d.in), pointer: text(d.pointer), message: text(d.message) }));
}

/** The API's error shape (`{error: {code, message, status, details}}`) as an ApiError. */
export function errorFromBody(body: unknown, fallbackStatus = 0): ApiError {
  const error = objectOf(objectOf(body).error);
  const status = typeof error.status === 'number' ? error.status : fallbackStatus;
  return new ApiError(
    status,
    text(error.code) || 'error',
    text(error.message) || 'The turn failed.',
    detailsOf(error.details),
  );
}

/** An event as the server named it, with its JSON data; unknown names are skipped (undefined). */
export function toAgentEvent(name: string, data: unknown): AgentEvent | undefined {
  const d = objectOf(data);
  switch (name) {
    case 'message':
      return { event: 'message', delta: text(d.delta) };
    case 'tool_call':
      return { event: 'tool_call', id: text(d.id), tool: text(d.tool), arguments: objectOf(d.arguments) };
    case 'tool_result':
      return {
        event: 'tool_result',
        id: text(d.id),
        status: typeof d.status === 'number' ? d.status : 0,
        summary: text(d.summary),
      };
    case 'confirmation_required':
      return {
        event: 'confirmation_required',
        actionId: text(d.action_id),
        tool: text(d.tool),
        arguments: objectOf(d.arguments),
        dryRun: d.dry_run,
      };
    case 'error':
      return { event: 'error', error: errorFromBody(data) };
    case 'done':
      return {
        event: 'done',
        conversationId: text(d.conversation_id),
        pendingActions: Array.isArray(d.pending_actions) ? d.pending_actions.map(text) : [],
      };
    default:
      return undefined;
  }
}

/** One block of text/event-stream (lines up to a blank line) as its event name and data text. */
function parseBlock(block: string): { name: string; data: string } | undefined {
  let name = 'message';
  const data: string[] = [];
  for (const line of block.split(/\r\n|\r|\n/)) {
    // Lines starting with ':' are comments (the server's heartbeats).
    if (line.startsWith('event:')) name = line.slice(6).trim();
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
  }
  return data.length ? { name, data: data.join('\n') } : undefined;
}

/**
 * Reads a text/event-stream body as it arrives. EventSource only speaks GET, and a turn is a
 * POST, so the body is read with its stream reader and split on blank lines here.
 */
export async function* readEvents(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<AgentEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const onAbort = (): void => void reader.cancel().catch(() => undefined);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      const { value, done } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      const blocks = buffer.split(/\r?\n\r?\n/);
      buffer = done ? '' : (blocks.pop() ?? '');
      for (const block of blocks) {
        const parsed = parseBlock(block);
        if (!parsed) continue;
        let data: unknown;
        try {
          data = JSON.parse(parsed.data);
        } catch {
          data = parsed.data;
        }
        const event = toAgentEvent(parsed.name, data);
        if (event) yield event;
      }
      if (done) return;
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    reader.releaseLock();
  }
}
