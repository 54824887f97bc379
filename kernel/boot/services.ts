import type { Logger } from 'pino';
import type { KernelConfig } from '../config/types.js';
import type { Database } from '../db/connect.js';
import { createDispatcher, type RouteRunner } from '../dispatch.js';
import { createEventBus, type EventBus } from '../events/bus.js';
import { createJobRunner, type JobRunner } from '../jobs/runner.js';
import { createMetricsRegistry } from '../metrics.js';
import { ExtensionRegistry } from '../plugin/extensions.js';
import { createReadiness } from '../readiness.js';
import { createTicketStore } from '../realtime/tickets.js';
import { createSecretStore } from '../secrets.js';
import { createSandbox } from '../../sandbox/index.js';
import type { Catalog, Clock, KernelServices } from '../types.js';

/** The kernel's own services, before any plugin is set up, and what must be stopped with them. */
export interface CoreServices {
  services: KernelServices;
  readiness: ReturnType<typeof createReadiness>;
  tickets: ReturnType<typeof createTicketStore>;
  registry: ExtensionRegistry;
  /** The job runner and event bus behind `services.jobs` and `services.events`, with their start and stop. */
  jobs: JobRunner;
  events: EventBus;
  /** Filled by the mount phase: each operation's composed pipeline, for the dispatcher. */
  runners: Map<string, RouteRunner>;
  stopBackground(): Promise<void>;
}

/** The sandbox's settings from config (the schema filled in RUNTIME.md's defaults). */
function sandboxOptions(config: Readonly<KernelConfig>): Parameters<typeof createSandbox>[0] {
  const c = config.sandbox ?? {};
  const limits: Record<string, number> = {};
  for (const key of ['deadline_ms', 'memory_bytes', 'stack_bytes', 'output_bytes', 'pushes'] as const) {
    const value = c[key];
    if (value !== undefined) limits[key] = value;
  }
  return {
    limits,
    ...(c.pool_size !== undefined ? { poolSize: c.pool_size } : {}),
    ...(c.backstop_margin_ms !== undefined ? { backstopMarginMs: c.backstop_margin_ms } : {}),
  };
}

/**
 * Builds every kernel service. Those the plugins provide through extension points (the audit
 * and log sinks, the tenant directory, the credential chain) start empty and are filled in once
 * every plugin is set up (boot/wire.ts).
 */
export function createCoreServices(input: {
  config: Readonly<KernelConfig>;
  logger: Logger;
  clock: Clock;
  database: Database;
  catalog: Catalog;
}): CoreServices {
  const { config, logger, clock, database, catalog } = input;
  const metrics = createMetricsRegistry();
  const stopTimeoutMs = config.jobs?.stop_timeout_ms ?? 5000;
  const events = createEventBus({
    database,
    url: config.database.url,
    logger: logger.child({ component: 'events' }),
    metrics,
    pollMs: config.events?.poll_ms ?? 1000,
    stopTimeoutMs,
  });
  const jobs = createJobRunner({
    db: database.knex,
    logger: logger.child({ component: 'jobs' }),
    metrics,
    events,
    leaseMs: config.jobs?.lease_ms ?? 15_000,
    stopTimeoutMs,
  });
  const runners = new Map<string, RouteRunner>();
  const { dispatcher, delegation } = createDispatcher(catalog, runners, database.knex);
  const readiness = createReadiness(config.database.ready_timeout_ms);
  readiness.add('database', async () => {
    await database.knex.raw('select 1');
    return true;
  });
  const tickets = createTicketStore(clock);
  const sandboxLog = logger.child({ component: 'sandbox' });
  const sandbox = createSandbox({
    ...sandboxOptions(config),
    onIncident: (incident) => sandboxLog.warn({ incident }, 'sandbox: the host stepped in'),
  });
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
    // A dispatched call's delegated principal is the first link; the plugins' links follow.
    authenticators: [delegation],
    audit: undefined,
    logs: undefined,
    tenants: undefined,
    jobs,
    events,
    tickets,
    sandbox,
    databaseCopy: database.copy,
  };
  return {
    services,
    readiness,
    tickets,
    registry: new ExtensionRegistry(),
    jobs,
    events,
    runners,
    async stopBackground() {
      await jobs.stop();
      await events.stop();
      await sandbox.close();
    },
  };
}
