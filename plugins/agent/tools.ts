import type { JsonSchema } from '../../kernel/plugin/api.js';
import type { Catalog, CompiledRoute } from '../../kernel/types.js';
import { toolInput, type ArgumentLayout } from './input-schema.js';

/** One entry of `GET /agent/tools` (spec §2 "Catalog entry"). */
export interface CatalogEntry {
  name: string;
  plugin: string;
  method: string;
  path: string;
  permission: string;
  category: string;
  read_only: boolean;
  description: string;
  idempotency: CompiledRoute['idempotency'];
  paging?: { default_limit: number; max_limit: number; cursor_in: 'header' | 'body' };
  input_schema: JsonSchema;
  /**
   * false for a WebSocket or an event stream: listed so an agent knows it exists, but it is no
   * tool (one call, one result) and MCP neither lists nor calls it.
   */
  callable: boolean;
  /** How a non-callable operation is opened. */
  transport?: 'websocket' | 'sse';
}

/** One tool in MCP `tools/list` form. */
export interface McpTool {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  annotations: {
    title: string;
    readOnlyHint: boolean;
    destructiveHint: boolean;
    idempotentHint: boolean;
    openWorldHint: boolean;
  };
}

/** An operation as a tool: its route, how its arguments map onto the route, and both listings. */
export interface Tool {
  readonly route: CompiledRoute;
  readonly layout: ArgumentLayout;
  readonly entry: CatalogEntry;
  readonly mcp: McpTool;
}

function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** What an agent needs to call the operation well, in words, from the manifest only. */
function describe(route: CompiledRoute): string {
  const { decl } = route;
  const parts = [sentence(decl.summary)];
  if (decl.description) parts.push(sentence(decl.description));
  const access =
    decl.permission === 'public'
      ? 'no credential needed'
      : decl.permission === 'authenticated'
        ? 'any credential'
        : `needs permission ${decl.permission}`;
  parts.push(`${decl.method} ${decl.path}; ${access}; ${decl.read_only ? 'read-only' : 'changes state'}.`);
  if (decl.paging) {
    parts.push(
      `Paged: limit defaults to ${decl.paging.default_limit} (at most ${decl.paging.max_limit}); pass the next_cursor of a result as cursor to read on; no next_cursor means the list ended.`,
    );
  }
  if (route.idempotency !== 'none')
    parts.push(`Send ${route.idempotency} so a retry with the same value has no second effect.`);
  if (route.dryRunAllowed)
    parts.push('dry_run=true runs every check and reports the outcome without keeping the change.');
  if (decl.upgrade === 'websocket') {
    parts.push(
      `Not a tool: a WebSocket, opened with a one-time ticket for channel ${decl.ticket?.channel ?? '?'}${decl.ticket?.minted_by ? ` (minted by ${decl.ticket.minted_by})` : ''}.`,
    );
  }
  if (decl.stream === 'sse') parts.push('Not a tool: a stream of server-sent events.');
  return parts.join(' ');
}

/**
 * Hints from the manifest alone, never from client input. A POST to a collection creates
 * (additive); a POST to a resource (`/x/{id}/stop`) acts on existing state, as PUT, PATCH and
 * DELETE do, so it is flagged destructive. Repeating a PUT or DELETE, or a call carrying its
 * declared idempotency key, has no further effect.
 */
export function annotations(route: CompiledRoute): McpTool['annotations'] {
  const { method, read_only: readOnly, summary } = route.decl;
  const onResource = /\{[^}]+\}/.test(route.path);
  return {
    title: summary,
    readOnlyHint: readOnly,
    destructiveHint:
      !readOnly && (method === 'PUT' || method === 'PATCH' || method === 'DELETE' || (method === 'POST' && onResource)),
    idempotentHint: readOnly || method === 'PUT' || method === 'DELETE' || route.idempotency !== 'none',
    openWorldHint: false,
  };
}

function toTool(route: CompiledRoute, named: Readonly<Record<string, JsonSchema>>): Tool {
  const { decl } = route;
  const { schema, layout } = toolInput(route, named);
  const description = describe(route);
  const transport: CatalogEntry['transport'] =
    decl.upgrade === 'websocket' ? 'websocket' : decl.stream === 'sse' ? 'sse' : undefined;
  const entry: CatalogEntry = {
    name: decl.operation,
    plugin: route.plugin,
    method: decl.method,
    path: route.path,
    permission: decl.permission,
    category: decl.category,
    read_only: decl.read_only,
    description,
    idempotency: route.idempotency,
    ...(decl.paging
      ? {
          paging: {
            default_limit: decl.paging.default_limit,
            max_limit: decl.paging.max_limit,
            cursor_in: decl.paging.cursor_in,
          },
        }
      : {}),
    input_schema: schema,
    callable: transport === undefined,
    ...(transport ? { transport } : {}),
  };
  const mcp: McpTool = {
    name: decl.operation,
    title: decl.summary,
    description,
    inputSchema: schema,
    annotations: annotations(route),
  };
  return { route, layout, entry, mcp };
}

/** Every operation of every enabled plugin as a tool, in catalog order; built once at boot. */
export function buildTools(catalog: Catalog): ReadonlyMap<string, Tool> {
  const named = new Map(catalog.manifests.map((m) => [m.id, m.schemas ?? {}]));
  const tools = new Map<string, Tool>();
  for (const route of catalog.routes) tools.set(route.decl.operation, toTool(route, named.get(route.plugin) ?? {}));
  return tools;
}
