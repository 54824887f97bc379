import { useMutation, useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { callOperation } from '../../api/call';
import { api, unwrap } from '../../api/client';
import type { components } from '../../api/schema';
import { ActionButton } from '../../kit/ActionButton';
import { ErrorBanner } from '../../kit/ErrorDisplay';
import { TextField } from '../../kit/Field';
import { Time } from '../../kit/format';
import { HistoryTab } from '../../kit/HistoryTab';
import { ShowAsCode } from '../../kit/ShowAsCode';
import { BpmnNav } from './BpmnNav';
import { Diagram } from './Diagram';
import { JsonField, parseObject } from './JsonField';
import { definitionRoute } from './routes';
import { definitionXml } from './xml';

type Instance = components['schemas']['bpmn.Instance'];

function StartForm({ definitionKey }: { definitionKey: string }) {
  const [businessKey, setBusinessKey] = useState('');
  const [variables, setVariables] = useState('{}');
  const navigate = useNavigate();
  const parsed = parseObject(variables);
  const call = {
    op: 'startBpmnInstance' as const,
    body: { key: definitionKey, variables: parsed.value ?? {}, ...(businessKey ? { business_key: businessKey } : {}) },
  };
  const start = useMutation({
    mutationFn: () => callOperation<Instance>(call),
    onSuccess: (instance) => navigate({ to: '/bpmn/instances/$id', params: { id: instance.id } }),
  });
  return (
    <form
      className="card"
      aria-label="Start an instance"
      onSubmit={(e) => {
        e.preventDefault();
        if (parsed.value) start.mutate();
      }}
    >
      <h2>Start an instance</h2>
      <TextField
        label="Business key"
        pointer="/business_key"
        error={start.error}
        value={businessKey}
        onChange={setBusinessKey}
        hint="Optional; messages correlate by it by default."
      />
      <JsonField
        label="Variables (JSON object)"
        pointer="/variables"
        error={start.error}
        value={variables}
        onChange={setVariables}
      />
      <ErrorBanner error={start.error} title="The instance was not started" />
      <div className="toolbar">
        <ActionButton op="startBpmnInstance" type="submit" variant="primary" busy={start.isPending}>
          Start instance
        </ActionButton>
        <ShowAsCode call={call} />
      </div>
    </form>
  );
}

export function DefinitionPage() {
  const { key } = definitionRoute.useParams();
  const definition = useQuery({
    queryKey: ['bpmn', 'definition', key],
    queryFn: () => unwrap(api.GET('/bpmn/definitions/{key}', { params: { path: { key } } })),
  });
  const xml = useQuery({
    queryKey: ['bpmn', 'definition', key, 'xml'],
    queryFn: () => definitionXml(key),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const d = definition.data;
  return (
    <div className="page">
      <header className="page-header">
        <h1>
          Definition {d ? <code>{d.process_id}</code> : null} {d ? `version ${d.version}` : null}
        </h1>
      </header>
      <BpmnNav />
      <ErrorBanner error={definition.error ?? xml.error} />
      {d ? (
        <dl className="kv">
          <dt>Key</dt>
          <dd>
            <code>{d.key}</code>
          </dd>
          <dt>Name</dt>
          <dd>{d.name ?? '—'}</dd>
          <dt>Deployed</dt>
          <dd>
            <Time value={d.created_at} />
          </dd>
          <dt>Instances</dt>
          <dd>
            <Link to="/bpmn/instances" search={{ process_id: d.process_id }}>
              Instances of {d.process_id}
            </Link>
          </dd>
        </dl>
      ) : null}
      <Diagram xml={xml.data} label={`Diagram of ${d?.process_id ?? key}`} />
      <StartForm definitionKey={key} />
      <h2>History</h2>
      <HistoryTab resource={key} />
    </div>
  );
}
