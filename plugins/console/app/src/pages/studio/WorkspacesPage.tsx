import '../pages.css';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { callOperation } from '../../api/call';
import { api, unwrapPage } from '../../api/client';
import type { components } from '../../api/schema';
import { ActionButton } from '../../kit/ActionButton';
import { ErrorBanner } from '../../kit/ErrorDisplay';
import { TextField } from '../../kit/Field';
import { bytes, Time } from '../../kit/format';
import { PagedTable } from '../../kit/PagedTable';
import { ShowAsCode } from '../../kit/ShowAsCode';
import { workspacesRoute } from './routes';

type Workspace = components['schemas']['studio.Workspace'];

/** A new workspace starts with a script that answers its input, and one test case of it. */
const STARTER = {
  'main.js':
    "// input.body is the JSON text of the run's input value.\nconst value = service.json.decode(input.body);\nresult = { received: value };\n",
  'tests/echo.json':
    '{\n  "input": { "value": { "a": 1 } },\n  "expect": { "result": { "received": { "a": 1 } } }\n}\n',
};

function CreateForm() {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const call = {
    op: 'createWorkspace' as const,
    body: { name, ...(description ? { description } : {}), files: STARTER },
  };
  const create = useMutation({
    mutationFn: () => callOperation<Workspace>(call),
    onSuccess: async (workspace) => {
      await queryClient.invalidateQueries({ queryKey: ['studio', 'workspaces'] });
      await navigate({
        to: '/studio/$workspaceId',
        params: { workspaceId: workspace.id },
        search: { file: 'main.js' },
      });
    },
  });
  return (
    <form
      className="card"
      aria-label="New workspace"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <h2>New workspace</h2>
      <TextField label="Name" pointer="/name" required value={name} onChange={setName} error={create.error} />
      <TextField
        label="Description"
        pointer="/description"
        value={description}
        onChange={setDescription}
        error={create.error}
      />
      <ErrorBanner error={create.error} title="The workspace was not created" />
      <div className="toolbar">
        <ActionButton op="createWorkspace" type="submit" variant="primary" busy={create.isPending}>
          Create workspace
        </ActionButton>
        <ShowAsCode call={call} />
      </div>
    </form>
  );
}

export function WorkspacesPage() {
  const search = workspacesRoute.useSearch();
  const navigate = useNavigate({ from: workspacesRoute.fullPath });
  const list = useQuery({
    queryKey: ['studio', 'workspaces', search],
    queryFn: () =>
      unwrapPage(api.GET('/studio/workspaces', { params: { query: { cursor: search.cursor, limit: 50 } } })),
  });
  return (
    <div className="page">
      <header className="page-header">
        <h1>Studio</h1>
      </header>
      <PagedTable<Workspace>
        caption="Workspaces"
        rowKey={(w) => w.id}
        page={list.data}
        loading={list.isPending}
        error={list.error}
        cursor={search.cursor}
        onPage={(cursor) => navigate({ search: { cursor } })}
        empty="No workspaces yet."
        columns={[
          {
            header: 'Workspace',
            cell: (w) => (
              <Link to="/studio/$workspaceId" params={{ workspaceId: w.id }}>
                {w.name}
              </Link>
            ),
          },
          { header: 'Description', cell: (w) => w.description || '—' },
          { header: 'Revision', cell: (w) => w.revision, numeric: true },
          { header: 'Files', cell: (w) => w.file_count, numeric: true },
          { header: 'Size', cell: (w) => bytes(w.bytes), numeric: true },
          { header: 'Updated', cell: (w) => <Time value={w.updated_at} /> },
        ]}
      />
      <CreateForm />
    </div>
  );
}
