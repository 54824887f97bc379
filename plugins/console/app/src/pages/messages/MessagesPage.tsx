import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { api, unwrapPage } from '../../api/client';
import type { components } from '../../api/schema';
import { preview } from '../../kit/bytes';
import { ConfirmAction } from '../../kit/ConfirmAction';
import { Time } from '../../kit/format';
import { PagedTable } from '../../kit/PagedTable';
import { DELIVERY_STATUSES, messagesRoute } from './routes';

type Message = components['schemas']['streams.Message'];

/** How many dead letters a redrive replayed (its answer's `replayed`). */
function replayedOf(result: unknown): number {
  if (result && typeof result === 'object' && 'replayed' in result && typeof result.replayed === 'number')
    return result.replayed;
  return 0;
}

/** Messages across streams, filtered by stream, workflow and delivery status (all kept in the URL); redrive of dead letters. */
export function MessagesPage() {
  const search = messagesRoute.useSearch();
  const navigate = messagesRoute.useNavigate();
  const [stream, setStream] = useState(search.stream ?? '');
  const [workflow, setWorkflow] = useState(search.workflow ?? '');
  // The last redrive's answer, shown while the list is the one it was made from.
  const [redrive, setRedrive] = useState<{ replayed: number; workflow: string } | null>(null);
  const redriven =
    redrive && redrive.workflow === search.workflow && search.status === 'dead' ? redrive.replayed : null;
  const messages = useQuery({
    queryKey: ['messages', search],
    queryFn: () => unwrapPage(api.GET('/messages', { params: { query: { ...search, limit: 50 } } })),
  });
  return (
    <div className="page">
      <div className="page-header">
        <h1>Messages</h1>
        {search.workflow && search.status === 'dead' ? (
          <ConfirmAction
            call={{ op: 'redriveMessages', body: { workflow: search.workflow, status: 'dead', limit: 1000 } }}
            label="Redrive dead letters"
            variant="primary"
            description={`Sends the dead letters of workflow ${search.workflow} through it again (at most 1000). Each is redriven once; it is then listed as redriven.`}
            invalidate={[['messages']]}
            onDone={(result) => setRedrive({ replayed: replayedOf(result), workflow: search.workflow ?? '' })}
          />
        ) : null}
      </div>
      {redriven !== null ? (
        <p role="status">
          {redriven === 0
            ? 'Nothing to redrive: every dead letter of this workflow was already redriven.'
            : `Redrove ${redriven} dead ${redriven === 1 ? 'letter' : 'letters'}; `}
          {redriven > 0 ? (
            <Link to="/messages" search={{ workflow: search.workflow, status: 'redriven' }}>
              see them as redriven
            </Link>
          ) : null}
        </p>
      ) : null}
      <form
        className="toolbar"
        aria-label="Filters"
        onSubmit={(e) => {
          e.preventDefault();
          void navigate({
            search: (old) => ({
              ...old,
              stream: stream || undefined,
              workflow: workflow || undefined,
              cursor: undefined,
            }),
          });
        }}
      >
        <div className="field">
          <label htmlFor="f-stream">Stream</label>
          <input id="f-stream" value={stream} onChange={(e) => setStream(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="f-workflow">Workflow</label>
          <input id="f-workflow" value={workflow} onChange={(e) => setWorkflow(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="f-status">Delivery status</label>
          <select
            id="f-status"
            value={search.status ?? ''}
            onChange={(e) =>
              void navigate({
                search: (old) => ({
                  ...old,
                  status: (e.target.value || undefined) as (typeof DELIVERY_STATUSES)[number] | undefined,
                  cursor: undefined,
                }),
              })
            }
          >
            <option value="">Any</option>
            {DELIVERY_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn btn-secondary">
          Apply filters
        </button>
      </form>
      <PagedTable
        caption="Messages"
        rowKey={(m) => m.id}
        page={messages.data}
        loading={messages.isPending}
        error={messages.error}
        cursor={search.cursor}
        onPage={(cursor) => void navigate({ search: (old) => ({ ...old, cursor }) })}
        empty="No message matches these filters."
        columns={[
          {
            header: 'Message',
            cell: (m) => (
              <Link to="/messages/$messageId" params={{ messageId: m.id }}>
                <code>{m.id}</code>
              </Link>
            ),
          },
          {
            header: 'Stream',
            cell: (m) => (
              <Link to="/streams/$streamId" params={{ streamId: m.stream }} search={{}}>
                {m.stream}
              </Link>
            ),
          },
          { header: 'Position', cell: (m) => `${m.partition}:${m.offset}` },
          { header: 'Value', cell: (m) => <code>{'value' in m ? preview(m.value, 80) : `binary (${m.size} B)`}</code> },
          { header: 'Published', cell: (m) => <Time value={m.published_at} /> },
          ...(search.status === 'redriven'
            ? [
                {
                  header: 'Replayed as',
                  cell: (m: Message) =>
                    m.replays?.length ? (
                      m.replays.map((id) => (
                        <Link key={id} to="/messages/$messageId" params={{ messageId: id }}>
                          <code>{id}</code>{' '}
                        </Link>
                      ))
                    ) : (
                      <span className="muted">—</span>
                    ),
                },
              ]
            : []),
        ]}
      />
    </div>
  );
}
