import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
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
import { RolePicker } from './RolePicker';

type Token = components['schemas']['identity.ApiToken'];
type Minted = components['schemas']['identity.ApiTokenMinted'];

/** The secret of a token just minted: shown this once, to copy; the server keeps only its hash. */
function SecretOnce({ minted, onDismiss }: { minted: Minted; onDismiss: () => void }) {
  const id = useId();
  const [copied, setCopied] = useState(false);
  return (
    <section role="alert" className="card secret-once" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Token {minted.token.name} minted: copy its secret now</h2>
      <p>This is the only time the secret is shown. Store it where your script reads it; it cannot be read again.</p>
      <label htmlFor={id}>Secret</label>
      <input id={id} readOnly value={minted.secret} className="code" onFocus={(e) => e.currentTarget.select()} />
      <div className="toolbar">
        <button
          type="button"
          className="btn btn-secondary"
          onClick={() => navigator.clipboard?.writeText(minted.secret).then(() => setCopied(true))}
        >
          Copy secret
        </button>
        <button type="button" className="btn btn-primary" onClick={onDismiss}>
          I have stored it
        </button>
        <span role="status">{copied ? 'Copied.' : ''}</span>
      </div>
    </section>
  );
}

export function TokensView() {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [roles, setRoles] = useState<string[]>(['viewer']);
  const [days, setDays] = useState('90');
  const [readOnly, setReadOnly] = useState(false);
  const [minted, setMinted] = useState<Minted | null>(null);
  const readOnlyId = useId();
  const list = useQuery({
    queryKey: ['identity', 'tokens'],
    queryFn: () => unwrapPage(api.GET('/api-tokens', { params: { query: { limit: 200 } } })),
  });
  const body = {
    name,
    roles,
    ...(days ? { expires_in_days: Number(days) } : {}),
    ...(readOnly ? { read_only: true } : {}),
  };
  const mint = useMutation({
    mutationFn: () => callOperation<Minted>({ op: 'mintApiToken', body }),
    onSuccess: (answer) => {
      setMinted(answer);
      setName('');
      return queryClient.invalidateQueries({ queryKey: ['identity', 'tokens'] });
    },
  });
  return (
    <>
      {minted ? <SecretOnce minted={minted} onDismiss={() => setMinted(null)} /> : null}
      <PagedTable<Token>
        caption="API tokens"
        rowKey={(t) => t.id}
        page={list.data}
        loading={list.isPending}
        error={list.error}
        cursor={undefined}
        onPage={() => undefined}
        empty="No API tokens."
        columns={[
          { header: 'Name', cell: (t) => t.name },
          { header: 'Roles', cell: (t) => t.roles.join(', ') },
          { header: 'Read-only', cell: (t) => (t.read_only ? 'yes' : 'no') },
          { header: 'Expires', cell: (t) => <Time value={t.expires_at} /> },
          { header: 'Last used', cell: (t) => <Time value={t.last_used_at} /> },
          {
            header: 'State',
            cell: (t) =>
              t.revoked ? (
                'revoked'
              ) : (
                <ConfirmAction
                  call={{ op: 'revokeApiToken', params: { id: t.id } }}
                  label={`Revoke ${t.name}`}
                  variant="danger"
                  description="Scripts using this token are refused from now on; its open sockets close."
                  invalidate={[['identity', 'tokens']]}
                />
              ),
          },
        ]}
      />
      <form
        className="card"
        aria-label="Mint an API token"
        onSubmit={(e) => {
          e.preventDefault();
          mint.mutate();
        }}
      >
        <h2>Mint an API token</h2>
        <TextField label="Token name" pointer="/name" required value={name} onChange={setName} error={mint.error} />
        <RolePicker legend="Roles" value={roles} onChange={setRoles} pointer="/roles" error={mint.error} />
        <TextField
          label="Expires in (days)"
          pointer="/expires_in_days"
          type="number"
          value={days}
          onChange={setDays}
          error={mint.error}
        />
        <div className="field">
          <label htmlFor={readOnlyId}>
            <input id={readOnlyId} type="checkbox" checked={readOnly} onChange={(e) => setReadOnly(e.target.checked)} />{' '}
            Read-only (may call read-only operations only)
          </label>
        </div>
        <ErrorBanner error={mint.error} title="The token was not minted" />
        <div className="toolbar">
          <ActionButton op="mintApiToken" type="submit" variant="primary" busy={mint.isPending}>
            Mint token
          </ActionButton>
          <ShowAsCode call={{ op: 'mintApiToken', body }} />
        </div>
      </form>
    </>
  );
}
