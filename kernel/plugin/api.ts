/**
 * The kernel's public API for plugins: with `kernel/errors.ts` and `kernel/types.ts`, the only
 * kernel module a plugin imports. A plugin declares the services it needs as typed references
 * and receives exactly those, typed; it offers and contributes to extension points; it owns its
 * manifest, migrations, settings schema and error codes. (Backstage's `createBackendPlugin`,
 * `coreServices` and `createExtensionPoint` are the model.)
 */
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { KernelConfig } from '../config/types.js';
import type { Events } from '../events/types.js';
import type { JobSpec, Jobs } from '../jobs/types.js';
import { refuseWhileUsed, type DependentsSource, type InUse } from './dependents.js';
import type {
  AuditEntry,
  AuditSink,
  Authenticator,
  Catalog,
  Clock,
  Dispatcher,
  KernelMode,
  LogRecord,
  LogSink,
  MaintenanceCommand,
  Migration,
  PluginContext,
  PluginDefinition,
  PluginPrepareContext,
  PluginInstance,
  Readiness,
  SecretStore,
  StepFactory,
  StepSlot,
  TenantDirectory,
  TicketService,
} from '../types.js';
import type { Manifest } from '../manifest/types.js';
import type { Sandbox } from '../../sandbox/types.js';
import type { DatabaseCopy } from '../db/copy.js';
import {
  contribute,
  extensionPoint,
  serviceRef,
  type Contribution,
  type ExtensionPoint,
  type ServiceRef,
  type ServicesOf,
} from './refs.js';

export {
  contribute,
  extensionPoint,
  serviceRef,
  type Contribution,
  type ExtensionPoint,
  type ServiceRef,
  type ServicesOf,
};

/** The audit trail as a plugin sees it: writes go to the enabled audit sink, or nowhere. */
export interface AuditTrail {
  /** False when no audit plugin is enabled (a local evaluation may run so). */
  readonly enabled: boolean;
  /** Writes one record with `db` (a caller's transaction, so the record commits with its effect). */
  write(db: Knex | Knex.Transaction, entry: AuditEntry): Promise<void>;
}

/** The runtime log (GET /logs) as a plugin sees it: records go to the enabled log sink, or nowhere. */
export interface RuntimeLog {
  readonly enabled: boolean;
  /** Queues a record; never waits for the database. */
  write(record: LogRecord): Promise<void>;
  /** Resolves once every record queued so far is stored. */
  flush(): Promise<void>;
}

/** Reads what the enabled plugins contributed to an extension point (complete once every plugin is set up). */
export interface Extensions {
  all<T>(point: ExtensionPoint<T>): readonly T[];
  /** Which plugin gave each contribution. */
  entries<T>(point: ExtensionPoint<T>): ReadonlyArray<{ plugin: string; value: T }>;
}

/** A pipeline step a plugin adds at one of the kernel's named insertion points. */
export interface PipelineStep {
  slot: StepSlot;
  factory: StepFactory;
}

/**
 * The one list of kernel services. The id is what a plain-JavaScript plugin names in its
 * manifest's `requires.services`; a TypeScript plugin names the reference in `deps`.
 */
export const coreServices = {
  db: serviceRef<Knex>('db'),
  /** A child logger named after the plugin. */
  logger: serviceRef<Logger>('logger'),
  config: serviceRef<Readonly<KernelConfig>>('config'),
  clock: serviceRef<Clock>('clock'),
  catalog: serviceRef<Catalog>('catalog'),
  dispatcher: serviceRef<Dispatcher>('dispatcher'),
  metrics: serviceRef<Registry>('metrics'),
  readiness: serviceRef<Readiness>('readiness'),
  secrets: serviceRef<SecretStore>('secrets'),
  jobs: serviceRef<Jobs>('jobs'),
  events: serviceRef<Events>('events'),
  /** One-time tickets that open WebSocket routes. */
  tickets: serviceRef<TicketService>('tickets'),
  audit: serviceRef<AuditTrail>('audit'),
  logs: serviceRef<RuntimeLog>('logs'),
  extensions: serviceRef<Extensions>('extensions'),
  /** Runs tenant code in QuickJS (WebAssembly) in worker threads, under limits; only JSON crosses. */
  sandbox: serviceRef<Sandbox>('sandbox'),
  /** Copies of the embedded database, for work that must run off the server's thread (kernel/db/copy.ts). */
  databaseCopy: serviceRef<DatabaseCopy>('databaseCopy'),
} as const;

