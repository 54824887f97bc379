import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { callOperation } from '../../api/call';
import { api, unwrapPage } from '../../api/client';
import type { components } from '../../api/schema';
import { ActionButton } from '../../kit/ActionButton';
import { ConfirmAction } from '../../kit/ConfirmAction';
import { ErrorBanner } from '../../kit/ErrorDisplay';
import { TextField } from '../../kit/Field';
import { Time } from '../../kit/format';
import { PagedTable } from '../../kit/PagedTable';
import { ShowAsCode } from '../../kit/ShowAsCode';

type Silence = components['schemas']['alerts.Silence'];

/** Silences: the list, and the form that mutes matching alerts for a while. */
function SilenceForm() {
  const [name, setName] = useState('rule_id');
  const [value, setValue] = useState('');
  const [hours, setHours] = useState('2');
  const [comment, setComment] = useState('');
  const queryClient = useQueryClient();
  const endsAt = new Date(Date.now() + Number(hours || '0') * 3_600_000).toISOString();
  const body = { matchers: [{ name, value }], ends_at: endsAt, ...(comment ? { comment } : {}) };
  const create = useMutation({
    mutationFn: () => callOperation({ op: 'createSilence', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['alerts'] }),
  });
  return (
    <form
      className="card"
      aria-label="New silence"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <h2>New silence</h2>
      <p className="hint">Alerts whose labels match are not notified until the silence ends.</p>
      <TextField
        label="Label name"
        pointer="/matchers/0/name"
        required
        value={name}
        onChange={setName}
        error={create.error}
      />
      <TextField
        label="Label value"
        pointer="/matchers/0/value"
        required
        value={value}
        onChange={setValue}
        error={create.error}
      />
      <TextField
        label="Duration (hours)"
        pointer="/ends_at"
        type="number"
        value={hours}
        onChange={setHours}
        error={create.error}
      />
      <TextField label="Comment" pointer="/comment" value={comment} onChange={setComment} error={create.error} />
      <ErrorBanner error={create.error} title="The silence was not created" />
      <div className="toolbar">
        <ActionButton op="createSilence" type="submit" variant="primary" busy={create.isPending}>
          Create silence
        </ActionButton>
        <ShowAsCode call={{ op: 'createSilence', body }} />
      </div>
    </form>
  );
}

export function SilencesView() {
  const list = useQuery({
    queryKey: ['alerts', 'silences'],
    queryFn: () => unwrapPage(api.GET('/alerts/silences', { params: { query: { limit: 100 } } })),
  });
  return (
    <>
      <PagedTable<Silence>
        caption="Silences"
        rowKey={(s) => s.id}
        page={list.data}
        loading={list.isPending}
        error={list.error}
        cursor={undefined}
        onPage={() => undefined}
        empty="No silences."
        columns={[
          {
            header: 'Matchers',
            cell: (s) =>
              (s.matchers as Array<{ name: string; value: string }>).map((m) => `${m.name}=${m.value}`).join(', '),
          },
          { header: 'From', cell: (s) => <Time value={s.starts_at} /> },
          { header: 'Until', cell: (s) => <Time value={s.ends_at} /> },
          { header: 'Comment', cell: (s) => s.comment || '—' },
          { header: 'By', cell: (s) => s.created_by ?? '—' },
          {
            header: 'Action',
            cell: (s) =>
              new Date(s.ends_at) > new Date() ? (
                <ConfirmAction
                  call={{ op: 'expireSilence', params: { id: s.id } }}
                  label="Expire"
                  variant="danger"
                  description="The silence ends now; matching alerts are notified again."
                  invalidate={[['alerts']]}
                />
              ) : (
                'ended'
              ),
          },
        ]}
      />
      <SilenceForm />
    </>
  );
}
