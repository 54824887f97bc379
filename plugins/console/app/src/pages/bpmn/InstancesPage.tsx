import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useId } from 'react';
import { api } from '../../api/client';
import { ApiError, toApiError } from '../../api/errors';
import type { components } from '../../api/schema';
import { StateBadge, Time } from '../../kit/format';
import { PagedTable } from '../../kit/PagedTable';
import { BpmnNav } from './BpmnNav';
import { INSTANCE_STATES, instancesRoute } from './routes';

type Instance = components['schemas']['bpmn.Instance'];
type Search = ReturnType<typeof instancesRoute.useSearch>;

/** One page of instances: this list carries its next cursor in the body (`next_cursor`), not in a header. */
async function instancesPage(search: Search) {
  const result = await api
    .GET('/bpmn/instances', { params: { query: { ...search, limit: 50 } } })
    .catch((err: Error) => {
      throw new ApiError(0, 'network_error', `The server could not be reached (${err.message}).`);
    });
  if (!result.response.ok) throw toApiError(result.response, result.error);
  const body = result.data as { items: Instance[]; next_cursor?: string | null };
  return { items: body.items, ...(body.next_cursor ? { next: body.next_cursor } : {}) };
}

export function InstancesPage() {
  const search = instancesRoute.useSearch();
  const navigate = useNavigate({ from: instancesRoute.fullPath });
  const stateId = useId();
  const processId = useId();
  const keyId = useId();
  const list = useQuery({
    queryKey: ['bpmn', 'instances', search],
    queryFn: () => instancesPage(search),
    refetchInterval: 5_000,
  });
  const set = (patch: Partial<Search>) => navigate({ search: (s) => ({ ...s, ...patch, cursor: undefined }) });
  return (
    <div className="page">
      <header className="page-header">
        <h1>BPMN instances</h1>
      </header>
      <BpmnNav />
      <form className="toolbar" aria-label="Filter instances" onSubmit={(e) => e.preventDefault()}>
        <div className="field">
          <label htmlFor={stateId}>State</label>
          <select
            id={stateId}
            value={search.state ?? ''}
            onChange={(e) => set({ state: (e.target.value || undefined) as Search['state'] })}
          >
            <option value="">Any</option>
            {INSTANCE_STATES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={processId}>Process id</label>
          <input
            id={processId}
            defaultValue={search.process_id ?? ''}
            onBlur={(e) => set({ process_id: e.target.value || undefined })}
          />
        </div>
        <div className="field">
          <label htmlFor={keyId}>Business key</label>
          <input
            id={keyId}
            defaultValue={search.business_key ?? ''}
            onBlur={(e) => set({ business_key: e.target.value || undefined })}
          />
        </div>
      </form>
      <PagedTable<Instance>
        caption="Instances"
        rowKey={(i) => i.id}
        page={list.data}
        loading={list.isPending}
        error={list.error}
        cursor={search.cursor}
        onPage={(cursor) => navigate({ search: (s) => ({ ...s, cursor }) })}
        empty="No instances match."
        columns={[
          {
            header: 'Instance',
            cell: (i) => (
              <Link to="/bpmn/instances/$id" params={{ id: i.id }}>
                {i.id}
              </Link>
            ),
          },
          { header: 'Process', cell: (i) => `${i.process_id} v${i.version}` },
          { header: 'Business key', cell: (i) => i.business_key ?? '—' },
          { header: 'State', cell: (i) => <StateBadge state={i.state} /> },
          { header: 'Started', cell: (i) => <Time value={i.created_at} /> },
          { header: 'Ended', cell: (i) => <Time value={i.ended_at} /> },
        ]}
      />
    </div>
  );
}
