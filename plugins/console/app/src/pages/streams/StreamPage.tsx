import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { ErrorBanner } from '../../kit/ErrorDisplay';
import { HistoryTab } from '../../kit/HistoryTab';
import { RouteTabs } from '../../kit/RouteTabs';
import { LiveTail } from './LiveTail';
import { MessageBrowser } from './MessageBrowser';
import { PublishForm } from './PublishForm';
import { StreamSettings } from './StreamSettings';
import { streamRoute, type StreamTab } from './routes';

function Consumers({ streamId }: { streamId: string }) {
  const consumers = useQuery({
    queryKey: ['streams', streamId, 'consumers'],
    queryFn: () => unwrap(api.GET('/streams/{id}/consumers', { params: { path: { id: streamId } } })),
  });
  return (
    <>
      <ErrorBanner error={consumers.error} />
      <table>
        <caption className="visually-hidden">Consumers and their positions</caption>
        <thead>
          <tr>
            <th scope="col">Consumer</th>
            <th scope="col" className="num">
              Partition
            </th>
            <th scope="col" className="num">
              Committed offset
            </th>
            <th scope="col" className="num">
              Lag
            </th>
          </tr>
        </thead>
        <tbody>
          {consumers.data?.items.map((c) => (
            <tr key={`${c.consumer}:${c.partition}`}>
              <td>{c.consumer}</td>
              <td className="num">{c.partition}</td>
              <td className="num">{c.committed_offset}</td>
              <td className="num">{c.lag}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {consumers.data?.items.length === 0 ? <p className="muted">No consumer has read this stream yet.</p> : null}
    </>
  );
}

/** One stream: its settings, a message browser by partition and offset, a live tail, publishing. */
export function StreamPage() {
  const { streamId } = streamRoute.useParams();
  const search = streamRoute.useSearch();
  const navigate = streamRoute.useNavigate();
  const tab: StreamTab = search.tab ?? 'messages';
  const stream = useQuery({
    queryKey: ['streams', streamId],
    queryFn: () => unwrap(api.GET('/streams/{id}', { params: { path: { id: streamId } } })),
  });
  const [offsetText, setOffsetText] = useState(search.from_offset !== undefined ? String(search.from_offset) : '');
  const s = stream.data;
  return (
    <div className="page">
      <p>
        <Link to="/streams" search={{}}>
          Streams
        </Link>{' '}
        /
      </p>
      <div className="page-header">
        <h1>{s?.name ?? streamId}</h1>
        {s ? (
          <p className="muted">
            <code>{s.id}</code> · {s.partitions} partition{s.partitions === 1 ? '' : 's'} · codec {s.codec ?? 'none'} ·
            retention {s.retention.max_age_hours ? `${s.retention.max_age_hours} h` : 'no age limit'},{' '}
            {s.retention.max_messages ? `${s.retention.max_messages} messages` : 'no count limit'}
          </p>
        ) : null}
      </div>
      <ErrorBanner error={stream.error} />
      {s ? (
        <form
          className="toolbar"
          aria-label="Position"
          onSubmit={(e) => {
            e.preventDefault();
            const n = offsetText === '' ? undefined : Number(offsetText);
            void navigate({ search: (old) => ({ ...old, from_offset: Number.isInteger(n) ? n : undefined }) });
          }}
        >
          <div className="field">
            <label htmlFor="partition">Partition</label>
            <select
              id="partition"
              value={search.partition ?? ''}
              onChange={(e) =>
                void navigate({
                  search: (old) => ({ ...old, partition: e.target.value === '' ? undefined : Number(e.target.value) }),
                })
              }
            >
              <option value="">All partitions</option>
              {Array.from({ length: s.partitions }, (_, i) => i).map((partition) => (
                <option key={partition} value={partition}>
                  Partition {partition}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="from-offset">From offset</label>
            <input
              id="from-offset"
              type="number"
              min={0}
              value={offsetText}
              onChange={(e) => setOffsetText(e.target.value)}
            />
          </div>
          <button type="submit" className="btn btn-secondary">
            Go to offset
          </button>
        </form>
      ) : null}
      <RouteTabs<StreamTab>
        label="Stream views"
        selected={tab}
        onSelect={(next) => void navigate({ search: (old) => ({ ...old, tab: next }) })}
        tabs={[
          {
            id: 'messages',
            title: 'Messages',
            content: () => (
              <MessageBrowser streamId={streamId} partition={search.partition} fromOffset={search.from_offset} />
            ),
          },
          {
            id: 'tail',
            title: 'Live tail',
            content: () => <LiveTail streamId={streamId} partition={search.partition} />,
          },
          { id: 'publish', title: 'Publish', content: () => <PublishForm streamId={streamId} /> },
          { id: 'consumers', title: 'Consumers', content: () => <Consumers streamId={streamId} /> },
          { id: 'settings', title: 'Settings', content: () => (s ? <StreamSettings stream={s} /> : null) },
          { id: 'history', title: 'History', content: () => <HistoryTab resource={streamId} /> },
        ]}
      />
    </div>
  );
}
