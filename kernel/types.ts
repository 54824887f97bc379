/**
 * The kernel's contracts. A request is a transport-neutral `Call` that flows through the
 * steps composed for its route; HTTP (Koa) and MCP are only two ways of making a Call, so
 * both reach the very same pipeline.
 */
import type { Knex } from 'knex';
import type { CombinedWrite } from './db/combined-write.js';
import type { Logger } from 'pino';
import type { WebSocket } from 'ws';
import type { RouteDecl, Manifest, JsonSchema } from './manifest/types.js';
import type { Jobs } from './jobs/types.js';
import type { Events } from './events/types.js';
import type { Contribution, ExtensionPoint, ServiceRef } from './plugin/refs.js';

/** Who is calling, as the authentication chain established it. */
export interface Principal {
  subjectId: string;
  tenantId: string;
  /** How the caller authenticated and the id of that credential (session id, token id, ...). */
  credential: { kind: CredentialKind; id: string };
  roles: readonly string[];
  permissions: ReadonlySet<string>;
  /** A credential restricted to read-only operations (e.g. a read-only API token). */
  readOnly?: boolean;
  email?: string;
}

export type CredentialKind = 'session' | 'api_token' | 'oidc' | 'break_glass' | 'local' | 'maintenance';

/** Audit attribution taken from the X-Service-* headers (spec §5). */
export interface Attribution {
  actorType: 'human' | 'service' | 'agent';
  agentId?: string;
  actorId?: string;
  actorEmail?: string;
}

/** What the kernel's paging step hands a list handler: a keyset position, never an offset. */
export interface PageRequest {
  /** How many items the caller asked for, clamped to the route's ceiling. */
  limit: number;
  /** The handler should fetch this many rows (limit + 1) so the kernel knows whether more follow. */
  fetch: number;
  /** Values of the route's paging key for the last row already served; absent on the first page. */
  after?: readonly unknown[];
}

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /**
   * A route declared `stream: "sse"` answers 200 with this instead of a body: the kernel pulls
   * one event at a time (never faster than the client reads), sends heartbeat comments while it
   * waits, and aborts `signal` when the client goes away or the kernel shuts down.
   */
  events?: EventSource;
  /** A route declared `upgrade: "websocket"` answers with this: it takes the socket once the upgrade is done. */
  websocket?: SocketSession;
}

/** One server-sent event; `data` is sent as is when a string, as JSON otherwise. */
export interface ServerSentEvent {
  id?: string | number;
  event?: string;
  data: unknown;
  /** Reconnection delay the client should use, in milliseconds. */
  retry?: number;
}

/** What a streamed route's handler returns: an async generator, typically, that honours `signal`. */
export type EventSource = (signal: AbortSignal) => AsyncIterable<ServerSentEvent>;

/**
 * Runs one WebSocket connection (the `ws` package's socket). The kernel has checked the ticket,
 * tenancy and RBAC before; it pings the peer, enforces the payload limit and closes the socket
 * when its credential is revoked or the kernel shuts down, so the session only listens for 'close'.
 */
export type SocketSession = (socket: WebSocket) => void;

/** How a call reached the pipeline: HTTP, an MCP tool call, or an operator's maintenance command. */
export type Transport = 'http' | 'mcp' | 'cli';

/** One request as it flows through the pipeline. Steps fill in the optional parts. */
export interface Call {
  readonly requestId: string;
  readonly route: CompiledRoute;
  readonly transport: Transport;
  readonly method: string;
  /** The concrete path requested. */
  readonly path: string;
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  /** Lower-cased header names. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** Parsed JSON, a Buffer for octet-stream routes, or undefined. */
  body: unknown;
  readonly receivedAt: Date;
  principal?: Principal;
  tenantId?: string;
  attribution: Attribution;
  page?: PageRequest;
  idempotencyKey?: string;
  dryRun: boolean;
  /** Database handle for the handler: the request's transaction when the route writes. */
  db: Knex | Knex.Transaction;
  /**
   * Set instead of a transaction when the handler asked for a combined write (see Handler's
   * `combinedWrite`): its writes go here, `db` is then for reads only, and the kernel sends them
   * with the call's audit record as one statement after the handler returns.
   */
  write?: CombinedWrite;
  /** Resource id the handler acted on, for the audit record; defaults to params.id or body id. */
  resourceId?: string;
  /** Facts steps record for the audit record and the dry-run report. */
  readonly notes: CallNotes;
}

export interface CallNotes {
  permissionChecked?: string;
  auditFields?: Record<string, unknown>;
  /** Set once the audit record of this call has been written (so it is written exactly once). */
  audited?: boolean;
  /** Extra detail for the audit record, e.g. the reason sent with a break-glass key. */
  auditDetail?: Record<string, unknown>;
  severity?: 'info' | 'critical';
  /** Set when the idempotency step answered with a stored response (no effect this time). */
  replayed?: boolean;
}

