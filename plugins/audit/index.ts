import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { fromRoot } from '../../kernel/paths.js';
import type { PluginDefinition } from '../../kernel/types.js';
import type { Jobs } from '../../kernel/jobs/types.js';
import { auditHandlers } from './handlers.js';
import { auditMetrics } from './metrics.js';
import { createAudit } from './migrations/001_audit.js';
import { sealAudit } from './migrations/002_audit_seals.js';
import { createSealer } from './sealer.js';
import { readSettings } from './settings.js';
import { createAuditSink } from './sink.js';
import { auditJobs } from './workers.js';

/** The audit trail: the sink the kernel's audit step writes through, its sealer (and sweep job) and its metrics, GET /audit and its verifier. */
const plugin: PluginDefinition = {
  id: 'audit',
  manifest: fromRoot('manifests', 'audit.json'),
  migrations: [createAudit, sealAudit],
  setup(context) {
    const { db, logger, metrics, jobs } = context.services as { db: Knex; logger: Logger; metrics: Registry; jobs: Jobs };
    const settings = readSettings(context.settings);
    const sealer = createSealer(db, logger, settings, auditMetrics(metrics, db, logger));
    for (const job of auditJobs(sealer, settings)) jobs.register(job);
    return {
      handlers: auditHandlers(sealer, logger),
      audit: createAuditSink(sealer),
      start: () => sealer.start(),
      stop: () => sealer.stop(),
    };
  },
};
export default plugin;
