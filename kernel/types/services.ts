/** The services the kernel offers plugins (each asks for those it needs). */
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Sandbox } from '../../sandbox/types.js';
import type { KernelConfig } from '../config/types.js';
import type { Events } from '../events/types.js';
import type { Jobs } from '../jobs/types.js';
import type { Manifest } from '../manifest/types.js';
import type { Authenticator, TicketService } from './authentication.js';
import type { CompiledRoute, Principal, Transport } from './call.js';
import type { AuditSink, LogSink } from './records.js';
import type { Reply } from './reply.js';

export interface Clock {
  now(): Date;
}

export interface Readiness {
  /** Registers a named check; the service is ready only when every check passes. */
  add(name: string, check: () => Promise<boolean>): void;
  /** Runs every check (each bounded by a deadline); fail-closed: a check that throws or hangs fails. */
  evaluate(): Promise<{ ready: boolean; checks: Record<string, boolean> }>;
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

/** Services the kernel offers; a plugin gets only those its manifest `requires.services`. */
export interface KernelServices {
  db: Knex;
  logger: Logger;
  /** The whole kernel configuration (frozen). A plugin's own settings come in PluginContext. */
  config: Readonly<KernelConfig>;
  clock: Clock;
  catalog: Catalog;
  dispatcher: Dispatcher;
  metrics: Registry;
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
  sandbox: Sandbox;
  /** Copies of the embedded database for work off the server's thread (db/copy.ts); unavailable on a server. */
  databaseCopy: import('../db/copy.js').DatabaseCopy;
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
