/** The JSON-RPC 2.0 envelope MCP messages travel in. */
export type JsonRpcId = string | number;

export interface JsonRpcSuccess {
  jsonrpc: '2.0';
  id: JsonRpcId;
  result: Record<string, unknown>;
}

export interface JsonRpcFailure {
  jsonrpc: '2.0';
  id: JsonRpcId | null;
  error: { code: number; message: string; data?: unknown };
}

export type JsonRpcResponse = JsonRpcSuccess | JsonRpcFailure;

/** Error codes of JSON-RPC 2.0 that MCP uses. */
export const RPC_ERROR = {
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
} as const;

/** Thrown by a method to answer with a JSON-RPC error instead of a result. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

/** What one incoming message is. Responses and notifications get no answer. */
export type Incoming =
  | { kind: 'request'; id: JsonRpcId; method: string; params: Record<string, unknown> }
  | { kind: 'notification'; method: string }
  | { kind: 'response' }
  | { kind: 'invalid'; id: JsonRpcId | null; reason: string };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isId(value: unknown): value is JsonRpcId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/** Sorts a parsed message into request, notification, response or invalid (JSON-RPC §4, §5). */
export function classify(message: unknown): Incoming {
  if (!isObject(message) || message.jsonrpc !== '2.0')
    return { kind: 'invalid', id: null, reason: 'not a JSON-RPC 2.0 message' };
  const id = isId(message.id) ? message.id : null;
  if ('method' in message) {
    if (typeof message.method !== 'string') return { kind: 'invalid', id, reason: 'method must be a string' };
    if (message.params !== undefined && !isObject(message.params))
      return { kind: 'invalid', id, reason: 'params must be an object' };
    const params = (message.params ?? {}) as Record<string, unknown>;
    if (!('id' in message)) return { kind: 'notification', method: message.method };
    if (id === null) return { kind: 'invalid', id: null, reason: 'id must be a string or a number' };
    return { kind: 'request', id, method: message.method, params };
  }
  if ('result' in message || 'error' in message) return { kind: 'response' };
  return { kind: 'invalid', id, reason: 'neither a request, a notification nor a response' };
}

export function success(id: JsonRpcId, result: Record<string, unknown>): JsonRpcSuccess {
  return { jsonrpc: '2.0', id, result };
}

export function failure(id: JsonRpcId | null, code: number, message: string, data?: unknown): JsonRpcFailure {
  return { jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } };
}

/**
 * The response as JSON text. A tool result whose structuredContent was already serialised for
 * its text block (`textOf`) has that text spliced in rather than serialised again: a list's
 * body is the bulk of the message, and this halves the work of writing it.
 */
export function encodeResponse(response: JsonRpcResponse, textOf: (result: object) => string | undefined): string {
  if ('result' in response) {
    const text = textOf(response.result);
    if (text !== undefined) {
      const { structuredContent: _spliced, ...rest } = response.result;
      // `rest` is not empty (content, isError), so the envelope ends with the result's closing brace and its own.
      const envelope = JSON.stringify({ jsonrpc: response.jsonrpc, id: response.id, result: rest });
      return `${envelope.slice(0, -2)},"structuredContent":${text}}}`;
    }
  }
  return JSON.stringify(response);
}
