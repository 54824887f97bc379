import { toApiError } from '../../../kernel/errors.js';
import type { Dispatcher, Principal, Reply } from '../../../kernel/types.js';
import { ArgumentError, splitArguments } from '../arguments.js';
import type { Tool } from '../tools.js';

/** What a tool call came to: the status and body the route answered (an error in the API's shape). */
export interface ToolOutcome {
  status: number;
  body: unknown;
}

/** Who the agent acts for, in which conversation. */
export interface Acting {
  principal: Principal;
  conversationId: string;
  requestId: string;
}

/**
 * Runs one tool call through the route's own pipeline — the caller's principal, tenancy, RBAC,
 * validation, idempotency and audit — attributed to the agent (`X-Service-Agent-Id`: the
 * conversation), as the MCP server does. Nothing is retried and nothing is widened: a refusal is
 * the outcome.
 */
export async function runTool(
  dispatcher: Dispatcher,
  tool: Tool,
  args: Record<string, unknown>,
  acting: Acting,
  options: { dryRun?: boolean; idempotencyKey?: string } = {},
): Promise<ToolOutcome> {
  let split: ReturnType<typeof splitArguments>;
  try {
    split = splitArguments(args, tool.layout);
  } catch (err) {
    if (err instanceof ArgumentError)
      return { status: 400, body: { error: { code: 'validation_error', message: err.message, status: 400 } } };
    throw err;
  }
  const headers: Record<string, string> = { 'x-service-agent-id': acting.conversationId };
  const query = { ...split.query, ...(options.dryRun ? { dry_run: 'true' } : {}) };
  let body = split.body;
  if (options.idempotencyKey) {
    // The approval's own key, so a repeated approve has no second effect on routes that take one.
    if (tool.route.idempotency === 'idempotency_key') headers['idempotency-key'] = options.idempotencyKey;
    else if (tool.route.idempotency === 'request_id' && body && typeof body === 'object' && !Array.isArray(body))
      body = { ...(body as Record<string, unknown>), request_id: options.idempotencyKey };
  }
  try {
    const reply: Reply = await dispatcher.dispatch({
      operation: tool.route.decl.operation,
      params: split.params,
      query,
      body,
      headers,
      transport: 'agent',
      requestId: acting.requestId,
      principal: acting.principal,
    });
    return { status: reply.status, body: Buffer.isBuffer(reply.body) ? `<${reply.body.length} bytes>` : reply.body };
  } catch (err) {
    const error = toApiError(err);
    return { status: error.status, body: error.toBody() };
  }
}

/** One line for the client: what the call came to, without its whole body. */
export function summarize(outcome: ToolOutcome): string {
  const body = outcome.body as Record<string, unknown> | undefined;
  const error = body?.error as { code?: string; message?: string } | undefined;
  if (error) return `${outcome.status} ${error.code ?? 'error'}: ${error.message ?? ''}`.trim();
  if (body && Array.isArray(body.items)) return `${outcome.status}: ${body.items.length} item(s)`;
  if (body && typeof body.id === 'string') return `${outcome.status}: ${body.id}`;
  return String(outcome.status);
}
