import { ApiError } from '../../kernel/errors.js';
import { operationHandlers } from '../../kernel/plugin/api.js';
import type { Call, Handler, Reply } from '../../kernel/types.js';
import type { Operations } from './generated/manifest-types.js';
import { encodeResponse, failure, RPC_ERROR } from './mcp/jsonrpc.js';
import { checkOrigin } from './mcp/origin.js';
import { structuredTextOf } from './mcp/tool-result.js';
import type { McpServer } from './mcp/server.js';
import { checkVersionHeader } from './mcp/versions.js';
import type { AgentSettings } from './settings.js';
import type { Tool } from './tools.js';

/** The operation of the MCP transport route; it is a route, not a tool of itself. */
export const MCP_TRANSPORT_OPERATION = 'postMcpMessage';

/** Headers a dispatched tool call inherits: the credential and the audit attribution. */
function forwardedHeaders(headers: Call['headers']): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (
      name === 'authorization' ||
      name === 'x-api-key' ||
      name === 'x-break-glass-reason' ||
      name.startsWith('x-service-')
    )
      out[name] = value;
  }
  return out;
}

/** True for a GET from an MCP client opening an SSE stream (it accepts text/event-stream only). */
function wantsEventStreamOnly(accept: string | undefined): boolean {
  if (!accept) return false;
  const types = accept.split(',').map((part) => (part.split(';')[0] ?? '').trim().toLowerCase());
  return (
    types.includes('text/event-stream') &&
    !types.some((t) => t === 'application/json' || t === 'application/*' || t === '*/*')
  );
}

/** 202 with an empty body: Koa would turn a body-less 202 into 204, which MCP does not allow. */
const ACCEPTED: Reply = { status: 202, body: '' };

export function agentHandlers(input: {
  settings: AgentSettings;
  tools: ReadonlyMap<string, Tool>;
  server: McpServer;
}): Record<string, Handler> {
  const { settings, tools, server } = input;
  const catalog = [...tools.values()].map((t) => t.entry);

  return operationHandlers<Operations>({
    listAgentTools(call) {
      const { category, read_only: readOnly } = call.query;
      const tools = catalog.filter(
        (e) =>
          (category === undefined || e.category === category) && (readOnly === undefined || e.read_only === readOnly),
      );
      return { status: 200, body: { tools } };
    },

    listMcpTools(call) {
      checkOrigin(call.headers.origin, settings.allowedOrigins);
      if (wantsEventStreamOnly(call.headers.accept)) {
        throw new ApiError(
          'method_not_allowed',
          'This MCP server is stateless and offers no server-sent event stream; POST JSON-RPC messages to /agent/mcp.',
          { headers: { Allow: 'GET, POST' } },
        );
      }
      // The very filter of the MCP method tools/list: what this caller may call, nothing more.
      return { status: 200, body: { tools: server.list(call.principal) } };
    },

    async [MCP_TRANSPORT_OPERATION](call) {
      checkOrigin(call.headers.origin, settings.allowedOrigins);
      checkVersionHeader(call.headers['mcp-protocol-version']);
      const caller = {
        principal: call.principal,
        headers: forwardedHeaders(call.headers),
        requestId: call.requestId,
      };
      if (!Array.isArray(call.body)) {
        const answer = await server.handle(call.body, caller);
        return answer
          ? {
              status: 200,
              headers: { 'Content-Type': 'application/json; charset=utf-8' },
              body: encodeResponse(answer, structuredTextOf),
            }
          : ACCEPTED;
      }
      if (call.body.length === 0)
        return { status: 200, body: failure(null, RPC_ERROR.invalidRequest, 'Invalid request: an empty batch.') };
      // A batch (protocol 2025-03-26) is answered in order, one message after the other.
      const answers = [];
      for (const message of call.body) {
        const answer = await server.handle(message, caller);
        if (answer) answers.push(answer);
      }
      return answers.length > 0 ? { status: 200, body: answers } : ACCEPTED;
    },
  });
}
