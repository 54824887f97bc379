import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { callOperation } from '../../api/call';
import { api, unwrapPage } from '../../api/client';
import type { components } from '../../api/schema';
import { ActionButton } from '../../kit/ActionButton';
import { ConfirmAction } from '../../kit/ConfirmAction';
import { ErrorBanner } from '../../kit/ErrorDisplay';
import { TextField } from '../../kit/Field';
import { PagedTable } from '../../kit/PagedTable';
import { ShowAsCode } from '../../kit/ShowAsCode';
import { RolePicker } from './RolePicker';

type Provider = components['schemas']['identity.IdentityProvider'];

/** Identity providers (issuer and audience): the list (enable, disable, delete) and the form that adds one. */
export function ProvidersView() {
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: ['identity', 'providers'],
    queryFn: () => unwrapPage(api.GET('/identity-providers', { params: { query: { limit: 200 } } })),
  });
  const [issuer, setIssuer] = useState('');
  const [audience, setAudience] = useState('');
  const [defaultRoles, setDefaultRoles] = useState<string[]>([]);
  const body = { issuer, audience, ...(defaultRoles.length ? { default_roles: defaultRoles } : {}) };
  const create = useMutation({
    mutationFn: () => callOperation({ op: 'createIdentityProvider', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['identity', 'providers'] }),
  });
  return (
    <>
      <PagedTable<Provider>
        caption="Identity providers"
        rowKey={(p) => p.id}
        page={list.data}
        loading={list.isPending}
        error={list.error}
        cursor={undefined}
        onPage={() => undefined}
        empty="No OpenID Connect providers: users sign in with a password."
        columns={[
          { header: 'Issuer', cell: (p) => <code>{p.issuer}</code> },
          { header: 'Audience', cell: (p) => p.audience },
          { header: 'Default roles', cell: (p) => p.default_roles.join(', ') || '—' },
          { header: 'Enabled', cell: (p) => (p.enabled ? 'yes' : 'no') },
          {
            header: 'Actions',
            cell: (p) => (
              <span className="toolbar">
                <ConfirmAction
                  call={{ op: 'patchIdentityProvider', params: { id: p.id }, body: { enabled: !p.enabled } }}
                  label={p.enabled ? 'Disable' : 'Enable'}
                  description={
                    p.enabled ? 'Tokens of this issuer are refused.' : 'Tokens of this issuer are accepted again.'
                  }
                  invalidate={[['identity', 'providers']]}
                />
                <ConfirmAction
                  call={{ op: 'deleteIdentityProvider', params: { id: p.id } }}
                  label="Delete"
                  variant="danger"
                  description="Tokens of this issuer are refused from now on."
                  invalidate={[['identity', 'providers']]}
                />
              </span>
            ),
          },
        ]}
      />
      <form
        className="card"
        aria-label="New identity provider"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <h2>New identity provider</h2>
        <TextField
          label="Issuer URL"
          pointer="/issuer"
          required
          type="url"
          value={issuer}
          onChange={setIssuer}
          error={create.error}
        />
        <TextField
          label="Audience"
          pointer="/audience"
          required
          value={audience}
          onChange={setAudience}
          error={create.error}
        />
        <RolePicker
          legend="Default roles"
          value={defaultRoles}
          onChange={setDefaultRoles}
          pointer="/default_roles"
          error={create.error}
        />
        <ErrorBanner error={create.error} title="The provider was not added" />
        <div className="toolbar">
          <ActionButton op="createIdentityProvider" type="submit" variant="primary" busy={create.isPending}>
            Add provider
          </ActionButton>
          <ShowAsCode call={{ op: 'createIdentityProvider', body }} />
        </div>
      </form>
    </>
  );
}