/** Every service id, for checking what a manifest or a plugin asks for. */
export const SERVICE_IDS: ReadonlySet<string> = new Set(Object.values(coreServices).map((ref) => ref.id));

/**
 * The kernel's own extension points: what the kernel reads from the enabled plugins. A
 * disabled plugin's contributions are absent, like its routes.
 */
export const coreExtensions = {
  /** Links of the credential chain, in plugin order. */
  authenticators: extensionPoint<Authenticator>('kernel.authenticators'),
  /** Steps added at the pipeline's insertion points. */
  steps: extensionPoint<PipelineStep>('kernel.steps'),
  /** Where the audit step writes records (one plugin). */
  auditSink: extensionPoint<AuditSink>('kernel.audit-sink', { single: true }),
  /** Where runtime logs go (one plugin). */
  logSink: extensionPoint<LogSink>('kernel.log-sink', { single: true }),
  /** Which tenants exist (one plugin). */
  tenantDirectory: extensionPoint<TenantDirectory>('kernel.tenant-directory', { single: true }),
  /** Background jobs, run under leases by the kernel's job runner. */
  jobs: extensionPoint<JobSpec>('kernel.jobs'),
  /** Which of a plugin's resources use a resource (of any plugin): deletes in use are refused (409). */
  dependents: extensionPoint<DependentsSource>('kernel.dependents'),
} as const;

/** The in-use check a plugin hands its delete handlers: asks every `dependents` contribution. */
export function inUseCheck(extensions: Extensions): InUse {
  return (db, tenantId, kind, id) =>
    refuseWhileUsed(extensions.all(coreExtensions.dependents), db, tenantId, { kind, id });
}

/** What a typed plugin's setup receives besides its services. */
export interface PluginSetupContext<S, P = undefined> {
  readonly id: string;
  readonly manifest: Manifest;
  /** The plugin's settings, validated against its manifest's settings schema (defaults filled in), frozen. */
  readonly settings: Readonly<S>;
  /** `serve`, or `maintenance` when booted to run an operator command (provision nothing then). */
  readonly mode: KernelMode;
  /** What the plugin's `prepare` returned (undefined without one). */
  readonly prepared: P;
}

/** What a typed plugin's `prepare` receives: its settings and where it runs, no service yet. */
export interface PluginPrepareSpecContext<S> {
  readonly id: string;
  readonly settings: Readonly<S>;
  readonly profile: PluginPrepareContext['profile'];
  readonly mode: KernelMode;
  /** True when this boot creates the database, false when it exists, undefined when unknown (a server). */
  readonly newDatabase: boolean | undefined;
}

/** What a plugin gives back from setup. */
export interface PluginSetup {
  handlers: PluginInstance['handlers'];
  /** Values for extension points (the kernel's or another plugin's). */
  contributions?: readonly Contribution<unknown>[];
  /** Extension points this plugin offers; others contribute, this plugin reads them through `extensions`. */
  offers?: readonly ExtensionPoint<unknown>[];
  start?(): Promise<void>;
  stop?(): Promise<void>;
}

