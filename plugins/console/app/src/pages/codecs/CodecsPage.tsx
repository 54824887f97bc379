import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { api, unwrap, unwrapPage } from '../../api/client';
import { callOperation } from '../../api/call';
import { ActionButton } from '../../kit/ActionButton';
import { ErrorBanner } from '../../kit/ErrorDisplay';
import { Field, TextField } from '../../kit/Field';
import { Time } from '../../kit/format';
import { PagedTable } from '../../kit/PagedTable';
import { ShowAsCode } from '../../kit/ShowAsCode';
import { codecsRoute } from './routes';

function parseSchema(text: string): { value?: unknown; bad: boolean } {
  if (text.trim() === '') return { bad: false };
  try {
    return { value: JSON.parse(text), bad: false };
  } catch {
    return { bad: true };
  }
}

function CreateCodec({ onCreated }: { onCreated: (id: string) => void }) {
  const kinds = useQuery({
    queryKey: ['codec-kinds'],
    queryFn: () => unwrap(api.GET('/codec-kinds')),
    staleTime: 5 * 60_000,
  });
  const [name, setName] = useState('');
  const [kind, setKind] = useState('json');
  const [schemaText, setSchemaText] = useState('');
  const queryClient = useQueryClient();
  const schema = parseSchema(schemaText);
  const body = { name, kind, ...(schema.value !== undefined ? { schema: schema.value } : {}) };
  const create = useMutation({
    mutationFn: () => callOperation<{ id: string }>({ op: 'createCodec', body }),
    onSuccess: async (codec) => {
      await queryClient.invalidateQueries({ queryKey: ['codecs'] });
      onCreated(codec.id);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!schema.bad) create.mutate();
  };
  return (
    <form onSubmit={submit} aria-label="New codec" className="card">
      <h2>New codec</h2>
      <TextField label="Codec name" pointer="/name" error={create.error} value={name} onChange={setName} required />
      <Field label="Kind" pointer="/kind" error={create.error} required>
        {(input) => (
          <select {...input} value={kind} onChange={(e) => setKind(e.target.value)}>
            {(kinds.data?.items ?? [{ kind: 'json' }]).map((k) => (
              <option key={k.kind}>{k.kind}</option>
            ))}
          </select>
        )}
      </Field>
      <Field
        label="Schema (JSON)"
        pointer="/schema"
        error={create.error}
        hint="Avro: the schema; protobuf: {proto, message}; csv: {delimiter, header, columns}; json: an optional JSON Schema."
      >
        {(input) => (
          <textarea
            {...input}
            rows={8}
            className="code"
            spellCheck={false}
            value={schemaText}
            onChange={(e) => setSchemaText(e.target.value)}
          />
        )}
      </Field>
      {schema.bad ? <p className="field-error">The schema is not valid JSON yet.</p> : null}
      <ErrorBanner error={create.error} />
      <ActionButton op="createCodec" type="submit" variant="primary" busy={create.isPending}>
        Create codec
      </ActionButton>
      <ShowAsCode call={{ op: 'createCodec', body }} />
    </form>
  );
}

export function CodecsPage() {
  const search = codecsRoute.useSearch();
  const navigate = codecsRoute.useNavigate();
  const [creating, setCreating] = useState(false);
  const list = useQuery({
    queryKey: ['codecs', search],
    queryFn: () => unwrapPage(api.GET('/codecs', { params: { query: { ...search, limit: 50 } } })),
  });
  return (
    <div className="page">
      <div className="page-header">
        <h1>Codecs</h1>
        <ActionButton op="createCodec" variant="primary" onPress={() => setCreating(!creating)}>
          {creating ? 'Close the form' : 'New codec'}
        </ActionButton>
      </div>
      {creating ? (
        <CreateCodec onCreated={(id) => void navigate({ to: '/codecs/$codecId', params: { codecId: id } })} />
      ) : null}
      <PagedTable
        caption="Codecs"
        rowKey={(c) => c.id}
        page={list.data}
        loading={list.isPending}
        error={list.error}
        cursor={search.cursor}
        onPage={(cursor) => void navigate({ search: (old) => ({ ...old, cursor }) })}
        empty="No codecs yet."
        columns={[
          {
            header: 'Codec',
            cell: (c) => (
              <Link to="/codecs/$codecId" params={{ codecId: c.id }}>
                {c.name}
              </Link>
            ),
          },
          { header: 'Kind', cell: (c) => c.kind },
          { header: 'Revision', numeric: true, cell: (c) => c.revision },
          { header: 'Updated', cell: (c) => <Time value={c.updated_at} /> },
        ]}
      />
    </div>
  );
}
