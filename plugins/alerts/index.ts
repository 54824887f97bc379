import { contribute, coreExtensions, coreServices, createPlugin, fromRoot } from '../../kernel/plugin/api.js';
import { alertRuleDependents } from './dependents.js';
import { dashboardSections } from '../dashboard/contract.js';
import { alertSignals } from './contract.js';
import { alertsSection } from './dashboard-section.js';
import { ComponentNotifier } from './component-sink.js';
import { componentDirectoryReceivers, componentTypes } from '../components/contract.js';
import { evaluationJob } from './evaluation-job.js';
import { alertHandlers } from './handlers.js';
import { alertGauge } from './metrics.js';
import { createAlerts } from './migrations/001_alerts.js';
import { alertRuleResource } from './migration-resource.js';
import { migrationResources } from '../migration/contract.js';
import type { Settings } from './generated/manifest-types.js';

/**
 * Alerts. Offers `alerts.signals` (contract.ts), through which each plugin contributes the
 * signals measured over its own tables (streams: dlq_depth, consumer_lag, oldest_unacked_seconds;
 * components: component_failed; workflows: error_rate; BPMN: incidents).
 */
export default createPlugin<
  {
    db: typeof coreServices.db;
    clock: typeof coreServices.clock;
    jobs: typeof coreServices.jobs;
    metrics: typeof coreServices.metrics;
    extensions: typeof coreServices.extensions;
    logger: typeof coreServices.logger;
  },
  Settings
>({
  id: 'alerts',
  manifest: fromRoot('manifests', 'alerts.json'),
  migrations: [createAlerts],
  deps: {
    db: coreServices.db,
    clock: coreServices.clock,
    jobs: coreServices.jobs,
    metrics: coreServices.metrics,
    extensions: coreServices.extensions,
    logger: coreServices.logger,
  },
  setup({ db, clock, jobs, metrics, extensions, logger }, { settings }) {
    const signals = () => new Map(extensions.all(alertSignals).map((s) => [s.name, s]));
    const webhookAllowance = {
      private: settings.allow_private_webhooks,
      loopback: settings.allow_loopback_webhooks,
    };
    const notifier = new ComponentNotifier(() => extensions.all(componentTypes));
    alertGauge(metrics, db);
    const evaluation = evaluationJob(
      settings.evaluation_interval_ms,
      { db, leases: jobs.leases, signals, now: () => clock.now(), externalUrl: settings.external_url },
      {
        allow: webhookAllowance,
        timeoutMs: settings.webhook_timeout_ms,
        maxAttempts: settings.max_attempts,
        now: () => clock.now(),
        components: notifier,
      },
      logger,
    );
    return {
      handlers: alertHandlers(signals, clock, webhookAllowance, notifier),
      offers: [alertSignals],
      contributions: [
        contribute(coreExtensions.jobs, evaluation),
        contribute(coreExtensions.dependents, alertRuleDependents),
        contribute(dashboardSections, alertsSection),
        contribute(componentDirectoryReceivers, notifier.receiver),
        contribute(migrationResources, alertRuleResource),
      ],
    };
  },
});
