import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { fromRoot } from '../../kernel/paths.js';
import type { PluginDefinition } from '../../kernel/types.js';
import { auditHandlers } from './handlers.js';
import { auditMetrics } from './metrics.js';
import { createAudit } from './migrations/001_audit.js';
import { sealAudit } from './migrations/002_audit_seals.js';
import { createSealer } from './sealer.js';
import { readSettings } from './settings.js';
import { createAuditSink } from './sink.js';

/** The audit trail: the sink the kernel's audit step writes through, its sealer and its metrics, GET /audit and its verifier. */
const plugin: PluginDefinition = {
  id: 'audit',
  manifest: fromRoot('manifests', 'audit.json'),
  migrations: [createAudit, sealAudit],
  setup(context) {
    const { db, logger, metrics } = context.services as { db: Knex; logger: Logger; metrics: Registry };
    const sealer = createSealer(db, logger, readSettings(context.settings), auditMetrics(metrics, db, logger));
    return {
      handlers: auditHandlers(sealer, logger),
      audit: createAuditSink(sealer),
      start: () => sealer.start(),
      stop: () => sealer.stop(),
    };
  },
};
export default plugin;
