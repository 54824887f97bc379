/** The manifest as data (see manifests/manifest.schema.json, which is the authority). */
export type JsonSchema = Record<string, unknown>;
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type AuditClass = 'change' | 'action' | 'security' | 'critical' | 'none';
export type IdempotencyField = 'none' | 'request_id' | 'idempotency_key';

export interface PermissionDecl {
  name: string;
  description: string;
}

/** Another success a handler may answer with instead of `response.status`, without a body. */
export interface AlternativeResponse {
  status: number;
  description: string;
}

export interface PagingPolicy {
  default_limit: number;
  max_limit: number;
  cursor_in: 'header' | 'body';
  key: string[];
  filters?: string[];
}

/**
 * Optimistic concurrency (kernel/concurrency/etag.ts): the resource's version field, sent as the
 * ETag of the route's successful replies; `if_match`: the route's change honours If-Match (the
 * handler checks it with `ifMatch`), a stale one answered 412.
 */
export interface EntityTagDecl {
  field: string;
  if_match?: boolean;
}

/** How a WebSocket route's one-time ticket is bound (see TicketService). */
export interface TicketBinding {
  /** The channel tickets for this route are minted for. */
  channel: string;
  /** A path or query parameter whose value must be the ticket's resource. */
  resource_param?: string;
  /** The operation that mints tickets for this route (documentation for clients). */
  minted_by?: string;
}

export interface RouteDecl {
  operation: string;
  method: HttpMethod;
  path: string;
  permission: string;
  category: string;
  read_only: boolean;
  summary: string;
  description?: string;
  tenancy?: 'tenant' | 'none';
  params?: JsonSchema;
  query?: JsonSchema;
  body?: JsonSchema;
  /** `bytes`: the raw body as a Buffer whatever its Content-Type (webhooks). */
  /** `json-or-octet-stream`: JSON validated against `body`, or raw bytes (a Buffer) when sent as application/octet-stream. */
  body_type?: 'json' | 'octet-stream' | 'json-or-octet-stream' | 'bytes' | 'none';
  /**
   * A JSON body must be sent even though its schema would accept `{}`. Without it a body is
   * required only when `{}` cannot be valid (required fields, minProperties, not an object).
   */
  body_required?: boolean;
  response: { status: number; schema?: JsonSchema; content_type?: string; alternatives?: AlternativeResponse[] };
  errors?: number[];
  paging?: PagingPolicy;
  idempotency?: IdempotencyField;
  etag?: EntityTagDecl;
  audit?: { class: AuditClass; fields?: string[]; reason?: string };
  dry_run?: boolean;
  /**
   * false: a mutating route whose handler stores nothing (it computes and answers, like a
   * sandboxed run) runs outside a database transaction, so it holds no connection while it
   * works; its audit record is then written after it, in a statement of its own. Not with an
   * idempotency key (whose stored response must commit with the effect).
   */
  transaction?: boolean;
  tags?: string[];
  /** `websocket`: a GET that upgrades, opened with a one-time ticket (`?ticket=`). */
  upgrade?: 'websocket';
  ticket?: TicketBinding;
  /** `sse`: a GET answered with server-sent events (the handler returns `events`). */
  stream?: 'sse';
}

export interface Manifest {
  id: string;
  version: string;
  summary: string;
  requires?: { plugins?: string[]; services?: string[] };
  permissions?: PermissionDecl[];
  /** Error codes the plugin's handlers throw beyond the kernel's; merged into the one catalogue. */
  error_codes?: ErrorCodeDecl[];
  /** JSON Schema of the plugin's settings (`settings.<id>`), checked at boot with defaults filled in. */
  settings?: JsonSchema;
  schemas?: Record<string, JsonSchema>;
  routes: RouteDecl[];
}

export interface ErrorCodeDecl {
  code: string;
  status: number;
  description: string;
}

/** A manifest together with where it came from, so errors can name the file. */
export interface LoadedManifest {
  manifest: Manifest;
  file: string;
}

export const PUBLIC = 'public';
export const AUTHENTICATED = 'authenticated';

export function isMutating(method: HttpMethod): boolean {
  return method !== 'GET';
}

/** A route that is not one request and one buffered reply: a WebSocket or an event stream. */
export function isStreaming(route: RouteDecl): boolean {
  return route.upgrade !== undefined || route.stream !== undefined;
}
