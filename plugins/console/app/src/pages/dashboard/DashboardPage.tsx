import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { api, unwrap, unwrapPage } from '../../api/client';
import { useAllowed } from '../../auth/session';
import { ErrorBanner } from '../../kit/ErrorDisplay';
import { StateBadge } from '../../kit/format';
import { TimeChart, type Series } from '../../kit/TimeChart';
import { dashboardQuery, dashboardRoute, WINDOWS, type DashboardWindow } from './routes';

interface WorkflowFigures {
  workflow: string;
  messages_in: number;
  messages_out: number;
  errors: number;
  error_rate: number;
  p95_ms: number | null;
  dead_letters: number;
  lag: number;
  oldest_unacked_seconds: number | null;
}

interface Sections {
  components?: { by_state: Record<string, number>; total: number };
  workflows?: WorkflowFigures[];
  alerts?: {
    firing: number;
    pending: number;
    items: Array<{ id: string; rule_id: string; value: number; fired_at: string | null }>;
  };
  [key: string]: unknown;
}

const REFRESH_MS = 10_000;
const KEEP_SAMPLES = 60;

interface Sample {
  at: number;
  workflows: WorkflowFigures[];
}

/** Keeps the last samples of the live-refreshed dashboard so the charts show how figures move. */
function useSamples(workflows: WorkflowFigures[] | undefined, updatedAt: number): Sample[] {
  const [samples, setSamples] = useState<Sample[]>([]);
  useEffect(() => {
    if (!workflows || !updatedAt) return;
    setSamples((old) => [...old, { at: Math.floor(updatedAt / 1000), workflows }].slice(-KEEP_SAMPLES));
  }, [workflows, updatedAt]);
  return samples;
}

function seriesOf(samples: Sample[], names: string[], pick: (f: WorkflowFigures) => number | null): Series[] {
  return names.slice(0, 4).map((name) => ({
    label: name,
    values: samples.map((s) => {
      const f = s.workflows.find((w) => w.workflow === name);
      return f ? pick(f) : null;
    }),
  }));
}

function BpmnCard() {
  const { allowed, permission } = useAllowed('listBpmnInstances');
  const instances = useQuery({
    queryKey: ['bpmn', 'instances', 'count'],
    queryFn: () => unwrapPage(api.GET('/bpmn/instances', { params: { query: { limit: 100 } } })),
    enabled: allowed,
    refetchInterval: REFRESH_MS,
  });
  const incidents = useQuery({
    queryKey: ['bpmn', 'incidents', 'count'],
    queryFn: () => unwrapPage(api.GET('/bpmn/incidents', { params: { query: { limit: 100 } } })),
    enabled: allowed,
    refetchInterval: REFRESH_MS,
  });
  const count = (page: { items: unknown[]; next?: string } | undefined) =>
    page ? `${page.items.length}${page.next ? '+' : ''}` : '…';
  return (
    <section className="card" aria-labelledby="bpmn-card">
      <h2 id="bpmn-card">BPMN</h2>
      {allowed ? (
        <>
          <p>
            <span className="stat">{count(instances.data)}</span> instances
          </p>
          <p>
            <span className="stat">{count(incidents.data)}</span> open incidents
          </p>
        </>
      ) : (
        <p className="muted">Needs {permission}.</p>
      )}
    </section>
  );
}

/**
 * A workflow whose messages lag may be held on purpose (a component it uses is stopped): the
 * workflow's own answer says so, asked only for the rows with a lag.
 */
function WaitingCell({ workflow, lag }: { workflow: string; lag: number }) {
  const detail = useQuery({
    queryKey: ['workflows', workflow],
    queryFn: () => unwrap(api.GET('/workflows/{id}', { params: { path: { id: workflow } } })),
    enabled: lag > 0,
    refetchInterval: REFRESH_MS,
  });
  const waiting = lag > 0 ? detail.data?.waiting : undefined;
  if (!waiting) return <span className="muted">—</span>;
  return (
    <span>
      <StateBadge state="waiting" /> for {waiting.components.join(', ')}
    </span>
  );
}

