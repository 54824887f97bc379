import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState } from 'react';
import { api, unwrapPage } from '../../api/client';
import { ErrorBanner } from '../../kit/ErrorDisplay';
import { fromBase64, hexPreview, preview } from '../../kit/bytes';
import { MessageBody } from './MessageBody';
import type { StreamMessage } from './types';

const PAGE = 1000;
const ROW_HEIGHT = 28;

interface Props {
  streamId: string;
  partition: number | undefined;
  fromOffset: number | undefined;
}

/**
 * The message browser: a stream's messages by partition and offset, read page by page as the
 * user scrolls, rendered virtually (only the rows in view exist in the document, so 10,000 or
 * 10 million messages scroll alike). Each row shows the decoded value and the raw bytes.
 */
export function MessageBrowser({ streamId, partition, fromOffset }: Props) {
  const messages = useInfiniteQuery({
    queryKey: ['streams', streamId, 'messages', partition, fromOffset],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      unwrapPage(
        api.GET('/streams/{id}/messages', {
          params: {
            path: { id: streamId },
            query: {
              limit: PAGE,
              ...(partition !== undefined ? { partition } : {}),
              ...(fromOffset !== undefined ? { from_offset: fromOffset } : {}),
              ...(pageParam ? { cursor: pageParam } : {}),
            },
          },
        }),
      ),
    getNextPageParam: (last) => last.next,
  });
  const rows: StreamMessage[] = messages.data?.pages.flatMap((p) => p.items as StreamMessage[]) ?? [];
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
  });
  const items = virtualizer.getVirtualItems();
  const last = items.at(-1);
  const [selected, setSelected] = useState<StreamMessage | null>(null);

  useEffect(() => {
    if (last && last.index >= rows.length - 50 && messages.hasNextPage && !messages.isFetchingNextPage)
      void messages.fetchNextPage();
  }, [last, rows.length, messages]);

  return (
    <section aria-label="Messages">
      <ErrorBanner error={messages.error} />
      <p className="muted" role="status">
        {messages.isPending ? 'Loading messages…' : `${rows.length}${messages.hasNextPage ? '+' : ''} messages loaded`}
      </p>
      <div
        className="message-grid"
        ref={scroller}
        role="table"
        aria-label="Stream messages"
        aria-rowcount={rows.length + 1}
        tabIndex={0}
      >
        <div
          className="message-row message-head"
          role="row"
          aria-rowindex={1}
          style={{ position: 'sticky', height: ROW_HEIGHT }}
        >
          <span role="columnheader">Partition</span>
          <span role="columnheader">Offset</span>
          <span role="columnheader">Decoded value</span>
          <span role="columnheader">Raw bytes</span>
        </div>
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {items.map((item) => {
            const m = rows[item.index] as StreamMessage;
            return (
              <div
                key={m.id}
                className="message-row"
                role="row"
                aria-rowindex={item.index + 2}
                style={{ top: item.start, height: ROW_HEIGHT }}
              >
                <span role="cell">{m.partition}</span>
                <span role="cell">
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => setSelected(m)}
                    aria-label={`Show message at offset ${m.offset} of partition ${m.partition}`}
                  >
                    {m.offset}
                  </button>
                </span>
                <span role="cell">
                  {'value' in m ? preview(m.value) : <span className="muted">binary ({m.size} B)</span>}
                </span>
                <span role="cell">
                  {m.body_base64 ? (
                    hexPreview(fromBase64(m.body_base64))
                  ) : (
                    <span className="muted">{m.content_type}</span>
                  )}
                </span>
              </div>
            );
          })}
        </div>
      </div>
      {selected ? (
        <section aria-label="Selected message" className="card">
          <h2>
            Message {selected.partition}:{selected.offset}{' '}
            <Link to="/messages/$messageId" params={{ messageId: selected.id }}>
              Open message detail
            </Link>
          </h2>
          <MessageBody message={selected} />
        </section>
      ) : null}
    </section>
  );
}
