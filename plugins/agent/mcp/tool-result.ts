import type { ApiError } from '../../../kernel/errors.js';
import type { Reply } from '../../../kernel/types.js';

/** An MCP `tools/call` result. */
export interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError: boolean;
}

function headerValue(headers: Reply['headers'], name: string): string | undefined {
  for (const [key, value] of Object.entries(headers ?? {})) if (key.toLowerCase() === name) return value;
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value);
}

/** The JSON text of a result's structuredContent, made once while building the result. */
const structuredTexts = new WeakMap<ToolResult, string>();

export function structuredTextOf(result: object): string | undefined {
  return structuredTexts.get(result as ToolResult);
}

/**
 * A route's reply as a tool result: the JSON body as text (what a model reads) and, when it is
 * an object, as structuredContent. A header cursor (`X-Next-Cursor`) becomes `next_cursor`, the
 * same field body-cursor lists carry, so an agent pages every list the same way.
 */
export function replyResult(reply: Reply): ToolResult {
  const body = reply.body;
  let structured = isRecord(body) ? body : undefined;
  const cursor = headerValue(reply.headers, 'x-next-cursor');
  if (cursor !== undefined && structured && !('next_cursor' in structured))
    structured = { ...structured, next_cursor: cursor };
  let text: string;
  if (body === undefined || body === null || body === '') text = JSON.stringify({ status: reply.status });
  else if (Buffer.isBuffer(body)) text = `base64:${body.toString('base64')}`;
  else if (typeof body === 'string') text = body;
  else text = JSON.stringify(structured ?? body);
  const result: ToolResult = { content: [{ type: 'text', text }], isError: reply.status >= 400 };
  if (structured) {
    // structuredContent is the same JSON as the text: the transport embeds this text instead of
    // serialising the body a second time (see encodeResponse).
    result.structuredContent = structured;
    structuredTexts.set(result, text);
  }
  return result;
}

/** A REST error as a tool result: the spec's error object, as text and as structuredContent. */
export function errorResult(error: ApiError): ToolResult {
  const body = error.toBody() as unknown as Record<string, unknown>;
  return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body, isError: true };
}
