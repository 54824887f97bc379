import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { api, unwrapPage } from '../../api/client';
import { callOperation } from '../../api/call';
import { ActionButton } from '../../kit/ActionButton';
import { ErrorBanner } from '../../kit/ErrorDisplay';
import { Field, TextField } from '../../kit/Field';
import { PagedTable } from '../../kit/PagedTable';
import { ShowAsCode } from '../../kit/ShowAsCode';
import { Time } from '../../kit/format';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { streamsRoute } from './routes';

function retentionText(retention: { max_age_hours?: number; max_messages?: number }): string {
  const parts = [
    retention.max_age_hours ? `${retention.max_age_hours} h` : null,
    retention.max_messages ? `${retention.max_messages} messages` : null,
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : 'unbounded';
}

/** Creates a stream: name, partitions, retention and an optional codec. */
function CreateStream({ onCreated }: { onCreated: (id: string) => void }) {
  const [name, setName] = useState('');
  const [partitions, setPartitions] = useState('1');
  const [maxAge, setMaxAge] = useState('');
  const [maxMessages, setMaxMessages] = useState('');
  const [codec, setCodec] = useState('');
  const queryClient = useQueryClient();
  const retention = {
    ...(maxAge ? { max_age_hours: Number(maxAge) } : {}),
    ...(maxMessages ? { max_messages: Number(maxMessages) } : {}),
  };
  const body = {
    name,
    partitions: Number(partitions),
    ...(Object.keys(retention).length ? { retention } : {}),
    ...(codec ? { codec } : {}),
  };
  const create = useMutation({
    mutationFn: () => callOperation<{ id: string }>({ op: 'createStream', body }),
    onSuccess: async (stream) => {
      await queryClient.invalidateQueries({ queryKey: ['streams'] });
      onCreated(stream.id);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <form onSubmit={submit} aria-label="New stream" className="card">
      <h2>New stream</h2>
      <TextField label="Stream name" pointer="/name" error={create.error} value={name} onChange={setName} required />
      <Field label="Partitions" pointer="/partitions" error={create.error} hint="1 to 64.">
        {(input) => (
          <input
            {...input}
            type="number"
            min={1}
            max={64}
            value={partitions}
            onChange={(e) => setPartitions(e.target.value)}
          />
        )}
      </Field>
      <Field
        label="Keep for (hours)"
        pointer="/retention/max_age_hours"
        error={create.error}
        hint="Empty: no age limit."
      >
        {(input) => (
          <input {...input} type="number" min={1} value={maxAge} onChange={(e) => setMaxAge(e.target.value)} />
        )}
      </Field>
      <Field
        label="Keep at most (messages per partition)"
        pointer="/retention/max_messages"
        error={create.error}
        hint="Empty: no count limit."
      >
        {(input) => (
          <input
            {...input}
            type="number"
            min={1}
            value={maxMessages}
            onChange={(e) => setMaxMessages(e.target.value)}
          />
        )}
      </Field>
      <TextField
        label="Codec"
        pointer="/codec"
        error={create.error}
        value={codec}
        onChange={setCodec}
        hint="Id of a codec that decodes the values; empty for JSON or raw bytes."
      />
      <ErrorBanner error={create.error} />
      <ActionButton op="createStream" type="submit" variant="primary" busy={create.isPending}>
        Create stream
      </ActionButton>
      <ShowAsCode call={{ op: 'createStream', body }} />
    </form>
  );
}

export function StreamsPage() {
  const search = streamsRoute.useSearch();
  const navigate = streamsRoute.useNavigate();
  const [creating, setCreating] = useState(false);
  const streams = useQuery({
    queryKey: ['streams', search],
    queryFn: () => unwrapPage(api.GET('/streams', { params: { query: { ...search, limit: 50 } } })),
  });
  return (
    <div className="page">
      <div className="page-header">
        <h1>Streams</h1>
        <ActionButton op="createStream" variant="primary" onPress={() => setCreating(!creating)}>
          {creating ? 'Close the form' : 'New stream'}
        </ActionButton>
      </div>
      {creating ? (
        <CreateStream
          onCreated={(id) => void navigate({ to: '/streams/$streamId', params: { streamId: id }, search: {} })}
        />
      ) : null}
      <PagedTable
        caption="Streams"
        rowKey={(s) => s.id}
        page={streams.data}
        loading={streams.isPending}
        error={streams.error}
        cursor={search.cursor}
        onPage={(cursor) => void navigate({ search: (s) => ({ ...s, cursor }) })}
        empty="No streams yet."
        columns={[
          {
            header: 'Stream',
            cell: (s) => (
              <Link to="/streams/$streamId" params={{ streamId: s.id }}>
                {s.name}
              </Link>
            ),
          },
          { header: 'Id', cell: (s) => <code>{s.id}</code> },
          { header: 'Partitions', numeric: true, cell: (s) => s.partitions },
          { header: 'Retention', cell: (s) => retentionText(s.retention) },
          { header: 'Codec', cell: (s) => s.codec ?? <span className="muted">none</span> },
          { header: 'Updated', cell: (s) => <Time value={s.updated_at} /> },
        ]}
      />
    </div>
  );
}
