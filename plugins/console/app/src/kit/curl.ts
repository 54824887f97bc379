import { operations, type OperationId } from '../api/operations';

/** One call of the API, as the console is about to make it. */
export interface ActionCall {
  op: OperationId;
  params?: Record<string, string | number>;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
}

/** The operation's path with its `{param}` placeholders filled. */
export function concretePath(call: ActionCall): string {
  const template = operations[call.op].path as string;
  return template.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(String(call.params?.[name] ?? `{${name}}`)),
  );
}

function queryString(query: ActionCall['query']): string {
  const pairs = Object.entries(query ?? {}).filter(([, v]) => v !== undefined) as Array<
    [string, string | number | boolean]
  >;
  return pairs.length ? `?${new URLSearchParams(pairs.map(([k, v]) => [k, String(v)])).toString()}` : '';
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The same call as a curl command line with a Bearer token (scripts keep tokens; the browser keeps a cookie). */
export function asCurl(call: ActionCall, origin: string = window.location.origin): string {
  const op = operations[call.op];
  const lines = [
    `curl -X ${op.method} ${shellQuote(`${origin}${concretePath(call)}${queryString(call.query)}`)}`,
    `  -H "Authorization: Bearer $RUNTIME_TOKEN"`,
  ];
  if (call.body !== undefined) {
    lines.push(`  -H 'content-type: application/json'`);
    lines.push(`  -d ${shellQuote(JSON.stringify(call.body))}`);
  }
  return lines.join(' \\\n');
}

/** The same call as an MCP `tools/call` message: the tool is named after the operation, its arguments flattened. */
export function asMcpCall(call: ActionCall): string {
  const body =
    call.body && typeof call.body === 'object' && !Array.isArray(call.body)
      ? (call.body as Record<string, unknown>)
      : call.body !== undefined
        ? { body: call.body }
        : {};
  const args = {
    ...(call.params ?? {}),
    ...Object.fromEntries(Object.entries(call.query ?? {}).filter(([, v]) => v !== undefined)),
    ...body,
  };
  return JSON.stringify(
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: call.op, arguments: args } },
    null,
    2,
  );
}
