import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useId } from 'react';
import { api, unwrapPage } from '../../api/client';
import type { components } from '../../api/schema';
import { ConfirmAction } from '../../kit/ConfirmAction';
import { StateBadge, Time } from '../../kit/format';
import { PagedTable } from '../../kit/PagedTable';
import { BpmnNav } from './BpmnNav';
import { INCIDENT_STATES, incidentsRoute } from './routes';

type Incident = components['schemas']['bpmn.Incident'];
type Search = ReturnType<typeof incidentsRoute.useSearch>;

export function IncidentsPage() {
  const search = incidentsRoute.useSearch();
  const navigate = useNavigate({ from: incidentsRoute.fullPath });
  const stateId = useId();
  const state = search.state ?? 'open';
  const list = useQuery({
    queryKey: ['bpmn', 'incidents', search],
    queryFn: () =>
      unwrapPage(api.GET('/bpmn/incidents', { params: { query: { state, cursor: search.cursor, limit: 50 } } })),
    refetchInterval: 10_000,
  });
  return (
    <div className="page">
      <header className="page-header">
        <h1>BPMN incidents</h1>
      </header>
      <BpmnNav />
      <form className="toolbar" aria-label="Filter incidents" onSubmit={(e) => e.preventDefault()}>
        <div className="field">
          <label htmlFor={stateId}>State</label>
          <select
            id={stateId}
            value={state}
            onChange={(e) => navigate({ search: { state: e.target.value as Search['state'] } })}
          >
            {INCIDENT_STATES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
      </form>
      <PagedTable<Incident>
        caption="Incidents"
        rowKey={(i) => i.id}
        page={list.data}
        loading={list.isPending}
        error={list.error}
        cursor={search.cursor}
        onPage={(cursor) => navigate({ search: (s) => ({ ...s, cursor }) })}
        empty="No incidents."
        columns={[
          {
            header: 'Instance',
            cell: (i) => (
              <Link to="/bpmn/instances/$id" params={{ id: i.instance_id }}>
                {i.instance_id}
              </Link>
            ),
          },
          { header: 'Activity', cell: (i) => <code>{i.activity_id ?? '—'}</code> },
          { header: 'Message', cell: (i) => i.message },
          { header: 'State', cell: (i) => <StateBadge state={i.state} /> },
          { header: 'Raised', cell: (i) => <Time value={i.created_at} /> },
          {
            header: 'Action',
            cell: (i) =>
              i.state === 'open' ? (
                <ConfirmAction
                  call={{ op: 'resolveBpmnIncident', params: { id: i.id }, body: {} }}
                  label="Resolve"
                  description={`The activity ${i.activity_id ?? ''} runs again.`}
                  invalidate={[['bpmn']]}
                />
              ) : (
                <Time value={i.resolved_at} />
              ),
          },
        ]}
      />
    </div>
  );
}
