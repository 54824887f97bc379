import { randomBytes } from 'node:crypto';
import { ApiError } from '../../../kernel/errors.js';
import { afterKey, operationHandlers, pageOf, type TenantCall } from '../../../kernel/plugin/api.js';
import type { Call, Handler, Principal, Reply, ServerSentEvent } from '../../../kernel/types.js';
import type { Operations } from '../generated/manifest-types.js';
import { actionView, type ConversationStore, conversationView, createConversationStore } from '../store.js';
import type { Tool } from '../tools.js';
import { ProviderError } from './providers/types.js';
import type { createRateLimiter } from './rate-limit.js';
import type { AssistantSettings } from './settings.js';
import { type Acting, runTool, summarize, type ToolOutcome } from './tool-runner.js';
import { decidedResult, modelTurn, type TurnContext, type TurnDeps } from './turn.js';

export interface AssistantHandlerDeps {
  settings: AssistantSettings;
  store: ConversationStore;
  limiter: ReturnType<typeof createRateLimiter>;
  /** Undefined without a configured provider. */
  turnDeps: TurnDeps | undefined;
  tools: ReadonlyMap<string, Tool>;
}

function configured(deps: AssistantHandlerDeps): TurnDeps {
  if (!deps.turnDeps)
    throw new ApiError(
      'not_configured',
      'The in-product agent has no model provider in this deployment (settings.agent.provider and model, or RUNTIME_AGENT_PROVIDER and RUNTIME_AGENT_MODEL).',
    );
  return deps.turnDeps;
}

/** A call on one of the caller's actions: the agent's routes are tenant-scoped and not public. */
type ActionCall = TenantCall & { principal: Principal; params: { id: string } };

function limit(deps: AssistantHandlerDeps, tenantId: string, principal: Principal): void {
  const wait = deps.limiter.take(`${tenantId}\u0000${principal.subjectId}`);
  if (wait !== undefined)
    throw new ApiError('too_many_requests', `Too many agent turns; try again in ${wait} s.`, {
      headers: { 'Retry-After': String(wait) },
    });
}

function wantsJson(call: Call): boolean {
  const accept = call.headers.accept ?? '';
  return accept.includes('application/json') && !accept.includes('text/event-stream');
}

function unavailable(err: unknown): ApiError | undefined {
  if (err instanceof ProviderError)
    return new ApiError('unavailable', err.message, { headers: { 'Retry-After': '5' } });
  return undefined;
}

/** An error as the last event of a stream, in the API's shape. */
function errorEvent(err: unknown, deadline: AbortSignal, timeoutMs: number): ServerSentEvent {
  const mapped =
    unavailable(err) ??
    (deadline.aborted
      ? new ApiError('unavailable', `The turn took longer than ${timeoutMs} ms and was stopped.`)
      : new ApiError('internal_error', 'The turn failed.'));
  return { event: 'error', data: mapped.toBody() };
}

/**
 * Answers a turn: as server-sent events, or (Accept: application/json) as one JSON answer once
 * it ended. The first event is awaited before answering, so a provider that is down or slow is a
 * 503 in the error shape, not a stream that never starts. The turn is bounded by its deadline
 * and stops when the client goes away.
 */
async function answer(
  call: Call,
  conversationId: string,
  timeoutMs: number,
  turn: (signal: AbortSignal) => AsyncGenerator<ServerSentEvent>,
): Promise<Reply> {
  call.resourceId = conversationId;
  const stop = new AbortController();
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([stop.signal, deadline]);
  const events = turn(signal);
  let first: IteratorResult<ServerSentEvent>;
  try {
    first = await events.next();
  } catch (err) {
    stop.abort();
    throw (
      unavailable(err) ??
      (deadline.aborted ? new ApiError('unavailable', 'The model provider did not answer in time.') : err)
    );
  }
  if (wantsJson(call)) {
    const all: ServerSentEvent[] = first.done ? [] : [first.value];
    try {
      for await (const e of events) all.push(e);
    } catch (err) {
      all.push(errorEvent(err, deadline, timeoutMs));
    }
    const done = all.find((e) => e.event === 'done')?.data as { pending_actions?: string[] } | undefined;
    return {
      status: 200,
      body: {
        conversation_id: conversationId,
        events: all.map((e) => ({ event: e.event, data: e.data })),
        text: all
          .filter((e) => e.event === 'message')
          .map((e) => (e.data as { delta: string }).delta)
          .join(''),
        pending_actions: done?.pending_actions ?? [],
      },
    };
  }
  return {
    status: 200,
    headers: { 'X-Conversation-Id': conversationId },
    async *events(client: AbortSignal) {
      const onGone = (): void => stop.abort();
      client.addEventListener('abort', onGone, { once: true });
      try {
        if (!first.done) yield first.value;
        for (;;) {
          let next: IteratorResult<ServerSentEvent>;
          try {
            next = await events.next();
          } catch (err) {
            yield errorEvent(err, deadline, timeoutMs);
            return;
          }
          if (next.done) return;
          yield next.value;
        }
      } finally {
        client.removeEventListener('abort', onGone);
        stop.abort();
      }
    },
  };
}

/** How the system prompt names the user: the principal carries no username, so its e-mail or subject id. */
function usernameOf(principal: Principal): string {
  return principal.email ?? principal.subjectId;
}

