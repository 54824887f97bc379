import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { api, unwrap } from '../../api/client';
import { ConfirmAction } from '../../kit/ConfirmAction';
import { ErrorBanner } from '../../kit/ErrorDisplay';
import { StateBadge, Time } from '../../kit/format';
import { MessageBody } from '../streams/MessageBody';
import { runRoute } from './routes';

/** One run: the input message, the outputs, the error and attempts; replay. */
export function RunPage() {
  const { workflowId, runId } = runRoute.useParams();
  const run = useQuery({
    queryKey: ['workflows', workflowId, 'runs', runId],
    queryFn: () => unwrap(api.GET('/workflows/{id}/runs/{run}', { params: { path: { id: workflowId, run: runId } } })),
  });
  const r = run.data;
  const input = useQuery({
    queryKey: ['messages', r?.message_id],
    queryFn: () => unwrap(api.GET('/messages/{id}', { params: { path: { id: r?.message_id ?? '' } } })),
    enabled: Boolean(r?.message_id),
  });
  return (
    <div className="page">
      <p>
        <Link to="/workflows/$workflowId" params={{ workflowId }} search={{ tab: 'runs' }}>
          {workflowId}
        </Link>{' '}
        / runs /
      </p>
      <div className="page-header">
        <h1>
          Run <code>{runId}</code>
        </h1>
        <ConfirmAction
          call={{ op: 'replayWorkflowRun', params: { id: workflowId, run: runId }, body: {} }}
          label="Replay run"
          description="Runs the input message through the workflow again."
          invalidate={[['workflows', workflowId]]}
        />
      </div>
      <ErrorBanner error={run.error} />
      {r ? (
        <>
          <dl className="facts">
            <dt>Status</dt>
            <dd>
              <StateBadge state={r.status} />
            </dd>
            <dt>Revision</dt>
            <dd>{r.revision}</dd>
            <dt>Attempts</dt>
            <dd>{r.attempts}</dd>
            <dt>Error</dt>
            <dd>{r.error ?? 'none'}</dd>
            <dt>Started</dt>
            <dd>
              <Time value={r.started_at} />
            </dd>
            <dt>Replay of</dt>
            <dd>{r.replay_of ?? '—'}</dd>
          </dl>
          <h2>Input</h2>
          <p>
            <Link to="/messages/$messageId" params={{ messageId: r.message_id }}>
              Message {r.message_id}
            </Link>
          </p>
          <ErrorBanner error={input.error} />
          {input.data ? <MessageBody message={input.data} /> : null}
          <h2>Outputs</h2>
          <pre tabIndex={0}>{JSON.stringify(r.outputs, null, 2)}</pre>
        </>
      ) : null}
    </div>
  );
}
