import type { OperationId } from '../api/operations';

/**
 * The navigation: one entry per top-level page, with the operation whose permission the page
 * needs to show anything (the entry is disabled, naming that permission, for a caller without it).
 * To add a page: add its route (see README) and one line here.
 */
export interface NavEntry {
  to: string;
  label: string;
  op: OperationId;
  group: 'Runtime' | 'Processes' | 'Operate' | 'Govern';
}

export const NAV: NavEntry[] = [
  { to: '/', label: 'Dashboard', op: 'getDashboard', group: 'Runtime' },
  { to: '/streams', label: 'Streams', op: 'listStreams', group: 'Runtime' },
  { to: '/messages', label: 'Messages', op: 'listMessages', group: 'Runtime' },
  { to: '/workflows', label: 'Workflows', op: 'listWorkflows', group: 'Runtime' },
  { to: '/components', label: 'Components', op: 'listComponents', group: 'Runtime' },
  { to: '/codecs', label: 'Codecs', op: 'listCodecs', group: 'Runtime' },
  { to: '/studio', label: 'Studio', op: 'listWorkspaces', group: 'Processes' },
  { to: '/bpmn', label: 'BPMN', op: 'listBpmnDefinitions', group: 'Processes' },
  { to: '/alerts', label: 'Alerts', op: 'listAlerts', group: 'Operate' },
  { to: '/logs', label: 'Logs', op: 'listLogs', group: 'Operate' },
  { to: '/sql', label: 'SQL console', op: 'runSqlQuery', group: 'Operate' },
  { to: '/audit', label: 'Audit', op: 'listAudit', group: 'Govern' },
  { to: '/identity', label: 'Identity', op: 'listUsers', group: 'Govern' },
  { to: '/promotion', label: 'Promotion', op: 'exportBundle', group: 'Govern' },
  { to: '/api', label: 'API', op: 'getOpenApi', group: 'Govern' },
];