/** The runtime at a glance: traffic, errors, latency, lag and dead letters per workflow; components; alerts; BPMN. */
export function DashboardPage() {
  const search = dashboardRoute.useSearch();
  const navigate = dashboardRoute.useNavigate();
  const window: DashboardWindow = search.window ?? '1h';
  const [live, setLive] = useState(true);
  const dashboard = useQuery({ ...dashboardQuery(window), refetchInterval: live ? REFRESH_MS : false });
  const sections = dashboard.data?.sections as Sections | undefined;
  const workflows = sections?.workflows;
  const samples = useSamples(workflows, dashboard.dataUpdatedAt);
  const names = [...new Set((workflows ?? []).map((w) => w.workflow))];
  const times = samples.map((s) => s.at);

  return (
    <div className="page">
      <div className="page-header">
        <h1>Dashboard</h1>
        <div className="toolbar" role="group" aria-label="Time window">
          {WINDOWS.map((w) => (
            <button
              key={w}
              type="button"
              className="btn btn-secondary"
              aria-pressed={w === window}
              onClick={() => void navigate({ search: { window: w } })}
            >
              {w}
            </button>
          ))}
          <button type="button" className="btn btn-secondary" aria-pressed={live} onClick={() => setLive(!live)}>
            Live refresh
          </button>
        </div>
      </div>
      <ErrorBanner error={dashboard.error} />
      <div className="cards">
        <section className="card" aria-labelledby="components-card">
          <h2 id="components-card">Components</h2>
          <p>
            <span className="stat">{sections?.components?.total ?? '…'}</span> in all
          </p>
          <ul>
            {Object.entries(sections?.components?.by_state ?? {}).map(([state, n]) => (
              <li key={state}>
                <Link to="/components" search={{ state: state as 'running' }}>
                  <StateBadge state={state} /> {n}
                </Link>
              </li>
            ))}
          </ul>
        </section>
        <section className="card" aria-labelledby="alerts-card">
          <h2 id="alerts-card">Alerts</h2>
          <p>
            <span className="stat">{sections?.alerts?.firing ?? 0}</span> firing, {sections?.alerts?.pending ?? 0}{' '}
            pending
          </p>
          <ul>
            {sections?.alerts?.items.slice(0, 5).map((a) => (
              <li key={a.id}>
                <StateBadge state="firing" /> {a.rule_id} ({a.value})
              </li>
            ))}
          </ul>
        </section>
        <BpmnCard />
      </div>
      <h2>Workflows over {window}</h2>
      {workflows && workflows.length === 0 ? (
        <p className="muted">No workflow has handled a message in this window.</p>
      ) : null}
      {names.length > 0 ? (
        <div className="cards">
          <TimeChart
            title="Traffic (messages in)"
            times={times}
            series={seriesOf(samples, names, (f) => f.messages_in)}
          />
          <TimeChart
            title="Error rate"
            times={times}
            series={seriesOf(samples, names, (f) => Math.round(f.error_rate * 1000) / 10)}
            unit="%"
          />
          <TimeChart title="p95 latency" times={times} series={seriesOf(samples, names, (f) => f.p95_ms)} unit=" ms" />
          <TimeChart title="Lag (messages)" times={times} series={seriesOf(samples, names, (f) => f.lag)} />
          <TimeChart title="Dead letters" times={times} series={seriesOf(samples, names, (f) => f.dead_letters)} />
        </div>
      ) : null}
      {workflows && workflows.length > 0 ? (
        <div className="table-scroll">
          <table>
            <caption className="visually-hidden">Workflow figures over {window}</caption>
            <thead>
              <tr>
                <th scope="col">Workflow</th>
                <th scope="col" className="num">
                  In
                </th>
                <th scope="col" className="num">
                  Out
                </th>
                <th scope="col" className="num">
                  Errors
                </th>
                <th scope="col" className="num">
                  Error rate
                </th>
                <th scope="col" className="num">
                  p95
                </th>
                <th scope="col" className="num">
                  Lag
                </th>
                <th scope="col" className="num">
                  Dead letters
                </th>
                <th scope="col">Waiting</th>
              </tr>
            </thead>
            <tbody>
              {workflows.map((w) => (
                <tr key={w.workflow}>
                  <td>
                    <Link to="/workflows/$workflowId" params={{ workflowId: w.workflow }} search={{}}>
                      {w.workflow}
                    </Link>
                  </td>
                  <td className="num">{w.messages_in}</td>
                  <td className="num">{w.messages_out}</td>
                  <td className="num">{w.errors}</td>
                  <td className="num">{(w.error_rate * 100).toFixed(1)}%</td>
                  <td className="num">{w.p95_ms ?? '—'} ms</td>
                  <td className="num">{w.lag}</td>
                  <td className="num">
                    {w.dead_letters > 0 ? (
                      <Link to="/messages" search={{ workflow: w.workflow, status: 'dead' }}>
                        {w.dead_letters}
                      </Link>
                    ) : (
                      0
                    )}
                  </td>
                  <td>
                    <WaitingCell workflow={w.workflow} lag={w.lag} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}
