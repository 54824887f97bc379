import { contribute, coreExtensions, coreServices, createPlugin, fromRoot } from '../../kernel/plugin/api.js';
import { dashboardSections } from '../dashboard/contract.js';
import { alertSignals, type AlertSignal } from './contract.js';
import { alertsSection } from './dashboard-section.js';
import { deliverDue } from './deliver.js';
import { ComponentNotifier } from './component-sink.js';
import { componentDirectoryReceivers, componentTypes } from '../components/contract.js';
import { evaluateAll } from './evaluate.js';
import { alertHandlers } from './handlers.js';
import { alertGauge } from './metrics.js';
import { createAlerts } from './migrations/001_alerts.js';
import { componentFailed } from './signals/components.js';
import { STREAM_SIGNALS } from './signals/streams.js';

interface AlertSettings {
  evaluation_interval_ms: number;
  allow_private_webhooks: boolean;
  webhook_timeout_ms: number;
  max_attempts: number;
  external_url: string;
}

/**
 * Alerts. Offers `alerts.signals` (contract.ts); contributes the signals measured over the
 * built-in plugins' tables when those plugins are enabled (streams: dlq_depth, consumer_lag,
 * oldest_unacked_seconds; components: component_failed). The plugins not built in yet
 * contribute theirs (workflows: error_rate; BPMN: incidents) the same way.
 */
export default createPlugin<
  {
    db: typeof coreServices.db; clock: typeof coreServices.clock; config: typeof coreServices.config; jobs: typeof coreServices.jobs;
    metrics: typeof coreServices.metrics; extensions: typeof coreServices.extensions; logger: typeof coreServices.logger;
  },
  AlertSettings
>({
  id: 'alerts',
  manifest: fromRoot('manifests', 'alerts.json'),
  migrations: [createAlerts],
  deps: { db: coreServices.db, clock: coreServices.clock, config: coreServices.config, jobs: coreServices.jobs, metrics: coreServices.metrics, extensions: coreServices.extensions, logger: coreServices.logger },
  setup({ db, clock, config, jobs, metrics, extensions, logger }, { settings }) {
    const enabled = new Set(config.plugins.filter((p): p is string => typeof p === 'string'));
    const own: AlertSignal[] = [...(enabled.has('streams') ? STREAM_SIGNALS : []), ...(enabled.has('components') ? [componentFailed] : [])];
    const signals = () => new Map(extensions.all(alertSignals).map((s) => [s.name, s]));
    const notifier = new ComponentNotifier(() => extensions.all(componentTypes));
    alertGauge(metrics, db);
    const evaluation = {
      name: 'alerts.evaluate',
      intervalMs: settings.evaluation_interval_ms,
      async run({ lease, signal }: { lease: import('../../kernel/plugin/api.js').Lease; signal: AbortSignal }) {
        await evaluateAll(lease, signal, { db, leases: jobs.leases, signals, now: () => clock.now(), externalUrl: settings.external_url });
        await deliverDue(db, signal, { allowPrivate: settings.allow_private_webhooks, timeoutMs: settings.webhook_timeout_ms, maxAttempts: settings.max_attempts, now: () => clock.now(), components: notifier }, logger);
      },
    };
    return {
      handlers: alertHandlers(signals, clock, settings.allow_private_webhooks, notifier),
      offers: [alertSignals],
      contributions: [...own.map((s) => contribute(alertSignals, s)), contribute(coreExtensions.jobs, evaluation), contribute(dashboardSections, alertsSection), contribute(componentDirectoryReceivers, notifier.receiver)],
    };
  },
});
