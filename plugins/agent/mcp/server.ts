import type { Logger } from 'pino';
import { ApiError, toApiError } from '../../../kernel/errors.js';
import type { Dispatcher, Principal } from '../../../kernel/types.js';
import { ArgumentError, splitArguments } from '../arguments.js';
import { offeredTo } from '../visibility.js';
import type { McpTool, Tool } from '../tools.js';
import { classify, failure, RPC_ERROR, RpcError, success, type JsonRpcResponse } from './jsonrpc.js';
import { errorResult, replyResult, type ToolResult } from './tool-result.js';
import { negotiate } from './versions.js';

/** Who is asking, as the MCP route's own pipeline authenticated them. */
export interface McpCaller {
  principal: Principal;
  /** The credential and attribution headers, forwarded to every dispatched tool call. */
  headers: Record<string, string | undefined>;
  requestId: string;
}

export interface McpServerOptions {
  /** Every tool the server offers (the MCP transport route itself is not among them). */
  tools: ReadonlyMap<string, Tool>;
  dispatcher: Dispatcher;
  readOnly: boolean;
  serverInfo: { name: string; version: string };
  logger: Logger;
}

const INSTRUCTIONS =
  'Each tool is one operation of the runtime control-plane API. A call runs with your credential: its permissions, tenant (pass tenant_id to choose one you may act in), read-only restriction and audit trail apply exactly as over REST. A failed call returns isError with the API error object {"error":{"code","message","status"}}; branch on error.code.';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export interface McpServer {
  handle(message: unknown, caller: McpCaller): Promise<JsonRpcResponse | undefined>;
  /** The tools `principal` may call, in catalog order: the tools/list result (also GET /agent/mcp). */
  list(principal: Principal): McpTool[];
}

/**
 * The MCP methods of a stateless server: nothing is remembered between messages, so any
 * instance can answer any message. Tool calls go through the kernel's dispatcher, i.e. the
 * very pipeline the REST route runs.
 */
export function createMcpServer(options: McpServerOptions): McpServer {
  const { tools, dispatcher, readOnly, serverInfo, logger } = options;

  const visible = (tool: Tool, principal: Principal): boolean => offeredTo(tool, principal, readOnly);

  function list(principal: Principal): McpTool[] {
    const listed: McpTool[] = [];
    for (const tool of tools.values()) if (visible(tool, principal)) listed.push(tool.mcp);
    return listed;
  }

  async function callTool(params: Record<string, unknown>, caller: McpCaller): Promise<ToolResult> {
    const { name } = params;
    const args = params.arguments ?? {};
    if (typeof name !== 'string')
      throw new RpcError(RPC_ERROR.invalidParams, 'tools/call needs the tool name as params.name.');
    if (!isPlainObject(args)) throw new RpcError(RPC_ERROR.invalidParams, 'params.arguments must be an object.');
    const tool = tools.get(name);
    if (!tool) throw new RpcError(RPC_ERROR.invalidParams, `Unknown tool: ${name.slice(0, 100)}`);
    if (readOnly && !tool.route.decl.read_only) {
      return errorResult(new ApiError('forbidden', `This MCP server is in read-only mode; ${name} changes state.`));
    }
    let split;
    try {
      split = splitArguments(args, tool.layout);
    } catch (err) {
      if (err instanceof ArgumentError) throw new RpcError(RPC_ERROR.invalidParams, err.message);
      throw err;
    }
    try {
      const reply = await dispatcher.dispatch({
        operation: name,
        ...split,
        headers: caller.headers,
        transport: 'mcp',
        requestId: caller.requestId,
        // The MCP route authenticated this request already; the tool call reuses that principal
        // (one request, one authentication, as over REST). A break-glass key is presented again
        // on every call instead, so each use is audited at critical severity with its reason.
        ...(caller.principal.credential.kind === 'break_glass' ? {} : { principal: caller.principal }),
      });
      return replyResult(reply);
    } catch (err) {
      const error = toApiError(err);
      // Arguments the route's schemas refuse are a protocol error (the agent sent a bad call),
      // carrying the same pointers a REST client gets; anything else is the tool's own outcome.
      if (error.code === 'validation_error') throw new RpcError(RPC_ERROR.invalidParams, error.message, error.toBody());
      if (error.status >= 500)
        logger.error({ err: error.cause ?? err, requestId: caller.requestId, tool: name }, 'tool call failed');
      return errorResult(error);
    }
  }

  async function dispatch(
    method: string,
    params: Record<string, unknown>,
    caller: McpCaller,
  ): Promise<Record<string, unknown>> {
    switch (method) {
      case 'initialize': {
        if (typeof params.protocolVersion !== 'string')
          throw new RpcError(RPC_ERROR.invalidParams, 'initialize needs params.protocolVersion.');
        return {
          protocolVersion: negotiate(params.protocolVersion),
          capabilities: { tools: { listChanged: false } },
          serverInfo,
          instructions: INSTRUCTIONS,
        };
      }
      case 'ping':
        return {};
      case 'tools/list':
        return { tools: list(caller.principal) };
      case 'tools/call':
        return callTool(params, caller);
      default:
        throw new RpcError(RPC_ERROR.methodNotFound, `Method not found: ${method.slice(0, 100)}`);
    }
  }

  return {
    list,
    async handle(message, caller) {
      const incoming = classify(message);
      if (incoming.kind === 'invalid')
        return failure(incoming.id, RPC_ERROR.invalidRequest, `Invalid request: ${incoming.reason}.`);
      // Notifications (initialized, cancelled, progress) and client responses need no answer:
      // a stateless server has nothing to update for them.
      if (incoming.kind !== 'request') return undefined;
      try {
        return success(incoming.id, await dispatch(incoming.method, incoming.params, caller));
      } catch (err) {
        if (err instanceof RpcError) return failure(incoming.id, err.code, err.message, err.data);
        logger.error({ err, requestId: caller.requestId, method: incoming.method }, 'MCP method failed');
        return failure(incoming.id, RPC_ERROR.internalError, 'Internal error.');
      }
    },
  };
}
