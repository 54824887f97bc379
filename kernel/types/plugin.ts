/** What a plugin is to the kernel: its definition, what its setup receives and returns, its migrations and commands. */
import type { Knex } from 'knex';
import type { KernelConfig } from '../config/types.js';
import type { Manifest } from '../manifest/types.js';
import type { Contribution, ExtensionPoint, ServiceRef } from '../plugin/refs.js';
import type { Handler } from './call.js';
import type { KernelServices } from './services.js';

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
  profile: KernelConfig['profile'];
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
export interface MaintenanceCommand<S = Readonly<Record<string, unknown>>> {
  /** One line for the list of commands. */
  summary: string;
  /** Its arguments, e.g. `[--tenant <id>] [--user <name>]`. */
  usage: string;
  /**
   * Runs in a kernel booted in maintenance mode: migrated and set up, not listening, holding the
   * data directory as a server would. Throws CommandError for wrong arguments or a missing target.
   */
  run(context: MaintenanceContext<S>): Promise<void>;
}

export interface MaintenanceContext<S = Readonly<Record<string, unknown>>> {
  args: readonly string[];
  services: KernelServices;
  /** The plugin's own settings, as its setup() receives them (checked, defaults filled in). */
  settings: Readonly<S>;
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