export function assistantHandlers(deps: AssistantHandlerDeps): Record<string, Handler> {
  const { store, settings } = deps;

  async function decide(call: ActionCall, approve: boolean, reason?: string): Promise<Reply> {
    const turnDeps = configured(deps);
    const { principal, tenantId } = call;
    limit(deps, tenantId, principal);
    const action = await store.findAction(tenantId, principal.subjectId, call.params.id);
    if (!action) throw new ApiError('not_found', `No action ${call.params.id} of yours.`);
    if (action.state !== 'pending')
      throw new ApiError('conflict', `The action ${action.id} was ${action.state} already.`);
    const acting: Acting = { principal, conversationId: action.conversation_id, requestId: call.requestId };
    const context: TurnContext = { acting, tenantId, username: usernameOf(principal) };
    const now = turnDeps.now();
    // Taking the decision first makes it once-only: a second approve finds it decided (409).
    if (!(await store.decide(tenantId, action.id, approve ? 'approved' : 'denied', null, now)))
      throw new ApiError('conflict', `The action ${action.id} was decided already.`);
    return answer(call, action.conversation_id, settings.turn_timeout_ms, async function* (signal) {
      let outcome: ToolOutcome;
      const tool = deps.tools.get(action.tool);
      if (!approve)
        outcome = {
          status: 403,
          body: {
            error: {
              code: 'forbidden',
              status: 403,
              message: `The user refused this action${reason ? `: ${reason}` : '.'}`,
            },
          },
        };
      else if (!tool)
        outcome = { status: 404, body: { error: { code: 'not_found', status: 404, message: 'No such tool.' } } };
      // Run as the approving user, under the action's own idempotency key, through the route's pipeline.
      else outcome = await runTool(turnDeps.dispatcher, tool, action.arguments, acting, { idempotencyKey: action.id });
      await store.recordResult(tenantId, action.id, outcome);
      await store.append(
        tenantId,
        action.conversation_id,
        [decidedResult(action.tool_call_id, outcome)],
        turnDeps.now(),
      );
      yield {
        event: 'tool_result',
        data: { id: action.tool_call_id, status: outcome.status, summary: summarize(outcome) },
      };
      const waiting = await store.pendingActions(tenantId, action.conversation_id);
      if (waiting.length > 0) {
        yield {
          event: 'done',
          data: { conversation_id: action.conversation_id, pending_actions: waiting.map((a) => a.id) },
        };
        return;
      }
      yield* modelTurn(turnDeps, context, signal);
    });
  }

  return operationHandlers<Operations>({
    async chatWithAgent(call) {
      const turnDeps = configured(deps);
      const { principal, tenantId, body } = call;
      limit(deps, tenantId, principal);
      const now = turnDeps.now();
      let conversationId = body.conversation_id;
      if (conversationId) {
        if (!(await store.find(tenantId, principal.subjectId, conversationId)))
          throw new ApiError('not_found', `No conversation ${conversationId} of yours.`);
        const waiting = await store.pendingActions(tenantId, conversationId);
        if (waiting.length > 0)
          throw new ApiError(
            'conflict',
            `The conversation waits for a decision on ${waiting.map((a) => a.id).join(', ')}: approve or deny first.`,
          );
      } else {
        conversationId = `conv_${randomBytes(12).toString('hex')}`;
        await store.create({
          tenant_id: tenantId,
          id: conversationId,
          subject_id: principal.subjectId,
          title: body.message.replace(/\s+/g, ' ').trim().slice(0, 80),
          created_at: now,
          updated_at: now,
        });
      }
      await store.append(tenantId, conversationId, [{ role: 'user', content: body.message }], now);
      const context: TurnContext = {
        acting: { principal, conversationId, requestId: call.requestId },
        tenantId,
        username: usernameOf(principal),
      };
      return answer(call, conversationId, settings.turn_timeout_ms, (signal) => modelTurn(turnDeps, context, signal));
    },

    async listAgentConversations(call) {
      configured(deps);
      const page = pageOf(call);
      const rows = await store.list(call.tenantId, call.principal.subjectId, page.fetch, afterKey(page));
      return { status: 200, body: { items: rows.map(conversationView) } };
    },

    async getAgentConversation(call) {
      configured(deps);
      const tenantId = call.tenantId;
      const row = await store.find(tenantId, call.principal.subjectId, call.params.id);
      if (!row) throw new ApiError('not_found', `No conversation ${call.params.id} of yours.`);
      const [messages, actions] = await Promise.all([
        store.messages(tenantId, row.id),
        store.actions(tenantId, row.id),
      ]);
      return { status: 200, body: { ...conversationView(row), messages, actions: actions.map(actionView) } };
    },

    async deleteAgentConversation(call) {
      configured(deps);
      // Through the call's own transaction, so a dry run deletes nothing and the audit record commits with it.
      const own = createConversationStore(call.db);
      if (!(await own.remove(call.tenantId, call.principal.subjectId, call.params.id)))
        throw new ApiError('not_found', `No conversation ${call.params.id} of yours.`);
      return { status: 204 };
    },

    approveAgentAction: (call) => decide(call, true),
    denyAgentAction: (call) => decide(call, false, call.body.reason),
  });
}
