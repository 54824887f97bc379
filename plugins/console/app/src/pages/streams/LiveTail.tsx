import { useEffect, useRef, useState } from 'react';
import { preview } from '../../kit/bytes';
import type { StreamMessage } from './types';

/** The tail keeps at most this many messages in memory; older ones fall off. */
export const TAIL_LIMIT = 500;

/**
 * The live tail: the stream's new messages over server-sent events (GET /streams/{id}/tail),
 * bounded in memory; pausing keeps the connection but stops adding rows (and counts what it skipped).
 */
export function LiveTail({ streamId, partition }: { streamId: string; partition: number | undefined }) {
  const [rows, setRows] = useState<StreamMessage[]>([]);
  const [paused, setPaused] = useState(false);
  const [skipped, setSkipped] = useState(0);
  const [state, setState] = useState<'connecting' | 'open' | 'retrying' | 'stopped'>('connecting');
  const pausedRef = useRef(paused);
  pausedRef.current = paused;

  useEffect(() => {
    const query = partition !== undefined ? `?partition=${partition}` : '';
    const source = new EventSource(`/streams/${encodeURIComponent(streamId)}/tail${query}`, { withCredentials: true });
    setState('connecting');
    source.onopen = () => setState('open');
    source.addEventListener('message', (event) => {
      let message: StreamMessage;
      try {
        message = JSON.parse((event as MessageEvent<string>).data) as StreamMessage;
      } catch {
        return;
      }
      if (pausedRef.current) {
        setSkipped((n) => n + 1);
        return;
      }
      setRows((old) => [message, ...old].slice(0, TAIL_LIMIT));
    });
    source.onerror = () => setState(source.readyState === EventSource.CLOSED ? 'stopped' : 'retrying');
    return () => source.close();
  }, [streamId, partition]);

  return (
    <section aria-label="Live tail">
      <div className="toolbar">
        <button
          type="button"
          className="btn btn-secondary"
          aria-pressed={paused}
          onClick={() => {
            setPaused(!paused);
            if (paused) setSkipped(0);
          }}
        >
          {paused ? 'Resume tail' : 'Pause tail'}
        </button>
        <button type="button" className="btn btn-secondary" onClick={() => setRows([])}>
          Clear
        </button>
        <span role="status" className="muted">
          {state === 'open'
            ? 'Live'
            : state === 'connecting'
              ? 'Connecting…'
              : state === 'retrying'
                ? 'Connection lost; retrying…'
                : 'Stopped'}
          {paused ? `, paused (${skipped} new not shown)` : ''}; showing the newest {rows.length} (at most {TAIL_LIMIT}
          ).
        </span>
      </div>
      <div className="table-scroll">
        <table>
          <caption className="visually-hidden">Messages arriving on the stream, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Partition:offset</th>
              <th scope="col">Key</th>
              <th scope="col">Value</th>
              <th scope="col">Published</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((m) => (
              <tr key={m.id}>
                <td>
                  {m.partition}:{m.offset}
                </td>
                <td>{m.key ?? '—'}</td>
                <td>
                  <code>{'value' in m ? preview(m.value) : `binary (${m.size} B)`}</code>
                </td>
                <td>{new Date(m.published_at).toLocaleTimeString()}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
