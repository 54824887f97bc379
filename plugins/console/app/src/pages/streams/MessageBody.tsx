import { useQuery } from '@tanstack/react-query';
import { ApiError, toApiError } from '../../api/errors';
import { ErrorBanner } from '../../kit/ErrorDisplay';
import { fromBase64, hexDump } from '../../kit/bytes';

/** The stored bytes of a message (GET /messages/{id}/body answers them as they are). */
async function rawBody(id: string): Promise<Uint8Array> {
  const response = await fetch(`/messages/${encodeURIComponent(id)}/body`, { credentials: 'same-origin' }).catch(
    (err: Error) => {
      throw new ApiError(0, 'network_error', err.message);
    },
  );
  if (!response.ok) throw toApiError(response, await response.json().catch(() => undefined));
  return new Uint8Array(await response.arrayBuffer());
}

/** Decoded value and raw bytes side by side. */
export function MessageBody({
  message,
}: {
  message: {
    id: string;
    value?: unknown;
    body_base64?: string;
    content_type: string;
    key: string | null;
    headers: Record<string, string>;
  };
}) {
  const inline = message.body_base64 ? fromBase64(message.body_base64) : null;
  const raw = useQuery({
    queryKey: ['messages', message.id, 'body'],
    queryFn: () => rawBody(message.id),
    enabled: inline === null,
    staleTime: Infinity,
  });
  const bytes = inline ?? raw.data;
  return (
    <div className="code-pair">
      <figure>
        <figcaption>Decoded value ({message.content_type})</figcaption>
        <pre tabIndex={0}>
          {'value' in message && message.value !== undefined
            ? JSON.stringify(message.value, null, 2)
            : 'Not decoded: the stream has no codec that reads it.'}
        </pre>
        <p className="muted">
          Key: <code>{message.key ?? '—'}</code>; headers: <code>{JSON.stringify(message.headers)}</code>
        </p>
      </figure>
      <figure>
        <figcaption>Raw bytes{bytes ? ` (${bytes.length} B)` : ''}</figcaption>
        <ErrorBanner error={raw.error} />
        <pre tabIndex={0}>{bytes ? hexDump(bytes) : 'Loading…'}</pre>
      </figure>
    </div>
  );
}
