import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { api, unwrap } from '../../api/client';
import { ConfirmAction } from '../../kit/ConfirmAction';
import { ErrorBanner } from '../../kit/ErrorDisplay';
import { StateBadge, Time } from '../../kit/format';
import { HistoryTab } from '../../kit/HistoryTab';
import { MessageBody } from '../streams/MessageBody';
import { messageRoute } from './routes';

/** One message: its value and bytes, its deliveries to workflows, and one timeline of what happened to it. */
export function MessagePage() {
  const { messageId } = messageRoute.useParams();
  const navigate = useNavigate();
  const message = useQuery({
    queryKey: ['messages', messageId],
    queryFn: () => unwrap(api.GET('/messages/{id}', { params: { path: { id: messageId } } })),
  });
  const m = message.data;
  const timeline = m
    ? [
        {
          at: m.published_at,
          text: `Published to ${m.stream} at ${m.partition}:${m.offset}${m.replay_of ? ` as a replay of ${m.replay_of}` : ''}`,
          key: 'published',
        },
        ...m.deliveries.map((d) => ({
          at: d.at,
          key: `${d.workflow}-${d.run_id}-${d.attempt}`,
          text: `Workflow ${d.workflow} (revision ${d.revision}), attempt ${d.attempt}: ${d.status}${d.error ? ` — ${d.error}` : ''}`,
        })),
      ].sort((a, b) => a.at.localeCompare(b.at))
    : [];
  return (
    <div className="page">
      <p>
        <Link to="/messages" search={{}}>
          Messages
        </Link>{' '}
        /
      </p>
      <div className="page-header">
        <h1>
          Message <code>{messageId}</code>
        </h1>
        {m ? (
          <ConfirmAction
            call={{ op: 'replayMessage', params: { id: m.id }, body: {} }}
            label="Replay message"
            description="Appends a new message with the same body, key and headers; the original stays."
            invalidate={[['messages']]}
            onDone={(result) => {
              const replayed = result as { id?: string } | undefined;
              if (replayed?.id) void navigate({ to: '/messages/$messageId', params: { messageId: replayed.id } });
            }}
          />
        ) : null}
      </div>
      <ErrorBanner error={message.error} />
      {m ? (
        <>
          <p>
            Stream{' '}
            <Link
              to="/streams/$streamId"
              params={{ streamId: m.stream }}
              search={{ partition: m.partition, from_offset: m.offset }}
            >
              {m.stream}
            </Link>
            , partition {m.partition}, offset {m.offset}, {m.size} B, published <Time value={m.published_at} />
            {m.replay_of ? (
              <>
                , replay of{' '}
                <Link to="/messages/$messageId" params={{ messageId: m.replay_of }}>
                  {m.replay_of}
                </Link>
              </>
            ) : null}
          </p>
          <MessageBody message={m} />
          <h2>Deliveries</h2>
          <table>
            <caption className="visually-hidden">Deliveries of this message</caption>
            <thead>
              <tr>
                <th scope="col">Workflow</th>
                <th scope="col">Run</th>
                <th scope="col" className="num">
                  Attempt
                </th>
                <th scope="col">Status</th>
                <th scope="col">Error</th>
                <th scope="col">At</th>
              </tr>
            </thead>
            <tbody>
              {m.deliveries.map((d) => (
                <tr key={`${d.workflow}-${d.run_id}-${d.attempt}`}>
                  <td>
                    <Link to="/workflows/$workflowId" params={{ workflowId: d.workflow }} search={{}}>
                      {d.workflow}
                    </Link>
                  </td>
                  <td>
                    <Link to="/workflows/$workflowId/runs/$runId" params={{ workflowId: d.workflow, runId: d.run_id }}>
                      {d.run_id}
                    </Link>
                  </td>
                  <td className="num">{d.attempt}</td>
                  <td>
                    <StateBadge state={d.status} />
                  </td>
                  <td>{d.error ?? '—'}</td>
                  <td>
                    <Time value={d.at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {m.deliveries.length === 0 ? <p className="muted">No workflow has taken this message yet.</p> : null}
          <h2>Timeline</h2>
          <ol className="timeline" aria-label="Timeline">
            {timeline.map((e) => (
              <li key={e.key}>
                <Time value={e.at} /> {e.text}
              </li>
            ))}
          </ol>
          <h2>History</h2>
          <HistoryTab resource={m.id} />
        </>
      ) : null}
    </div>
  );
}
