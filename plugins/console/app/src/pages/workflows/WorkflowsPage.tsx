import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { api, unwrapPage } from '../../api/client';
import { ActionButton } from '../../kit/ActionButton';
import { StateBadge, Time } from '../../kit/format';
import { PagedTable } from '../../kit/PagedTable';
import { WORKFLOW_STATES, workflowsRoute } from './routes';

export function WorkflowsPage() {
  const search = workflowsRoute.useSearch();
  const navigate = workflowsRoute.useNavigate();
  const list = useQuery({
    queryKey: ['workflows', search],
    queryFn: () => unwrapPage(api.GET('/workflows', { params: { query: { ...search, limit: 50 } } })),
  });
  return (
    <div className="page">
      <div className="page-header">
        <h1>Workflows</h1>
        <ActionButton op="createWorkflow" variant="primary" onPress={() => void navigate({ to: '/workflows/new' })}>
          New workflow
        </ActionButton>
      </div>
      <div className="toolbar" role="group" aria-label="Filters">
        <div className="field">
          <label htmlFor="f-state">State</label>
          <select
            id="f-state"
            value={search.state ?? ''}
            onChange={(e) =>
              void navigate({
                search: { state: (e.target.value || undefined) as (typeof WORKFLOW_STATES)[number] | undefined },
              })
            }
          >
            <option value="">Any</option>
            {WORKFLOW_STATES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </div>
      </div>
      <PagedTable
        caption="Workflows"
        rowKey={(w) => w.id}
        page={list.data}
        loading={list.isPending}
        error={list.error}
        cursor={search.cursor}
        onPage={(cursor) => void navigate({ search: (old) => ({ ...old, cursor }) })}
        empty="No workflows yet."
        columns={[
          {
            header: 'Workflow',
            cell: (w) => (
              <Link to="/workflows/$workflowId" params={{ workflowId: w.id }} search={{}}>
                {w.name}
              </Link>
            ),
          },
          { header: 'State', cell: (w) => <StateBadge state={w.state} /> },
          {
            header: 'Revision',
            numeric: true,
            cell: (w) => `${w.revision}${w.deployed_revision !== null ? ` (deployed ${w.deployed_revision})` : ''}`,
          },
          { header: 'Updated', cell: (w) => <Time value={w.updated_at} /> },
        ]}
      />
    </div>
  );
}
