import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useId, useState } from 'react';
import { api, unwrapPage } from '../../api/client';
import { ApiError, toApiError } from '../../api/errors';
import type { components } from '../../api/schema';
import { ActionButton } from '../../kit/ActionButton';
import { ErrorBanner, FieldErrors } from '../../kit/ErrorDisplay';
import { Time } from '../../kit/format';
import { PagedTable } from '../../kit/PagedTable';
import { BpmnNav } from './BpmnNav';
import { definitionsRoute } from './routes';

type Definition = components['schemas']['bpmn.Definition'];

/** Deploys BPMN XML as it is (the route takes the file's bytes, not JSON). */
async function deploy(xml: string): Promise<Definition> {
  const result = await api
    .POST('/bpmn/definitions', {
      body: xml as never,
      bodySerializer: (body: unknown) => body as string,
      headers: { 'content-type': 'application/octet-stream' },
    })
    .catch((err: Error) => {
      throw new ApiError(0, 'network_error', `The server could not be reached (${err.message}).`);
    });
  if (!result.response.ok) throw toApiError(result.response, result.error);
  return result.data as Definition;
}

function UploadForm() {
  const id = useId();
  const [file, setFile] = useState<File | null>(null);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const upload = useMutation({
    mutationFn: async () => deploy(await (file as File).text()),
    onSuccess: async (definition) => {
      await queryClient.invalidateQueries({ queryKey: ['bpmn', 'definitions'] });
      await navigate({ to: '/bpmn/definitions/$key', params: { key: definition.key } });
    },
  });
  return (
    <form
      className="card"
      aria-label="Deploy a definition"
      onSubmit={(e) => {
        e.preventDefault();
        if (file) upload.mutate();
      }}
    >
      <h2>Deploy a definition</h2>
      <div className="field">
        <label htmlFor={id}>BPMN 2.0 file</label>
        <input
          id={id}
          type="file"
          accept=".bpmn,.xml,application/xml,text/xml"
          aria-describedby={`${id}-error`}
          onChange={(e) => setFile(e.target.files?.[0] ?? null)}
        />
        <span className="hint">The same XML again answers the version it already is.</span>
        <FieldErrors error={upload.error} pointer="" id={`${id}-error`} />
      </div>
      <ErrorBanner error={upload.error} title="The definition was not deployed" />
      <ActionButton op="deployBpmnDefinition" type="submit" variant="primary" busy={upload.isPending}>
        Deploy
      </ActionButton>
    </form>
  );
}

export function DefinitionsPage() {
  const search = definitionsRoute.useSearch();
  const navigate = useNavigate({ from: definitionsRoute.fullPath });
  const list = useQuery({
    queryKey: ['bpmn', 'definitions', search],
    queryFn: () =>
      unwrapPage(
        api.GET('/bpmn/definitions', { params: { query: { process_id: search.process_id, cursor: search.cursor } } }),
      ),
  });
  return (
    <div className="page">
      <header className="page-header">
        <h1>BPMN definitions</h1>
      </header>
      <BpmnNav />
      <UploadForm />
      <PagedTable<Definition>
        caption="Definitions"
        rowKey={(d) => d.key}
        page={list.data}
        loading={list.isPending}
        error={list.error}
        cursor={search.cursor}
        onPage={(cursor) => navigate({ search: (s) => ({ ...s, cursor }) })}
        empty="No definitions yet: deploy a BPMN file."
        columns={[
          {
            header: 'Process',
            cell: (d) => (
              <Link to="/bpmn/definitions/$key" params={{ key: d.key }}>
                {d.name ?? d.process_id}
              </Link>
            ),
          },
          { header: 'Process id', cell: (d) => <code>{d.process_id}</code> },
          { header: 'Version', cell: (d) => d.version, numeric: true },
          { header: 'Deployed', cell: (d) => <Time value={d.created_at} /> },
        ]}
      />
    </div>
  );
}