export type Handler = ((call: Call) => Promise<Reply> | Reply) & {
  /**
   * Optional work of a mutating route done after validation but before its transaction opens,
   * for a slow remote call whose outcome the handler then records (the handler finds what it
   * left by the call). It holds no database connection while it waits, which on the embedded
   * database (one connection) would stall every other write. What it does is not rolled back by
   * a failing transaction, so it must be safe to leave behind. Not run for dry runs.
   */
  beforeTransaction?: (call: Call) => Promise<void>;
  /**
   * Optional: true when this call's effect is a few writes that need no reads in between (appends,
   * say). The handler then gets `call.write` instead of a transaction and adds its writes there;
   * the kernel commits them with the audit record in one statement. Asked after
   * `beforeTransaction`, never for dry runs or calls with an idempotency key (their key is claimed
   * in a transaction).
   */
  combinedWrite?: (call: Call) => boolean;
};
export type Next = () => Promise<Reply>;
export type Step = (call: Call, next: Next) => Promise<Reply>;

/** Builds the step for one route at boot; returns null when the step does not apply to it. */
export type StepFactory = (route: CompiledRoute, kernel: KernelServices, handler?: Handler) => Step | null;

/** A manifest route after boot: its plugin, compiled validators and composed pipeline. */
export interface CompiledRoute {
  readonly plugin: string;
  readonly decl: RouteDecl;
  /** The OpenAPI-style path (`/components/{id}`). */
  readonly path: string;
  readonly mutating: boolean;
  readonly idempotency: 'none' | 'request_id' | 'idempotency_key';
  readonly auditClass: 'change' | 'action' | 'security' | 'critical' | 'none';
  readonly dryRunAllowed: boolean;
  readonly tenancy: 'tenant' | 'none';
  /**
   * Effective schemas: the manifest's, plus the fields the kernel adds (tenant_id, limit,
   * cursor, dry_run, the idempotency field). `$ref`s still point at `#/schemas/<Name>` of the
   * route's plugin; consumers rewrite them with `rewriteRefs`.
   */
  readonly schemas: { params?: JsonSchema; query?: JsonSchema; body?: JsonSchema; response?: JsonSchema };
}

/** A credential as a ticket or an open socket remembers it (never the secret itself). */
export interface HeldCredential {
  tenantId: string;
  subjectId: string;
  credential: Principal['credential'];
}

/** Pluggable link in the authentication chain. */
export interface Authenticator {
  /**
   * Human name of the scheme, used in logs and the OpenAPI document. A link that implements
   * `resume` or `stillValid` names the credential kind its principals carry (`session`, ...).
   */
  readonly name: string;
  /**
   * Returns the principal, or null when the request carries no credential of this scheme (the
   * chain then tries the next link). Throws ApiError('invalid_credentials') for a credential of
   * this scheme that is wrong.
   */
  authenticate(call: Call): Promise<Principal | null>;
  /** OpenAPI security schemes this link accepts, by scheme name. */
  readonly securitySchemes?: Record<string, Record<string, unknown>>;
  /**
   * The principal of a credential this link accepted earlier, as it stands now (current roles
   * and permissions), or null when it is no longer valid. Used when a WebSocket ticket minted
   * under the credential is redeemed; without it the principal is taken as it was at minting.
   */
  resume?(held: HeldCredential, db: Knex): Promise<Principal | null>;
  /**
   * The ids of those credentials that are still valid (not revoked, expired or disabled): one
   * pass for many open sockets. The kernel closes the sockets of the others.
   */
  stillValid?(held: readonly HeldCredential[], db: Knex): Promise<ReadonlySet<string>>;
}

export type AuditOutcome = 'success' | 'refused' | 'failed' | 'replayed' | 'dry_run';

/** Record of one mutating call, written by the kernel's audit step through an AuditSink. */
export interface AuditEntry {
  tenantId: string;
  operation: string;
  method: string;
  path: string;
  resourceId: string | null;
  status: number;
  /**
   * success: the effect committed; refused: a 4xx; failed: a 5xx; replayed: an idempotent
   * retry answered from the stored response; dry_run: checked and rolled back, nothing persisted.
   */
  outcome: AuditOutcome;
  errorCode: string | null;
  requestId: string;
  idempotencyKey: string | null;
  principal: Principal | null;
  attribution: Attribution;
  fields: Record<string, unknown>;
  detail: Record<string, unknown>;
  severity: 'info' | 'critical';
  transport: Transport;
  at: Date;
}

