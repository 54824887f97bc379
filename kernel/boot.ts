import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { randomUUID } from 'node:crypto';
import { pino, type DestinationStream, type Logger } from 'pino';
import { createMetricsRegistry } from './metrics.js';
import type { KernelConfig } from './config/types.js';
import { connectDatabase, type Database } from './db/connect.js';
import { runMigrations, type OwnedMigrations } from './db/migrate.js';
import { kernelMigrations } from './db/kernel-migrations.js';
import { keyPurgeJob } from './idempotency/purge.js';
import { createEventBus } from './events/bus.js';
import { eventPurgeJob } from './events/purge.js';
import { createJobRunner } from './jobs/runner.js';
import { compileRoute } from './manifest/compile.js';
import { checkConformance, ConformanceError } from './manifest/conformance.js';
import { SchemaCompiler } from './manifest/validators.js';
import { resolvePlugin, resolveDefinition, PluginLoadError, type ResolvedPlugin } from './plugin/resolve.js';
import { orderPlugins } from './plugin/order.js';
import { createCatalog } from './catalog.js';
import { createReadiness } from './readiness.js';
import { createSecretStore } from './secrets.js';
import { buildSteps, composeSteps } from './pipeline/compose.js';
import { pipelineFactories } from './pipeline/order.js';
import { newCall } from './pipeline/call.js';
import { accountWideList } from './tenancy/account-wide.js';
import { createHttpApp } from './http/app.js';
import { answerClientErrors } from './http/client-error.js';
import { createTicketStore } from './realtime/tickets.js';
import { createRealtime } from './realtime/index.js';
import { isStreaming } from './manifest/types.js';
import { ApiError } from './errors.js';
import type { Endpoint, MountedRoute } from './http/router.js';
import type {
  Authenticator, Call, Catalog, Dispatcher, KernelMode, KernelServices, PluginContext, PluginDefinition, PluginInstance, Principal, Reply, StepFactory, StepSlot,
} from './types.js';

export interface Kernel {
  readonly config: Readonly<KernelConfig>;
  readonly logger: Logger;
  readonly database: Database;
  readonly catalog: Catalog;
  readonly services: KernelServices;
  readonly app: import('koa');
  /** Every method and path the HTTP router serves, read back from the router itself. */
  readonly endpoints: readonly Endpoint[];
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
  return pino({
    level: config.log.level,
    base: { service: 'runtime-kernel', profile: config.profile },
    // Belt and braces: the kernel never logs credentials, and these paths are censored if anyone tries.
    redact: { paths: ['password', '*.password', 'secret', '*.secret', 'token', '*.token', 'refresh_token', '*.refresh_token', 'authorization', '*.authorization', '*.headers.authorization', '*.headers["x-api-key"]'], censor: '[redacted]' },
  }, destination);
}

/** Gives a plugin only the services its manifest requires (plus its logger, settings and clock). */
function servicesFor(plugin: ResolvedPlugin, services: KernelServices): Partial<KernelServices> {
  const granted: Partial<KernelServices> = {
    logger: services.logger.child({ plugin: plugin.definition.id }),
    clock: services.clock,
  };
  for (const name of plugin.loaded.manifest.requires?.services ?? []) {
    Object.defineProperty(granted, name, { enumerable: true, get: () => services[name as keyof KernelServices] });
  }
  return granted;
}

async function resolveAll(config: Readonly<KernelConfig>, inline: readonly PluginDefinition[]): Promise<ResolvedPlugin[]> {
  const resolved: ResolvedPlugin[] = [];
  for (const ref of config.plugins) resolved.push(await resolvePlugin(ref, config.settings));
  for (const definition of inline) resolved.push(resolveDefinition(definition, config.settings));
  return orderPlugins(resolved);
}

