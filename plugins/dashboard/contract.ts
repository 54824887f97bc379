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
