import { pino, type DestinationStream, type Logger } from 'pino';
import type { KernelConfig } from './config/types.js';
import { connectDatabase, databaseIsNew, prefetchDatabase, type Database } from './db/connect.js';
import { compileRoute } from './manifest/compile.js';
import { ConformanceError } from './manifest/conformance.js';
import { PluginLoadError, type ResolvedPlugin } from './plugin/resolve.js';
import { createCatalog } from './catalog.js';
import { createHttpApp } from './http/app.js';
import { createHttpServer } from './http/server.js';
import { createRealtime } from './realtime/index.js';
import { resolvePlugins } from './boot/resolve.js';
import { migrationKey, migrationOwners, pluginOwner, startMigrating } from './boot/migrate.js';
import type { MigrationRun } from './db/migrate.js';
import { createCoreServices, type CoreServices } from './boot/services.js';
import { preparePlugins } from './boot/prepare.js';
import { setUpPlugins } from './boot/setup.js';
import { wireContributions } from './boot/wire.js';
import { checkBoot } from './boot/conformance.js';
import { mountRoutes } from './boot/mount.js';
import { startAll, stopAll } from './boot/start.js';
import type { Endpoint } from './http/router.js';
import { createBootTimer, type BootTimings } from './boot/timing.js';
import type { Catalog, KernelMode, KernelServices, PluginDefinition } from './types.js';

export interface Kernel {
  readonly config: Readonly<KernelConfig>;
  readonly logger: Logger;
  readonly database: Database;
  readonly catalog: Catalog;
  readonly services: KernelServices;
  readonly app: import('koa');
  /** Every method and path the HTTP router serves, read back from the router itself. */
  readonly endpoints: readonly Endpoint[];
  /** Milliseconds each boot phase took (kernel/boot/timing.ts). */
  readonly bootTimings: BootTimings;
  /** CPU milliseconds of the process during each boot phase, every thread counted. */
  readonly bootCpuTimings: BootTimings;
  /** Starts serving on the configured host and port; resolves with the bound address. */
  listen(): Promise<{ port: number; url: string }>;
  /** Drains in-flight requests, stops plugins and closes the database. Safe to call twice. */
  close(): Promise<void>;
}

export interface KernelOptions {
  config: Readonly<KernelConfig>;
  logger?: Logger;
  /** Replaces the wall clock (tests move time instead of sleeping). */
  clock?: KernelServices['clock'];
  /** Plugin definitions added in code after the configured ones (embedding, tests). */
  plugins?: readonly PluginDefinition[];
  /** `maintenance` boots to run an operator command (kernel/admin); default `serve`. */
  mode?: KernelMode;
}

/** The kernel's logger; `destination` defaults to stdout (maintenance commands log to stderr). */
export function createLogger(config: Readonly<KernelConfig>, destination?: DestinationStream): Logger {
  return pino(
    {
      level: config.log.level,
      base: { service: 'runtime-kernel', profile: config.profile },
      // Belt and braces: the kernel never logs credentials, and these paths are censored if anyone tries.
      redact: {
        paths: [
          'password',
          '*.password',
          'secret',
          '*.secret',
          'token',
          '*.token',
          'refresh_token',
          '*.refresh_token',
          'authorization',
          '*.authorization',
          '*.headers.authorization',
          '*.headers["x-api-key"]',
        ],
        censor: '[redacted]',
      },
    },
    destination,
  );
}

/** Which plugins use the database, from their typed deps or their manifest (their routes can answer 503). */
function databaseUsers(plugins: readonly ResolvedPlugin[]): Set<string> {
  const uses = (p: ResolvedPlugin): boolean =>
    p.definition.deps
      ? Object.values(p.definition.deps).some((ref) => ref.id === 'db')
      : (p.loaded.manifest.requires?.services ?? []).includes('db');
  return new Set(plugins.filter(uses).map((p) => p.definition.id));
}

/** An open database and the migration run begun on it. */
interface Migrating {
  database: Database;
  run: MigrationRun;
}

function migrating(database: Database): Migrating {
  return { database, run: startMigrating(database) };
}

/**
 * Boots a kernel in the phases of kernel/boot/phases.ts (BOOT_PHASES says what each does and in
 * which order), each ended by `timer.mark` with its name; a PostgreSQL server's `connect` comes
 * first. `listen()` then serves; `close()` runs it back.
 */
