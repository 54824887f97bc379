import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { callOperation } from '../../api/call';
import { ActionButton } from '../../kit/ActionButton';
import { ErrorBanner } from '../../kit/ErrorDisplay';
import { Field, TextField } from '../../kit/Field';
import { ShowAsCode } from '../../kit/ShowAsCode';

/** Publishes one message: a JSON value (encoded by the stream's codec) with an optional key. */
export function PublishForm({ streamId }: { streamId: string }) {
  const [key, setKey] = useState('');
  const [value, setValue] = useState('{\n  "hello": "world"\n}');
  const [parseError, setParseError] = useState<string | null>(null);
  const queryClient = useQueryClient();
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    parsed = undefined;
  }
  const body = { messages: [{ ...(key ? { key } : {}), value: parsed }] };
  const publish = useMutation({
    mutationFn: () =>
      callOperation<{ items?: Array<{ partition: number; offset: number }> }>({
        op: 'publishMessages',
        params: { id: streamId },
        body,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['streams', streamId] }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (parsed === undefined) {
      setParseError('The value is not valid JSON.');
      return;
    }
    setParseError(null);
    publish.mutate();
  };
  return (
    <form onSubmit={submit} aria-label="Publish a message" className="card">
      <TextField
        label="Key"
        pointer="/messages/0/key"
        error={publish.error}
        value={key}
        onChange={setKey}
        hint="Optional; messages with one key keep their order in one partition."
      />
      <Field label="Value (JSON)" pointer="/messages/0/value" error={publish.error} required>
        {(input) => (
          <textarea
            {...input}
            rows={6}
            className="code"
            spellCheck={false}
            value={value}
            onChange={(e) => setValue(e.target.value)}
          />
        )}
      </Field>
      {parseError ? (
        <p className="field-error" role="alert">
          {parseError}
        </p>
      ) : null}
      <ErrorBanner error={publish.error} />
      {publish.isSuccess ? <p role="status">Published.</p> : null}
      <ActionButton op="publishMessages" type="submit" variant="primary" busy={publish.isPending}>
        Publish
      </ActionButton>
      <ShowAsCode call={{ op: 'publishMessages', params: { id: streamId }, body }} />
    </form>
  );
}
