import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useMemo } from 'react';
import { api, unwrap } from '../../api/client';
import { ConfirmAction } from '../../kit/ConfirmAction';
import { ErrorBanner } from '../../kit/ErrorDisplay';
import { StateBadge, Time } from '../../kit/format';
import { HistoryTab } from '../../kit/HistoryTab';
import { BpmnNav } from './BpmnNav';
import { Diagram } from './Diagram';
import { marksOf } from './diagram-state';
import { instanceRoute } from './routes';
import { definitionXml } from './xml';

const TABS = [
  { id: 'variables', label: 'Variables' },
  { id: 'history', label: 'Activity history' },
  { id: 'audit', label: 'Audit history' },
] as const;

export function InstancePage() {
  const { id } = instanceRoute.useParams();
  const { tab = 'variables' } = instanceRoute.useSearch();
  const navigate = useNavigate({ from: instanceRoute.fullPath });
  const instance = useQuery({
    queryKey: ['bpmn', 'instance', id],
    queryFn: () => unwrap(api.GET('/bpmn/instances/{id}', { params: { path: { id } } })),
    refetchInterval: (q) => (q.state.data?.state === 'active' || q.state.data?.state === 'incident' ? 3_000 : false),
  });
  const key = instance.data?.definition_key;
  const xml = useQuery({
    queryKey: ['bpmn', 'definition', key, 'xml'],
    queryFn: () => definitionXml(key as string),
    enabled: Boolean(key),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const marks = useMemo(() => (instance.data ? marksOf(instance.data) : undefined), [instance.data]);
  const i = instance.data;
  const invalidate = [['bpmn']];
  return (
    <div className="page">
      <header className="page-header">
        <h1>
          Instance <code>{id}</code>
        </h1>
        {i ? <StateBadge state={i.state} /> : null}
      </header>
      <BpmnNav />
      <ErrorBanner error={instance.error ?? xml.error} />
      {i ? (
        <>
          <dl className="kv">
            <dt>Process</dt>
            <dd>
              <Link to="/bpmn/definitions/$key" params={{ key: i.definition_key }}>
                {i.process_id} version {i.version}
              </Link>
            </dd>
            <dt>Business key</dt>
            <dd>{i.business_key ?? '—'}</dd>
            <dt>Started</dt>
            <dd>
              <Time value={i.created_at} />
            </dd>
            <dt>Ended</dt>
            <dd>
              <Time value={i.ended_at} />
            </dd>
            {i.replay_of ? (
              <>
                <dt>Replay of</dt>
                <dd>
                  <Link to="/bpmn/instances/$id" params={{ id: i.replay_of }}>
                    {i.replay_of}
                  </Link>
                </dd>
              </>
            ) : null}
          </dl>
          <div className="toolbar">
            {i.state === 'active' || i.state === 'incident' ? (
              <ConfirmAction
                call={{ op: 'cancelBpmnInstance', params: { id }, body: {} }}
                label="Cancel instance"
                variant="danger"
                description="The instance stops where it is; its open tasks are cancelled."
                invalidate={invalidate}
              />
            ) : null}
            <ConfirmAction
              call={{ op: 'replayBpmnInstance', params: { id }, body: {} }}
              label="Replay from the start"
              description="A new instance starts from the beginning with this instance's first variables."
              invalidate={invalidate}
              onDone={(result) =>
                navigate({ to: '/bpmn/instances/$id', params: { id: (result as { id: string }).id }, search: {} })
              }
            />
          </div>
        </>
      ) : null}
      <section aria-labelledby="diagram-title">
        <h2 id="diagram-title">Diagram</h2>
        <ul className="legend" aria-label="Legend">
          <li>
            <span className="legend-swatch legend-completed" aria-hidden="true" />
            Completed (path taken)
          </li>
          <li>
            <span className="legend-swatch legend-active" aria-hidden="true" />
            Active (waiting)
          </li>
          <li>
            <span className="legend-swatch legend-incident" aria-hidden="true" />
            Incident
          </li>
        </ul>
        <Diagram xml={xml.data} marks={marks} label={`Diagram of instance ${id}`} />
        {marks ? (
          <dl className="kv" aria-label="Element states">
            <dt>Path taken</dt>
            <dd data-testid="path-taken">{marks.completed.join(' → ') || '—'}</dd>
            <dt>Active</dt>
            <dd>{marks.active.join(', ') || '—'}</dd>
            <dt>Incidents</dt>
            <dd>{marks.incident.join(', ') || '—'}</dd>
          </dl>
        ) : null}
      </section>
      {i && (i.tasks?.length ?? 0) > 0 ? (
        <section aria-labelledby="tasks-title">
          <h2 id="tasks-title">Tasks</h2>
          <ul>
            {i.tasks?.map((t) => (
              <li key={t.id}>
                {t.state === 'open' ? (
                  <Link to="/bpmn/tasks" search={{ task: t.id }}>
                    {t.name ?? t.activity_id}
                  </Link>
                ) : (
                  (t.name ?? t.activity_id)
                )}{' '}
                <StateBadge state={t.state} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {i && (i.incidents?.length ?? 0) > 0 ? (
        <section aria-labelledby="incidents-title">
          <h2 id="incidents-title">Incidents</h2>
          <ul>
            {i.incidents?.map((inc) => (
              <li key={inc.id}>
                <code>{inc.activity_id}</code>: {inc.message} <StateBadge state={inc.state} />{' '}
                {inc.state === 'open' ? (
                  <ConfirmAction
                    call={{ op: 'resolveBpmnIncident', params: { id: inc.id }, body: {} }}
                    label="Resolve"
                    description="The failed activity runs again."
                    invalidate={invalidate}
                  />
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <nav className="tabs" aria-label="Instance details">
        {TABS.map((t) => (
          <Link key={t.id} to="." search={{ tab: t.id }} aria-current={tab === t.id ? 'page' : undefined}>
            {t.label}
          </Link>
        ))}
      </nav>
      {tab === 'variables' && i ? <pre className="code wrap">{JSON.stringify(i.variables, null, 2)}</pre> : null}
      {tab === 'history' && i ? (
        <div className="table-scroll">
          <table>
            <caption className="visually-hidden">Activity history</caption>
            <thead>
              <tr>
                <th scope="col">Activity</th>
                <th scope="col">Type</th>
                <th scope="col">Started</th>
                <th scope="col">Ended</th>
                <th scope="col">Outcome</th>
              </tr>
            </thead>
            <tbody>
              {(i.history ?? []).map((h) => (
                <tr key={`${h.activity_id}-${h.started_at}`}>
                  <td>{h.name ?? h.activity_id}</td>
                  <td>{h.activity_type?.replace('bpmn:', '')}</td>
                  <td>
                    <Time value={h.started_at} />
                  </td>
                  <td>
                    <Time value={h.ended_at} />
                  </td>
                  <td>{h.outcome}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {tab === 'audit' ? <HistoryTab resource={id} /> : null}
    </div>
  );
}
