import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { callOperation } from '../../api/call';
import { ActionButton } from '../../kit/ActionButton';
import { ErrorBanner } from '../../kit/ErrorDisplay';
import { TextField } from '../../kit/Field';
import { ShowAsCode } from '../../kit/ShowAsCode';
import { BpmnNav } from './BpmnNav';
import { JsonField, parseObject } from './JsonField';

/** Sends a message (to the instances waiting for it, by correlation key) or broadcasts a signal. */
function EventForm({ kind }: { kind: 'message' | 'signal' }) {
  const [name, setName] = useState('');
  const [correlationKey, setCorrelationKey] = useState('');
  const [variables, setVariables] = useState('{}');
  const parsed = parseObject(variables);
  const op = kind === 'message' ? ('correlateBpmnMessage' as const) : ('broadcastBpmnSignal' as const);
  const body = {
    name,
    variables: parsed.value ?? {},
    ...(kind === 'message' && correlationKey ? { correlation_key: correlationKey } : {}),
  };
  const send = useMutation({ mutationFn: () => callOperation<{ correlated?: number }>({ op, body }) });
  const title = kind === 'message' ? 'Send a message' : 'Broadcast a signal';
  return (
    <form
      className="card"
      aria-label={title}
      onSubmit={(e) => {
        e.preventDefault();
        if (parsed.value) send.mutate();
      }}
    >
      <h2>{title}</h2>
      <TextField
        label={kind === 'message' ? 'Message name' : 'Signal name'}
        pointer="/name"
        required
        error={send.error}
        value={name}
        onChange={setName}
      />
      {kind === 'message' ? (
        <TextField
          label="Correlation key"
          pointer="/correlation_key"
          error={send.error}
          value={correlationKey}
          onChange={setCorrelationKey}
          hint="Without one, every waiting instance gets the message."
        />
      ) : null}
      <JsonField
        label="Variables (JSON object)"
        pointer="/variables"
        error={send.error}
        value={variables}
        onChange={setVariables}
      />
      <ErrorBanner
        error={send.error}
        title={kind === 'message' ? 'The message was not delivered' : 'The signal was not sent'}
      />
      {send.data ? <p role="status">Reached {send.data.correlated ?? 0} instance(s).</p> : null}
      <div className="toolbar">
        <ActionButton op={op} type="submit" variant="primary" busy={send.isPending}>
          {kind === 'message' ? 'Send message' : 'Broadcast signal'}
        </ActionButton>
        <ShowAsCode call={{ op, body }} />
      </div>
    </form>
  );
}

export function EventsPage() {
  return (
    <div className="page">
      <header className="page-header">
        <h1>Messages and signals</h1>
      </header>
      <BpmnNav />
      <EventForm kind="message" />
      <EventForm kind="signal" />
    </div>
  );
}