export async function createKernel(options: KernelOptions): Promise<Kernel> {
  const { config } = options;
  const timer = createBootTimer();
  const logger = options.logger ?? createLogger(config);
  const databaseLogger = logger.child({ component: 'database' });
  prefetchDatabase(config.database);
  // A server database opens first and migrates while the plugins load (each plugin's migrations
  // as soon as its place in the order is settled), the statements running on the server while
  // this thread loads modules. The embedded one runs on this thread and picks its migrated
  // template by the whole migration set, so it opens once every plugin is known.
  let early: Migrating | undefined;
  if (config.database.url) {
    early = migrating(await connectDatabase(config.database, databaseLogger));
    timer.mark('connect');
  }
  let core: CoreServices | undefined;
  // What a failed boot rolls back and closes.
  let toUndo: Migrating | undefined = early;
  try {
    const plugins = await resolvePlugins(config, options.plugins ?? [], (plugin) =>
      early?.run.add(pluginOwner(plugin)),
    );
    timer.mark('resolve');
    const mode = options.mode ?? 'serve';
    const prepared = preparePlugins(plugins, config, mode, databaseIsNew(config.database));
    timer.mark('prepare');
    let opened = early;
    if (!opened) {
      const migrations = migrationOwners(plugins);
      opened = migrating(
        await connectDatabase(config.database, databaseLogger, { migrationKey: migrationKey(migrations) }),
      );
      toUndo = opened;
      timer.mark('connect');
      for (const plugin of plugins) opened.run.add(pluginOwner(plugin));
    }
    const { database, run } = opened;
    // Work that needs no table, done while the last migrations run.
    const routes = plugins.flatMap((p) =>
      p.loaded.manifest.routes.map((decl) => compileRoute(p.definition.id, decl, p.loaded.manifest.schemas ?? {})),
    );
    const catalog: Catalog = createCatalog({
      manifests: plugins.map((p) => p.loaded.manifest),
      routes,
      build: config.build,
      securitySchemes: () =>
        Object.assign({}, ...(core?.services.authenticators ?? []).map((a) => a.securitySchemes ?? {})) as Record<
          string,
          Record<string, unknown>
        >,
      usesDatabase: databaseUsers(plugins),
    });
    timer.mark('compile');
    await run.finish();
    timer.mark('migrate');
    const clock = options.clock ?? { now: () => new Date() };
    core = createCoreServices({ config, logger, clock, database, catalog });
    const { services, registry, runners } = core;
    timer.mark('services');
    const setUp = await setUpPlugins(plugins, services, registry, mode, prepared);
    timer.mark('setup');
    const extraSteps = wireContributions(registry, services, core.jobs);
    timer.mark('wire');
    checkBoot({ plugins, setUp, routes, services, config });
    timer.mark('conformance');
    await services.secrets.key('cursor');
    timer.mark('secrets');
    const builtins = new Set(plugins.filter((p) => p.origin === 'builtin').map((p) => p.definition.id));
    const mounted = mountRoutes({
      catalog,
      plugins: setUp,
      services,
      extraSteps,
      runners,
      tickets: core.tickets,
      builtins,
    });
    timer.mark('mount');
    await startAll({ config, database, core, plugins: setUp });
    timer.mark('start');
    const started = core;
    let running = true;
    core.readiness.add('plugins', async () => running);

    const realtime = createRealtime({
      config,
      logger,
      db: database.knex,
      clock,
      metrics: services.metrics,
      tickets: core.tickets,
      mounted,
      authenticators: () => services.authenticators,
    });
    const { app, endpoints } = createHttpApp({
      config,
      logger,
      metrics: services.metrics,
      mounted,
      streams: realtime.streams,
    });
    const server = createHttpServer({ app, config, logger, realtime });
    timer.mark('http');
    let closing: Promise<void> | undefined;
    return {
      config,
      logger,
      database,
      catalog,
      services,
      app,
      endpoints,
      bootTimings: timer.timings,
      bootCpuTimings: timer.cpu,
      listen: async () => {
        const bound = await server.listen();
        timer.mark('listen');
        return bound;
      },
      close() {
        closing ??= (async () => {
          started.readiness.setDraining();
          running = false;
          await server.drain();
          await stopAll({ core: started, plugins: setUp });
          await database.close();
        })();
        return closing;
      },
    };
  } catch (err) {
    await toUndo?.run.abort();
    await core?.stopBackground().catch(() => undefined);
    await toUndo?.database.close().catch(() => undefined);
    throw err;
  }
}

export { ConformanceError, PluginLoadError };