export interface AuditSink {
  /** Writes the record using `db`, which is the call's own transaction when it has one. */
  write(db: Knex | Knex.Transaction, entry: AuditEntry): Promise<void>;
  /** Adds the record to a call's combined write, so it commits with the effect in one statement; without it, such calls run in a transaction. */
  addTo?(write: CombinedWrite, entry: AuditEntry): void;
}

export interface Clock {
  now(): Date;
}

export interface Readiness {
  /** Registers a named check; the service is ready only when every check passes. */
  add(name: string, check: () => Promise<boolean>): void;
  /** Runs every check (each bounded by a deadline); fail-closed: a check that throws or hangs fails. */
  evaluate(): Promise<{ ready: boolean; checks: Record<string, boolean> }>;
}

/** What a runtime log record holds (GET /logs). */
export interface LogRecord {
  tenantId: string;
  level: 'debug' | 'info' | 'warn' | 'error';
  source: string;
  message: string;
  fields?: Record<string, unknown>;
}

export interface LogSink {
  /**
   * Accepts a record; resolves once it is queued, not stored, so a caller inside a request's
   * transaction never waits for the database (the embedded one has a single connection).
   */
  write(record: LogRecord): Promise<void>;
  /** Resolves when every record accepted so far is stored. */
  flush?(): Promise<void>;
}

/** The catalog of every route of every enabled plugin; the source of OpenAPI and agent tools. */
export interface Catalog {
  readonly routes: readonly CompiledRoute[];
  readonly manifests: readonly Manifest[];
  readonly permissions: ReadonlyMap<string, { plugin: string; description: string }>;
  byOperation(operation: string): CompiledRoute | undefined;
  /** The JSON Schema of a route part with `$ref`s resolved to OpenAPI component refs. */
  openapi(): Record<string, unknown>;
}

export interface DispatchRequest {
  operation: string;
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
  headers?: Record<string, string | undefined>;
  transport: Transport;
  requestId?: string;
  /**
   * The principal the calling route already authenticated for this same request (the MCP
   * transport does). The dispatched call then takes it instead of running the credential chain
   * again: one request, one authentication, as over REST. Omit it to authenticate from `headers`.
   */
  principal?: Principal;
}

/** Runs a call through a route's composed pipeline without HTTP (used by the MCP server). */
export interface Dispatcher {
  dispatch(request: DispatchRequest): Promise<Reply>;
}

/** A ticket as its minter receives it; only its SHA-256 is stored. */
export interface MintedTicket {
  ticket: string;
  expires_at: string;
}

/**
 * One-time tickets that open WebSocket routes (a browser cannot send a credential header on a
 * WebSocket). A plugin mints one over an authenticated route; the kernel redeems it in the
 * upgrade, once, within 30 s, for the same subject, tenant, resource and channel.
 */
export interface TicketService {
  /**
   * Mints a ticket for the call's principal and tenant, written with the call's database handle
   * (so a dry run or a failed call leaves none). `channel` is the `ticket.channel` a WebSocket
   * route declares; `resource` is what the socket is for (a workspace id, a room).
   */
  mint(call: Call, binding: { resource: string; channel: string }): Promise<MintedTicket>;
}

/** Services the kernel offers; a plugin gets only those its manifest `requires.services`. */
export interface KernelServices {
  db: Knex;
  logger: Logger;
  /** The whole kernel configuration (frozen). A plugin's own settings come in PluginContext. */
  config: Readonly<import('./config/types.js').KernelConfig>;
  clock: Clock;
  catalog: Catalog;
  dispatcher: Dispatcher;
  metrics: import('prom-client').Registry;
  readiness: Readiness;
  secrets: SecretStore;
  /** The authentication chain, in order, as the enabled plugins contributed it. */
  authenticators: readonly Authenticator[];
  audit: AuditSink | undefined;
  logs: LogSink | undefined;
  /** The tenants that exist, when a plugin (identity) knows them. */
  tenants: TenantDirectory | undefined;
  /** Background jobs under leases in the database (one instance runs a job at a time), and the leases themselves. */
  jobs: Jobs;
  /** Publish/subscribe within the process and across instances. */
  events: Events;
  /** One-time tickets that open WebSocket routes. */
  tickets: TicketService;
  /** Runs tenant code (QuickJS in worker threads); workers start on the first run. */
  sandbox: import('../sandbox/types.js').Sandbox;
}

/** Which tenants exist: the kernel asks it to refuse writes to unknown tenants and to list account-wide. */
export interface TenantDirectory {
  /** Every tenant id, in ascending order. */
  list(db: Knex): Promise<string[]>;
  exists(db: Knex, id: string): Promise<boolean>;
}

