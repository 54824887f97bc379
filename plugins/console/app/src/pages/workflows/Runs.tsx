import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { api, unwrapPage } from '../../api/client';
import { StateBadge, Time } from '../../kit/format';
import { PagedTable } from '../../kit/PagedTable';
import { RUN_STATUSES, workflowRoute } from './routes';

/** A workflow's runs, filtered by status (in the URL). */
export function Runs({ workflowId }: { workflowId: string }) {
  const search = workflowRoute.useSearch();
  const navigate = workflowRoute.useNavigate();
  const runs = useQuery({
    queryKey: ['workflows', workflowId, 'runs', search.status, search.cursor],
    queryFn: () =>
      unwrapPage(
        api.GET('/workflows/{id}/runs', {
          params: {
            path: { id: workflowId },
            query: {
              ...(search.status ? { status: search.status } : {}),
              ...(search.cursor ? { cursor: search.cursor } : {}),
              limit: 50,
            },
          },
        }),
      ),
    refetchInterval: 10_000,
  });
  return (
    <section aria-label="Runs">
      <div className="toolbar">
        <div className="field">
          <label htmlFor="run-status">Run status</label>
          <select
            id="run-status"
            value={search.status ?? ''}
            onChange={(e) =>
              void navigate({
                search: (old) => ({
                  ...old,
                  status: (e.target.value || undefined) as (typeof RUN_STATUSES)[number] | undefined,
                  cursor: undefined,
                }),
              })
            }
          >
            <option value="">Any</option>
            {RUN_STATUSES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </div>
      </div>
      <PagedTable
        caption="Runs"
        rowKey={(r) => `${r.id ?? r.message_id}-${r.revision}`}
        page={runs.data}
        loading={runs.isPending}
        error={runs.error}
        cursor={search.cursor}
        onPage={(cursor) => void navigate({ search: (old) => ({ ...old, cursor }) })}
        empty="No runs match."
        columns={[
          {
            header: 'Run',
            cell: (r) =>
              r.id ? (
                <Link to="/workflows/$workflowId/runs/$runId" params={{ workflowId, runId: r.id }}>
                  {r.id}
                </Link>
              ) : (
                <span className="muted">pending</span>
              ),
          },
          { header: 'Status', cell: (r) => <StateBadge state={r.status} /> },
          {
            header: 'Message',
            cell: (r) => (
              <Link to="/messages/$messageId" params={{ messageId: r.message_id }}>
                {r.message_id}
              </Link>
            ),
          },
          { header: 'Attempts', numeric: true, cell: (r) => r.attempts },
          { header: 'Error', cell: (r) => r.error ?? '—' },
          { header: 'Started', cell: (r) => <Time value={r.started_at} /> },
        ]}
      />
    </section>
  );
}