/** Boots a kernel: plugins, manifests, database, migrations, pipeline and HTTP app. */
export async function createKernel(options: KernelOptions): Promise<Kernel> {
  const { config } = options;
  const logger = options.logger ?? createLogger(config);
  const plugins = await resolveAll(config, options.plugins ?? []);
  const manifests = plugins.map((p) => p.loaded.manifest);

  const database = await connectDatabase(config.database, logger.child({ component: 'database' }));
  // Jobs and events run until close; a boot that fails after starting them stops them too.
  let stopBackground = async (): Promise<void> => undefined;
  try {
    const owners: OwnedMigrations[] = [{ owner: 'kernel', migrations: kernelMigrations }];
    for (const p of plugins) owners.push({ owner: p.definition.id, migrations: p.definition.migrations ?? [] });
    await runMigrations(database.knex, owners);

    const routes = plugins.flatMap((p) => p.loaded.manifest.routes.map((decl) => compileRoute(p.definition.id, decl, p.loaded.manifest.schemas ?? {})));
    const authenticators: Authenticator[] = [];
    const catalog = createCatalog({
      manifests,
      routes,
      build: config.build,
      securitySchemes: () => Object.assign({}, ...authenticators.map((a) => a.securitySchemes ?? {})) as Record<string, Record<string, unknown>>,
    });
    const metrics = createMetricsRegistry();
    const clock = options.clock ?? { now: () => new Date() };
    const tickets = createTicketStore(clock);
    const readiness = createReadiness(config.database.ready_timeout_ms);
    const stopTimeoutMs = config.jobs?.stop_timeout_ms ?? 5000;
    const events = createEventBus({ database, url: config.database.url, logger: logger.child({ component: 'events' }), metrics, pollMs: config.events?.poll_ms ?? 1000, stopTimeoutMs });
    const jobs = createJobRunner({ db: database.knex, logger: logger.child({ component: 'jobs' }), metrics, events, leaseMs: config.jobs?.lease_ms ?? 15_000, stopTimeoutMs });
    stopBackground = async () => {
      await jobs.stop();
      await events.stop();
    };
    const runners = new Map<string, (call: Call) => Promise<Reply>>();
    // Principals handed to dispatched calls (DispatchRequest.principal). Only the dispatcher can
    // put one here, never a header; the first link of the chain hands it to the call.
    const delegated = new WeakMap<Call, Principal>();
    const delegation: Authenticator = { name: 'delegated', authenticate: async (call) => delegated.get(call) ?? null };
    const dispatcher: Dispatcher = {
      async dispatch(request) {
        const route = catalog.byOperation(request.operation);
        const run = route && runners.get(request.operation);
        if (!route || !run) throw new ApiError('not_found', `No operation ${request.operation}.`);
        const call = newCall({
          route,
          transport: request.transport,
          requestId: request.requestId ?? randomUUID(),
          method: route.decl.method,
          path: route.path.replace(/\{([A-Za-z0-9_]+)\}/g, (_, name: string) => encodeURIComponent(String(request.params?.[name] ?? ''))),
          params: { ...(request.params ?? {}) },
          query: { ...(request.query ?? {}) },
          headers: Object.fromEntries(Object.entries(request.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
          body: request.body,
        });
        if (request.principal) delegated.set(call, request.principal);
        return run(call);
      },
    };
    const services: KernelServices = {
      db: database.knex,
      logger,
      config,
      clock,
      catalog,
      dispatcher,
      metrics,
      readiness,
      secrets: createSecretStore(database.knex),
      authenticators,
      audit: undefined,
      logs: undefined,
      tenants: undefined,
      jobs,
      events,
      tickets,
    };
    readiness.add('database', async () => {
      await database.knex.raw('select 1');
      return true;
    });

    const instances: Array<{ id: string; instance: PluginInstance }> = [];
    const extraSteps: Partial<Record<StepSlot, StepFactory[]>> = {};
    for (const plugin of plugins) {
      const context: PluginContext = {
        id: plugin.definition.id,
        manifest: plugin.loaded.manifest,
        settings: Object.freeze({ ...plugin.settings }),
        services: servicesFor(plugin, services),
        mode: options.mode ?? 'serve',
      };
      const instance = await plugin.definition.setup(context);
      instances.push({ id: plugin.definition.id, instance });
      authenticators.push(...(instance.authenticators ?? []));
      if (instance.audit) services.audit = instance.audit;
      if (instance.logs) services.logs = instance.logs;
      if (instance.tenants) services.tenants = instance.tenants;
      for (const [slot, factory] of Object.entries(instance.steps ?? {}) as Array<[StepSlot, StepFactory]>) (extraSteps[slot] ??= []).push(factory);
    }

    checkConformance(plugins.map((p, i) => ({ loaded: p.loaded, handlers: Object.keys(instances[i]?.instance.handlers ?? {}) })));
    if (config.auth.mode === 'required' && authenticators.length === 0 && routes.some((r) => r.decl.permission !== 'public')) {
      throw new ConformanceError([
        `no authenticator is configured: enable a plugin that provides one (the identity plugin: sessions, API tokens, OIDC)${config.profile === 'production' ? '' : ', or set auth.mode "none" (RUNTIME_AUTH_MODE=none) for a local evaluation'}`,
      ]);
    }

    // The chain the authentication step runs: a dispatched call's delegated principal first, then
    // the links the plugins contributed, in order.
    services.authenticators = [delegation, ...authenticators];
    await services.secrets.key('cursor');
    const factories = pipelineFactories(new SchemaCompiler(manifests), extraSteps, tickets);
    const mounted: MountedRoute[] = routes.map((route) => {
      const instance = instances.find((i) => i.id === route.plugin)?.instance as PluginInstance;
      const handler = instance.handlers[route.decl.operation];
      if (!handler) throw new ConformanceError([`plugin ${route.plugin}, operation ${route.decl.operation}: the route has no handler`]);
      const pipeline = composeSteps(buildSteps(route, factories, services), accountWideList(route, handler, services));
      const run = (call: Call): Promise<Reply> => {
        call.db = services.db;
        return pipeline(call);
      };
      // A WebSocket or event stream cannot be dispatched as one call with one reply.
      if (!isStreaming(route.decl)) runners.set(route.decl.operation, run);
      return { route, run };
    });

    jobs.register(keyPurgeJob(database.knex, services.clock, logger, (config.idempotency?.purge_interval_seconds ?? 600) * 1000));
    jobs.register(eventPurgeJob(database.knex, config.events?.retention_seconds ?? 3600, logger));
    await events.start();
    for (const { instance } of instances) await instance.start?.();
    jobs.start();
    let started = true;
    readiness.add('plugins', async () => started);

    const realtime = createRealtime({ config, logger, db: database.knex, clock, metrics, tickets, mounted, authenticators: () => services.authenticators });
    const { app, endpoints } = createHttpApp({ config, logger, metrics, mounted, streams: realtime.streams });
    let server: Server | undefined;
    const sockets = new Set<Socket>();
    let closing: Promise<void> | undefined;

    const kernel: Kernel = {
      config,
      logger,
      database,
      catalog,
      services,
      app,
      endpoints,
      listen() {
        return new Promise((resolve, reject) => {
          const s = app.listen(config.http.port, config.http.host);
          server = s;
          answerClientErrors(s, logger);
          s.on('upgrade', realtime.upgradeListener(app.callback()));
          s.on('connection', (socket: Socket) => {
            sockets.add(socket);
            socket.on('close', () => sockets.delete(socket));
          });
          s.once('error', reject);
          s.once('listening', () => {
            const { port } = s.address() as AddressInfo;
            const host = config.http.host.includes(':') ? `[${config.http.host}]` : config.http.host;
            resolve({ port, url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}` });
          });
        });
      },
      close() {
        closing ??= (async () => {
          readiness.setDraining();
          started = false;
          if (server) {
            const s = server;
            const drained = new Promise<void>((resolve) => s.close(() => resolve()));
            s.closeIdleConnections();
            // WebSockets and event streams never end by themselves: they are closed first.
            await realtime.close();
            s.closeIdleConnections();
            const grace = setTimeout(() => s.closeAllConnections(), config.http.shutdown_grace_ms);
            await drained;
            clearTimeout(grace);
            for (const socket of sockets) socket.destroy();
          } else {
            await realtime.close();
          }
          // Jobs stop before the plugins whose work they run; events after the plugins that publish them.
          await jobs.stop();
          for (const { id, instance } of [...instances].reverse()) {
            try {
              await instance.stop?.();
            } catch (err) {
              logger.error({ err, plugin: id }, 'plugin failed to stop');
            }
          }
          await events.stop();
          await database.close();
        })();
        return closing;
      },
    };
    return kernel;
  } catch (err) {
    await stopBackground().catch(() => undefined);
    await database.close().catch(() => undefined);
    throw err;
  }
}

export { ConformanceError, PluginLoadError };