export interface PluginSpec<D extends Record<string, ServiceRef<unknown>>, S, P = undefined> {
  id: string;
  /** Path of the manifest file (relative to the project root for built-ins), or the manifest itself. */
  manifest: string | Manifest;
  migrations?: Migration[];
  /** The services the plugin needs; it receives exactly these. */
  deps: D;
  /**
   * Work that needs no service (the database is not open yet), started right after the plugins
   * are resolved so it overlaps the rest of the boot; setup receives the result as `prepared`.
   * Return a promise as it is (not awaited by the kernel): setup or start awaits it when needed.
   */
  prepare?(context: PluginPrepareSpecContext<S>): P;
  setup(services: ServicesOf<D>, context: PluginSetupContext<S, P>): PluginSetup | Promise<PluginSetup>;
  /** Operator commands by name (`npm run admin -- <name>`); they receive the settings setup does. */
  commands?: Record<string, MaintenanceCommand<S>>;
}

/**
 * Declares a plugin. `S` is the type of its settings, which the kernel validates against the
 * manifest's `settings` schema before setup; `deps` decides the services it receives.
 */
export function createPlugin<
  D extends Record<string, ServiceRef<unknown>>,
  S = Readonly<Record<string, unknown>>,
  P = undefined,
>(spec: PluginSpec<D, S, P>): PluginDefinition {
  const definition: PluginDefinition = {
    id: spec.id,
    manifest: spec.manifest,
    deps: spec.deps,
    // The kernel resolved exactly `deps` into `context.services` (boot/plugin-services.ts).
    setup: (context: PluginContext) =>
      spec.setup(context.services as ServicesOf<D>, {
        id: context.id,
        manifest: context.manifest,
        settings: context.settings as Readonly<S>,
        mode: context.mode,
        prepared: context.prepared as P,
      }),
  };
  const { prepare } = spec;
  if (prepare)
    definition.prepare = (context: PluginPrepareContext) =>
      prepare({ ...context, settings: context.settings as Readonly<S> });
  if (spec.migrations) definition.migrations = spec.migrations;
  if (spec.commands) {
    const commands: Record<string, MaintenanceCommand> = {};
    // kernel/admin hands a command its plugin's settings checked against the manifest, as setup's are.
    for (const [name, command] of Object.entries(spec.commands))
      commands[name] = {
        ...command,
        run: (context) => command.run({ ...context, settings: context.settings as Readonly<S> }),
      };
    definition.commands = commands;
  }
  return definition;
}

// What plugins use from the kernel's other modules, exported once here so no plugin reaches
// into kernel internals.
export type { DatabaseCopy } from '../db/copy.js';
export { fromRoot } from '../paths.js';
export { slugify } from '../ids.js';
export { isUniqueViolation } from '../db/errors.js';
export { pageOf, afterKey } from '../paging/page.js';
export { ifMatch } from '../concurrency/etag.js';
export { canonicalJson } from '../paging/canonical.js';
export { ACCOUNT_PERMISSION, ACCOUNT_WIDE, TENANT_PATTERN } from '../tenancy/scope.js';
export { ACCOUNT_TRAIL, auditEntry } from '../audit/entry.js';
export { localSchemaName, rewriteRefs } from '../manifest/compile.js';
export type { JsonSchema } from '../manifest/types.js';
export { CommandError } from '../admin/command-error.js';
export {
  operationHandlers,
  type CallOf,
  type OperationHandler,
  type OperationHandlers,
  type OperationTypes,
  type TenantCall,
} from './operations.js';
export { MAX_DEPTH, unstorableText } from '../input/hostile.js';
export type { JobContext, JobOutcome, JobSpec, Jobs, Lease, Leases } from '../jobs/types.js';
export { retryDelayMs } from '../jobs/types.js';
export { refuseWhileUsed, type Dependent, type DependentsSource, type InUse } from './dependents.js';
export type { Events } from '../events/types.js';
export type { PartOptions } from '../db/combined-write.js';
export { CombinedWrite, RunInTransaction } from '../db/combined-write.js';
export { inJsonbOrder } from '../db/jsonb-order.js';
export { SharedReads } from '../db/shared-read.js';
export type {
  Sandbox,
  SandboxError,
  SandboxInput,
  SandboxJob,
  SandboxLimit,
  SandboxLimits,
  SandboxResult,
} from '../../sandbox/types.js';
