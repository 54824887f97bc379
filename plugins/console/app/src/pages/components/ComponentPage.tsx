import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useState, type FormEvent } from 'react';
import { api, unwrap } from '../../api/client';
import { callOperation } from '../../api/call';
import { ActionButton } from '../../kit/ActionButton';
import { ConfirmAction } from '../../kit/ConfirmAction';
import { ErrorBanner } from '../../kit/ErrorDisplay';
import { StateBadge, Time } from '../../kit/format';
import { HistoryTab } from '../../kit/HistoryTab';
import { JsonSchemaForm } from '../../kit/JsonSchemaForm';
import { ShowAsCode } from '../../kit/ShowAsCode';
import { componentRoute } from './routes';
import { schemaOf, useComponentTypes, type Component } from './types';

function ConfigEditor({ component }: { component: Component }) {
  const types = useComponentTypes();
  const type = types.data?.items.find((t) => t.name === component.type);
  const [config, setConfig] = useState<Record<string, unknown>>(component.config);
  const queryClient = useQueryClient();
  const body = { config };
  const save = useMutation({
    mutationFn: () => callOperation({ op: 'patchComponent', params: { id: component.id }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['components'] }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={submit} aria-label="Settings" className="card">
      <JsonSchemaForm
        schema={schemaOf(type)}
        value={config}
        onChange={setConfig}
        pointer="/config"
        error={save.error}
        secretsSet={component.secrets_set}
      />
      <ErrorBanner error={save.error} />
      {save.isSuccess ? <p role="status">Saved.</p> : null}
      <ActionButton op="patchComponent" type="submit" variant="primary" busy={save.isPending}>
        Save settings
      </ActionButton>
      <ShowAsCode call={{ op: 'patchComponent', params: { id: component.id }, body }} />
    </form>
  );
}

/** One component: state and last error (refreshing while it settles), start/stop/restart, settings, history. */
export function ComponentPage() {
  const { componentId } = componentRoute.useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [settling, setSettling] = useState(false);
  const component = useQuery({
    queryKey: ['components', componentId],
    queryFn: () => unwrap(api.GET('/components/{id}', { params: { path: { id: componentId } } })),
    refetchInterval: settling ? 1_000 : 15_000,
  });
  const c = component.data;
  useEffect(() => {
    if (c && c.state === c.desired_state) setSettling(false);
  }, [c]);
  const start = useMutation({
    mutationFn: () => callOperation({ op: 'startComponent', params: { id: componentId }, body: {} }),
    onSuccess: async () => {
      setSettling(true);
      await queryClient.invalidateQueries({ queryKey: ['components'] });
    },
  });
  return (
    <div className="page">
      <p>
        <Link to="/components" search={{}}>
          Components
        </Link>{' '}
        /
      </p>
      <div className="page-header">
        <h1>{c?.name ?? componentId}</h1>
        {c ? (
          <div className="toolbar">
            <ActionButton op="startComponent" variant="primary" busy={start.isPending} onPress={() => start.mutate()}>
              Start
            </ActionButton>
            <ConfirmAction
              call={{ op: 'stopComponent', params: { id: componentId }, body: {} }}
              label="Stop"
              description={`Stops ${c.name}.`}
              invalidate={[['components']]}
              onDone={() => setSettling(true)}
            />
            <ConfirmAction
              call={{ op: 'restartComponent', params: { id: componentId }, body: {} }}
              label="Restart"
              description={`Stops and starts ${c.name}.`}
              invalidate={[['components']]}
              onDone={() => setSettling(true)}
            />
            <ConfirmAction
              call={{ op: 'deleteComponent', params: { id: componentId } }}
              label="Delete component"
              variant="danger"
              description={`Deletes ${c.name}.`}
              invalidate={[['components']]}
              onDone={() => void navigate({ to: '/components', search: {} })}
            />
          </div>
        ) : null}
      </div>
      <ErrorBanner error={component.error ?? start.error} />
      {c ? (
        <>
          <dl className="facts">
            <dt id="component-state">State</dt>
            <dd>
              {/* A live region: the state changes while the component settles, without a reload. */}
              <span role="status" aria-labelledby="component-state">
                <StateBadge state={c.state} /> (asked: {c.desired_state}) since <Time value={c.status.since} />
              </span>
            </dd>
            <dt id="component-last-error">Last error</dt>
            <dd>
              <span role="status" aria-labelledby="component-last-error">
                {c.status.last_error ?? 'none'}
              </span>
            </dd>
            <dt>Type</dt>
            <dd>
              <code>{c.type}</code>
            </dd>
            <dt>Stream</dt>
            <dd>
              {c.stream ? (
                <Link to="/streams/$streamId" params={{ streamId: c.stream }} search={{}}>
                  {c.stream}
                </Link>
              ) : (
                '—'
              )}
            </dd>
            <dt>Revision</dt>
            <dd>{c.revision}</dd>
          </dl>
          <ShowAsCode call={{ op: 'startComponent', params: { id: componentId }, body: {} }} />
          <h2>Settings</h2>
          <ConfigEditor key={c.revision} component={c} />
          <h2>History</h2>
          <HistoryTab resource={c.id} />
        </>
      ) : null}
    </div>
  );
}
