import type { SqlTable } from '../sql/contract.js';

/** What the SQL console reads of a tenant's process instances, incidents and jobs, under readable names. */
export const bpmnSqlTables: readonly SqlTable[] = [
  {
    table: 'bpmn_instances',
    view: {
      name: 'process_instances',
      select: `t.id, t.definition_key, t.process_id, t.version, t.business_key, t.state, t.variables, t.waiting,
        t.parent_id, t.replay_of, t.created_at, t.updated_at, t.ended_at`,
    },
  },
  {
    table: 'bpmn_incidents',
    view: {
      name: 'incidents',
      select: 't.id, t.instance_id, t.activity_id, t.message, t.state, t.created_at, t.resolved_at',
    },
  },
  {
    table: 'bpmn_jobs',
    view: {
      name: 'jobs',
      select: `t.id, t.instance_id, t.activity_id, t.type, t.state, t.retries, t.worker_id, t.lock_expires_at, t.due_at,
        t.error_message, t.created_at, t.ended_at`,
    },
  },
];
