import type { Knex } from 'knex';
import { extensionPoint } from '../../kernel/plugin/api.js';

/** The time window a dashboard covers. */
export interface DashboardWindow {
  name: '5m' | '1h' | '24h';
  since: Date;
  until: Date;
}

/**
 * One part of GET /dashboard, built by the plugin that owns its data: the alerts plugin gives
 * `alerts`, the BPMN plugin `bpmn` (instances by state, open incidents), the workflows plugin
 * `workflows` (replacing the dashboard's own figures from stream deliveries). Its value appears
 * under `key`; a later contribution under a key replaces an earlier one (built-ins come first).
 * A section must answer from indexed queries or counters: it runs on every dashboard request.
 * A plain JavaScript plugin contributes `{ point: { id: 'dashboard.sections' }, value: { key, build } }`.
 */
export interface DashboardSection {
  key: string;
  build(db: Knex, tenantId: string, window: DashboardWindow): Promise<unknown>;
}

export const dashboardSections = extensionPoint<DashboardSection>('dashboard.sections');

/** One workflow's traffic over a window, as the `workflows` section shows it. */
export interface WorkflowTraffic {
  workflow: string;
  messages_in: number;
  processed: number;
  errors: number;
  attempts: number;
  p95_ms: number | null;
}

/**
 * Where the `workflows` section reads a day of traffic: the workflows plugin contributes its
 * per-(tenant, workflow, partition, hour) counters, so the 24h window reads a bounded number of
 * rows whatever the traffic (it then covers whole hours: from the start of the hour 24 h ago).
 * The 5m and 1h windows read the deliveries in the window itself (exact to the millisecond);
 * without a contribution, so does the 24h one.
 */
export interface WorkflowTrafficSource {
  daily(db: Knex, tenantId: string, window: DashboardWindow): Promise<WorkflowTraffic[]>;
}

export const workflowTrafficSources = extensionPoint<WorkflowTrafficSource>('dashboard.workflow_traffic', {
  single: true,
});
