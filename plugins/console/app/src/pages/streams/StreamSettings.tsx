import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { callOperation } from '../../api/call';
import { ActionButton } from '../../kit/ActionButton';
import { ConfirmAction } from '../../kit/ConfirmAction';
import { ErrorBanner } from '../../kit/ErrorDisplay';
import { Field, TextField } from '../../kit/Field';
import { ShowAsCode } from '../../kit/ShowAsCode';
import type { Stream } from './types';

/** Changes a stream's partitions (they only grow), retention and codec; deletes it. */
export function StreamSettings({ stream }: { stream: Stream }) {
  const [partitions, setPartitions] = useState(String(stream.partitions));
  const [maxAge, setMaxAge] = useState(stream.retention.max_age_hours ? String(stream.retention.max_age_hours) : '');
  const [maxMessages, setMaxMessages] = useState(
    stream.retention.max_messages ? String(stream.retention.max_messages) : '',
  );
  const [codec, setCodec] = useState(stream.codec ?? '');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const body = {
    partitions: Number(partitions),
    retention: {
      ...(maxAge ? { max_age_hours: Number(maxAge) } : {}),
      ...(maxMessages ? { max_messages: Number(maxMessages) } : {}),
    },
    codec: codec || null,
  };
  const save = useMutation({
    mutationFn: () => callOperation({ op: 'patchStream', params: { id: stream.id }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['streams'] }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <>
      <form onSubmit={submit} aria-label="Stream settings" className="card">
        <Field label="Partitions" pointer="/partitions" error={save.error} hint="Partitions can only grow.">
          {(input) => (
            <input
              {...input}
              type="number"
              min={stream.partitions}
              max={64}
              value={partitions}
              onChange={(e) => setPartitions(e.target.value)}
            />
          )}
        </Field>
        <Field label="Keep for (hours)" pointer="/retention/max_age_hours" error={save.error}>
          {(input) => (
            <input {...input} type="number" min={1} value={maxAge} onChange={(e) => setMaxAge(e.target.value)} />
          )}
        </Field>
        <Field label="Keep at most (messages per partition)" pointer="/retention/max_messages" error={save.error}>
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
          error={save.error}
          value={codec}
          onChange={setCodec}
          hint="Empty: none."
        />
        <ErrorBanner error={save.error} />
        {save.isSuccess ? <p role="status">Saved.</p> : null}
        <ActionButton op="patchStream" type="submit" variant="primary" busy={save.isPending}>
          Save settings
        </ActionButton>
        <ShowAsCode call={{ op: 'patchStream', params: { id: stream.id }, body }} />
      </form>
      <h2>Danger zone</h2>
      <ConfirmAction
        call={{ op: 'deleteStream', params: { id: stream.id } }}
        label="Delete stream"
        variant="danger"
        description={`Deletes the stream ${stream.name} and every message it holds.`}
        invalidate={[['streams']]}
        onDone={() => void navigate({ to: '/streams', search: {} })}
      />
    </>
  );
}