/** Secrets the kernel generates once and shares across instances through the database. */
export interface SecretStore {
  /** A 32-byte key by name, created on first use and the same on every instance. */
  key(name: string): Promise<Buffer>;
}

export interface Migration {
  name: string;
  up(db: Knex): Promise<void>;
  down?(db: Knex): Promise<void>;
  /** false: runs outside a transaction, for statements PostgreSQL refuses inside one (CREATE INDEX CONCURRENTLY). */
  transaction?: false;
  /**
   * With `transaction: false`: the same change in the forms PostgreSQL allows in a transaction
   * (CREATE INDEX for CREATE INDEX CONCURRENTLY), run instead of `up` inside the start's one
   * transaction when the database had no migration applied yet: every table is then created
   * in that transaction and empty, so nothing is gained by building concurrently (which waits
   * for every other transaction on the database and costs two more commits).
   */
  upInTransaction?(db: Knex): Promise<void>;
}

/** What a plugin contributes once set up. */
export interface PluginInstance {
  handlers: Record<string, Handler>;
  /**
   * Values for extension points: the kernel's (authenticators, pipeline steps, the audit and log
   * sinks, the tenant directory, jobs; see kernel/plugin/api.ts) or another plugin's.
   */
  contributions?: readonly Contribution<unknown>[];
  /** Extension points this plugin offers (others contribute; it reads them through `extensions`). */
  offers?: readonly ExtensionPoint<unknown>[];
  start?(): Promise<void>;
  stop?(): Promise<void>;
}

/** Named insertion points of the pipeline where plugins may add a step. */
export type StepSlot = 'authenticate' | 'authorize';

/** What a plugin's `prepare` receives: nothing that reaches the database or another plugin. */
export interface PluginPrepareContext {
  id: string;
  /** The plugin's settings, checked against its manifest's schema, defaults filled in, frozen. */
  settings: Readonly<Record<string, unknown>>;
  profile: import('./config/types.js').KernelConfig['profile'];
  mode: KernelMode;
  /**
   * Whether the database is created by this boot: true for an embedded database without a
   * cluster yet, false for one that has it, undefined for a server (unknown until queried).
   */
  newDatabase: boolean | undefined;
}

export interface PluginContext {
  id: string;
  manifest: Manifest;
  /** The plugin's own section of the config (`plugins.<id>` settings), frozen. */
  settings: Readonly<Record<string, unknown>>;
  /**
   * The services the plugin asked for, by the name it gave them: its `deps` (typed plugins) or
   * the ids in its manifest's `requires.services` (plain JavaScript plugins). Always `logger`
   * (named after the plugin) and `clock` too.
   */
  services: Readonly<Record<string, unknown>>;
  /** What the plugin's `prepare` returned (undefined without one). */
  prepared?: unknown;
  /**
   * `serve`: a server. `maintenance`: a kernel booted to run one operator command and stop; it
   * never listens, and a plugin provisions nothing on its own (no first-start accounts).
   */
  mode: KernelMode;
}

export type KernelMode = 'serve' | 'maintenance';

/**
 * An operator command a plugin offers (`npm run admin -- <name> [arguments]`), for what the API
 * cannot do, such as recovering a lost admin password.
 */
export interface MaintenanceCommand {
  /** One line for the list of commands. */
  summary: string;
  /** Its arguments, e.g. `[--tenant <id>] [--user <name>]`. */
  usage: string;
  /**
   * Runs in a kernel booted in maintenance mode: migrated and set up, not listening, holding the
   * data directory as a server would. Throws CommandError for wrong arguments or a missing target.
   */
  run(context: MaintenanceContext): Promise<void>;
}

export interface MaintenanceContext {
  args: readonly string[];
  services: KernelServices;
  /** The plugin's own settings, as its setup() receives them. */
  settings: Readonly<Record<string, unknown>>;
  env: Readonly<Record<string, string | undefined>>;
  /** Prints one line of the command's result on stdout (logs go to stderr). */
  print(line: string): void;
}

/** A plugin module's default export. */
export interface PluginDefinition {
  id: string;
  /** Path of the manifest file, or the manifest itself. */
  manifest: string | Manifest;
  migrations?: Migration[];
  /** The services it depends on, as typed references (createPlugin); else its manifest's `requires.services`. */
  deps?: Readonly<Record<string, ServiceRef<unknown>>>;
  /**
   * Work that needs no service, started as soon as the plugins are resolved (before the database
   * opens) so it runs beside the rest of the boot; setup receives its result as `prepared`.
   */
  prepare?(context: PluginPrepareContext): unknown;
  setup(context: PluginContext): PluginInstance | Promise<PluginInstance>;
  /** Operator commands by name (kebab-case), run by kernel/admin. */
  commands?: Record<string, MaintenanceCommand>;
}
