import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** Connects the official MCP SDK client to a kernel's MCP endpoint, sending `headers` on every request. */
export async function connectMcp(
  baseUrl: string,
  headers: Record<string, string> = {},
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/agent/mcp`), { requestInit: { headers } });
  const client = new Client({ name: 'runtime-kernel-tests', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

/** Sends one raw JSON-RPC payload to the MCP endpoint (for what the SDK client never sends). */
export async function postMcp(
  baseUrl: string,
  payload: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: any; text: string }> {
  const response = await fetch(`${baseUrl}/agent/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(payload),
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  return { status: response.status, headers: response.headers, body, text };
}
