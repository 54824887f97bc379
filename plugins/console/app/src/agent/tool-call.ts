import { type OperationId, operations } from '../api/operations';
import type { ActionCall } from '../kit/curl';

function isOperationId(name: string): name is OperationId {
  return Object.hasOwn(operations, name);
}

/**
 * A tool call as the API call it is (a tool is named after its operation), for the curl / MCP
 * rendering. The tool's arguments are flat: those named in the path are path parameters; the
 * rest are the query of a GET or DELETE and the body of any other method, which is where the
 * routes the agent proposes take them. The MCP rendering keeps them flat, as the agent sent them.
 */
export function toActionCall(tool: string, args: Record<string, unknown>): ActionCall | undefined {
  if (!isOperationId(tool)) return undefined;
  const { method, path } = operations[tool];
  const inPath = new Set([...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]));
  const params: Record<string, string | number> = {};
  const rest: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    if (inPath.has(name) && (typeof value === 'string' || typeof value === 'number')) params[name] = value;
    else rest[name] = value;
  }
  if (method === 'GET' || method === 'DELETE') {
    const query: Record<string, string | number | boolean> = {};
    for (const [name, value] of Object.entries(rest))
      query[name] = typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
    return { op: tool, params, query };
  }
  return { op: tool, params, ...(Object.keys(rest).length ? { body: rest } : {}) };
}
