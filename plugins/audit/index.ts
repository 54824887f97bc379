import { contribute, coreExtensions, coreServices, createPlugin, fromRoot } from '../../kernel/plugin/api.js';
import { dashboardSections } from '../dashboard/contract.js';
import { recentAuditSection } from './dashboard-section.js';
import { sqlTables } from '../sql/contract.js';
import { auditSqlTables } from './sql-tables.js';
import { auditHandlers } from './handlers.js';
import { auditMetrics } from './metrics.js';
import { createAudit } from './migrations/001_audit.js';
import { sealAudit } from './migrations/002_audit_seals.js';
import { createSealer } from './sealer.js';
import { readSettings, type AuditSettings } from './settings.js';
import { createAuditSink } from './sink.js';
import { auditJobs } from './workers.js';

/** The audit trail: the sink the kernel's audit step writes through, its sealer (and sweep job) and its metrics, GET /audit and its verifier. */
export default createPlugin<
  { db: typeof coreServices.db; logger: typeof coreServices.logger; metrics: typeof coreServices.metrics },
  AuditSettings
>({
  id: 'audit',
  manifest: fromRoot('manifests', 'audit.json'),
  migrations: [createAudit, sealAudit],
  deps: { db: coreServices.db, logger: coreServices.logger, metrics: coreServices.metrics },
  setup({ db, logger, metrics }, { settings }) {
    const options = readSettings(settings);
    const sealer = createSealer(db, logger, options, auditMetrics(metrics, db, logger));
    return {
      handlers: auditHandlers(sealer, logger),
      contributions: [
        contribute(coreExtensions.auditSink, createAuditSink(sealer)),
        ...auditJobs(sealer, options).map((job) => contribute(coreExtensions.jobs, job)),
        // The dashboard's latest records (ignored when the dashboard is disabled).
        contribute(dashboardSections, recentAuditSection),
        // The SQL console reads a tenant's audit records.
        ...auditSqlTables.map((table) => contribute(sqlTables, table)),
      ],
      start: () => sealer.start(),
      stop: () => sealer.stop(),
    };
  },
});
