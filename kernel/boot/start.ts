import type { KernelConfig } from '../config/types.js';
import type { Database } from '../db/connect.js';
import { eventPurgeJob } from '../events/purge.js';
import { keyPurgeJob } from '../idempotency/purge.js';
import { holdLiveness, releaseLiveness } from '../jobs/holder-liveness.js';
import { lapseGoneHolders, lapseOtherHolders } from '../jobs/lease-store.js';
import { ticketPurgeJob } from '../realtime/tickets.js';
import type { CoreServices } from './services.js';
import type { SetUpPlugin } from './setup.js';

/**
 * The `start` phase (kernel/boot/phases.ts): the kernel's own jobs are registered, events start before the plugins (they
 * may subscribe), then each plugin starts, then the job runner takes leases.
 */
export async function startAll(input: {
  config: Readonly<KernelConfig>;
  database: Database;
  core: CoreServices;
  plugins: readonly SetUpPlugin[];
}): Promise<void> {
  const { config, database, core, plugins } = input;
  const { jobs, events } = core;
  const { services } = core;
  const { logger } = services;
  jobs.register(
    keyPurgeJob(database.knex, services.clock, logger, (config.idempotency?.purge_interval_seconds ?? 600) * 1000),
  );
  jobs.register(eventPurgeJob(database.knex, config.events?.retention_seconds ?? 3600, logger));
  jobs.register(ticketPurgeJob(database.knex, core.tickets, services.clock));
  await events.start();
  for (const { instance } of plugins) await instance.start?.();
  // The embedded database's directory lock proves any previous holder of a lease dead: take over now.
  if (database.kind === 'embedded') {
    const lapsed = await lapseOtherHolders(database.knex, services.jobs.leases.holder);
    if (lapsed > 0) logger.info({ lapsed }, 'took over the leases of the previous process (embedded database)');
  } else {
    // On PostgreSQL this instance's liveness lock says it lives; holders whose lock is free are gone: take over now.
    await holdLiveness(database.knex, services.jobs.leases.holder, logger);
    const lapsed = await lapseGoneHolders(database.knex, services.jobs.leases.holder);
    if (lapsed > 0) logger.info({ lapsed }, 'took over the leases of instances that are gone (PostgreSQL)');
  }
  jobs.start();
}

/** The reverse: jobs stop before the plugins whose work they run; events after the plugins that publish them. */
export async function stopAll(input: { core: CoreServices; plugins: readonly SetUpPlugin[] }): Promise<void> {
  const { core, plugins } = input;
  const { services } = core;
  await core.jobs.stop();
  await releaseLiveness(services.db);
  for (const { id, instance } of [...plugins].reverse()) {
    try {
      await instance.stop?.();
    } catch (err) {
      services.logger.error({ err, plugin: id }, 'plugin failed to stop');
    }
  }
  await core.events.stop();
  // After the plugins: nothing runs tenant code any more.
  await services.sandbox.close();
}
