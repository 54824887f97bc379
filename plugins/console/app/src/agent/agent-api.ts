import { api, unwrap, unwrapPage } from '../api/client';
import { ApiError, toApiError } from '../api/errors';
import { actingTenant } from '../auth/tenant';
import type { components } from '../api/schema';
import { type AgentEvent, readEvents } from './events';

export type Conversation = components['schemas']['agent.Conversation'];
export type ProposedActionRow = components['schemas']['agent.Action'];

/** A turn the server refused before it began, with how long to wait when it said (429, 503). */
export class TurnRefused extends ApiError {
  readonly retryAfter: number | undefined;

  constructor(error: ApiError, retryAfter: number | undefined) {
    super(error.status, error.code, error.message, error.details);
    this.retryAfter = retryAfter;
  }
}

export function isNotConfigured(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'not_configured';
}

type Answer = Promise<{ data?: ReadableStream<Uint8Array> | null; error?: unknown; response: Response }>;

/** Awaits a turn's answer: its events as they come, or the refusal in the API's error shape. */
async function eventsOf(call: Answer): Promise<{ body: ReadableStream<Uint8Array>; conversationId: string | null }> {
  let result: Awaited<Answer>;
  try {
    result = await call;
  } catch (err) {
    throw new ApiError(
      0,
      'network_error',
      `The server could not be reached (${err instanceof Error ? err.message : String(err)}).`,
    );
  }
  if (!result.response.ok || !result.data) {
    const retryAfter = Number(result.response.headers.get('Retry-After'));
    throw new TurnRefused(
      toApiError(result.response, result.error),
      Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
    );
  }
  return { body: result.data, conversationId: result.response.headers.get('X-Conversation-Id') };
}

/**
 * The three ways a turn starts, through the typed client (CSRF header, acting tenant, silent
 * refresh on 401 apply); each answers the turn's server-sent events.
 */
export type TurnStart =
  | { kind: 'chat'; message: string; conversationId?: string }
  | { kind: 'approve'; actionId: string }
  | { kind: 'deny'; actionId: string; reason?: string };

const STREAM = { parseAs: 'stream', headers: { Accept: 'text/event-stream' } } as const;

export async function* runTurn(start: TurnStart, signal: AbortSignal): AsyncGenerator<AgentEvent> {
  let answer: Awaited<ReturnType<typeof eventsOf>>;
  if (start.kind === 'chat')
    answer = await eventsOf(
      api.POST('/agent/chat', {
        ...STREAM,
        signal,
        body: { message: start.message, ...(start.conversationId ? { conversation_id: start.conversationId } : {}) },
      }),
    );
  else if (start.kind === 'approve') {
    // A POST without a body: an account admin's acting tenant goes in the query (with a body, the client adds it there).
    const tenant = actingTenant();
    answer = await eventsOf(
      api.POST('/agent/actions/{id}/approve', {
        ...STREAM,
        signal,
        params: { path: { id: start.actionId }, query: tenant ? { tenant_id: tenant } : {} },
      }),
    );
  } else
    answer = await eventsOf(
      api.POST('/agent/actions/{id}/deny', {
        ...STREAM,
        signal,
        params: { path: { id: start.actionId } },
        body: start.reason ? { reason: start.reason } : {},
      }),
    );
  if (answer.conversationId) yield { event: 'opened', conversationId: answer.conversationId };
  yield* readEvents(answer.body, signal);
}

export function listConversations() {
  return unwrapPage(api.GET('/agent/conversations', { params: { query: { limit: 50 } } }));
}

export function getConversation(id: string) {
  return unwrap(api.GET('/agent/conversations/{id}', { params: { path: { id } } }));
}
