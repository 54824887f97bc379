import type { SqlTable } from '../sql/contract.js';

/** What the SQL console reads of a tenant's workflows, revisions and runs, under readable names. */
export const workflowSqlTables: readonly SqlTable[] = [
  {
    table: 'workflows_workflows',
    view: {
      name: 'workflows',
      select:
        't.id, t.name, t.state, t.revision, t.deployed_revision, t.input_stream, t.last_error, t.failed_at, t.created_at, t.updated_at',
    },
  },
  {
    table: 'workflows_revisions',
    view: { name: 'workflow_revisions', select: 't.workflow_id, t.revision, t.definition, t.created_by, t.created_at' },
  },
  {
    table: 'workflows_runs',
    view: {
      name: 'runs',
      select:
        't.id, t.workflow_id, t.revision, t.message_id, t.status, t.attempts, t.error, t.outputs, t.replay_of, t.started_at, t.updated_at',
    },
  },
];
