import '../pages.css';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useId } from 'react';
import { api, unwrapPage } from '../../api/client';
import type { components } from '../../api/schema';
import { ConfirmAction } from '../../kit/ConfirmAction';
import { StateBadge, Time } from '../../kit/format';
import { PagedTable } from '../../kit/PagedTable';
import { labelsText } from './labels';
import { ALERT_STATES, alertsRoute } from './routes';
import { RulesView } from './RulesView';
import { SilencesView } from './SilencesView';

type Alert = components['schemas']['alerts.Alert'];
type Search = ReturnType<typeof alertsRoute.useSearch>;

const VIEWS = [
  { id: 'alerts', label: 'Alerts' },
  { id: 'rules', label: 'Rules' },
  { id: 'silences', label: 'Silences' },
] as const;

function AlertsView({ search }: { search: Search }) {
  const navigate = useNavigate({ from: alertsRoute.fullPath });
  const stateId = useId();
  const list = useQuery({
    queryKey: ['alerts', 'list', search.state, search.rule, search.cursor],
    queryFn: () =>
      unwrapPage(
        api.GET('/alerts', {
          params: { query: { state: search.state, rule: search.rule, cursor: search.cursor, limit: 50 } },
        }),
      ),
    refetchInterval: 10_000,
  });
  return (
    <>
      <form className="toolbar" aria-label="Filter alerts" onSubmit={(e) => e.preventDefault()}>
        <div className="field">
          <label htmlFor={stateId}>State</label>
          <select
            id={stateId}
            value={search.state ?? ''}
            onChange={(e) =>
              navigate({
                search: (s) => ({ ...s, state: (e.target.value || undefined) as Search['state'], cursor: undefined }),
              })
            }
          >
            <option value="">Any</option>
            {ALERT_STATES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </div>
        {search.rule ? (
          <p>
            Rule <code>{search.rule}</code>{' '}
            <Link to="." search={(s: Search) => ({ ...s, rule: undefined })}>
              Show every rule
            </Link>
          </p>
        ) : null}
      </form>
      <PagedTable<Alert>
        caption="Alerts"
        rowKey={(a) => a.id}
        page={list.data}
        loading={list.isPending}
        error={list.error}
        cursor={search.cursor}
        onPage={(cursor) => navigate({ search: (s) => ({ ...s, cursor }) })}
        empty="No alerts in this state."
        columns={[
          { header: 'State', cell: (a) => <StateBadge state={a.state} /> },
          {
            header: 'Rule',
            cell: (a) => (
              <Link to="." search={(s: Search) => ({ ...s, rule: a.rule_id, cursor: undefined })}>
                {a.rule_id}
              </Link>
            ),
          },
          { header: 'Labels', cell: (a) => labelsText(a.labels) },
          { header: 'Value', cell: (a) => a.value, numeric: true },
          { header: 'Since', cell: (a) => <Time value={a.started_at} /> },
          { header: 'Silenced', cell: (a) => (a.silenced ? 'yes' : 'no') },
          {
            header: 'Acknowledged',
            cell: (a) =>
              a.acked_at ? (
                <span>
                  by {a.acked_by} <Time value={a.acked_at} />
                </span>
              ) : a.state === 'resolved' ? (
                '—'
              ) : (
                <ConfirmAction
                  call={{ op: 'ackAlert', params: { id: a.id }, body: {} }}
                  label="Acknowledge"
                  description="The alert is marked as seen by you; it keeps firing while its condition holds."
                  invalidate={[['alerts']]}
                />
              ),
          },
        ]}
      />
    </>
  );
}

export function AlertsPage() {
  const search = alertsRoute.useSearch();
  const view = search.view ?? 'alerts';
  return (
    <div className="page">
      <header className="page-header">
        <h1>Alerts</h1>
      </header>
      <nav className="tabs" aria-label="Alert views">
        {VIEWS.map((v) => (
          <Link key={v.id} to="." search={{ view: v.id }} aria-current={view === v.id ? 'page' : undefined}>
            {v.label}
          </Link>
        ))}
      </nav>
      {view === 'alerts' ? <AlertsView search={search} /> : null}
      {view === 'rules' ? <RulesView search={search} /> : null}
      {view === 'silences' ? <SilencesView /> : null}
    </div>
  );
}
