import '../pages.css';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { callOperation } from '../../api/call';
import { api, unwrapPage } from '../../api/client';
import type { components } from '../../api/schema';
import { useMe } from '../../auth/session';
import { ActionButton } from '../../kit/ActionButton';
import { ConfirmAction } from '../../kit/ConfirmAction';
import { ErrorBanner } from '../../kit/ErrorDisplay';
import { TextField } from '../../kit/Field';
import { Time } from '../../kit/format';
import { PagedTable } from '../../kit/PagedTable';
import { ShowAsCode } from '../../kit/ShowAsCode';
import { IDENTITY_VIEWS, identityRoute } from './routes';
import { ProvidersView } from './ProvidersView';
import { RolesView } from './RolesView';
import { TokensView } from './TokensView';
import { UsersView } from './UsersView';

type Session = components['schemas']['identity.Session'];
type Tenant = components['schemas']['identity.Tenant'];

const LABELS: Record<(typeof IDENTITY_VIEWS)[number], string> = {
  users: 'Users',
  roles: 'Roles',
  tokens: 'API tokens',
  providers: 'Identity providers',
  sessions: 'Sessions',
  tenants: 'Tenants',
};

function SessionsView() {
  const list = useQuery({
    queryKey: ['identity', 'sessions'],
    queryFn: () => unwrapPage(api.GET('/auth/sessions', { params: { query: { limit: 200 } } })),
  });
  return (
    <>
      <PagedTable<Session>
        caption="Your sessions"
        rowKey={(s) => s.id}
        page={list.data}
        loading={list.isPending}
        error={list.error}
        cursor={undefined}
        onPage={() => undefined}
        columns={[
          { header: 'Session', cell: (s) => (s.current ? <strong>{s.id} (this browser)</strong> : s.id) },
          { header: 'Browser or client', cell: (s) => s.user_agent ?? '—' },
          { header: 'Signed in', cell: (s) => <Time value={s.created_at} /> },
          { header: 'Refreshed', cell: (s) => <Time value={s.refreshed_at} /> },
          { header: 'Expires', cell: (s) => <Time value={s.refresh_expires_at} /> },
        ]}
      />
      <div className="toolbar">
        <ConfirmAction
          call={{ op: 'logoutAll' }}
          label="Sign out everywhere"
          variant="danger"
          description="Every session of yours ends, this one included; you sign in again here."
          onDone={() => window.location.assign(`${import.meta.env.BASE_URL}sign-in`)}
        />
      </div>
    </>
  );
}

function TenantsView() {
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: ['identity', 'tenants'],
    queryFn: () => unwrapPage(api.GET('/tenants', { params: { query: { limit: 200 } } })),
  });
  const [id, setId] = useState('');
  const [name, setName] = useState('');
  const body = { name, ...(id ? { id } : {}) };
  const create = useMutation({
    mutationFn: () => callOperation({ op: 'createTenant', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['identity', 'tenants'] }),
  });
  return (
    <>
      <PagedTable<Tenant>
        caption="Tenants"
        rowKey={(t) => t.id}
        page={list.data}
        loading={list.isPending}
        error={list.error}
        cursor={undefined}
        onPage={() => undefined}
        columns={[
          { header: 'Tenant', cell: (t) => <code>{t.id}</code> },
          { header: 'Name', cell: (t) => t.name },
          { header: 'Created', cell: (t) => <Time value={t.created_at} /> },
        ]}
      />
      <form
        className="card"
        aria-label="New tenant"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <h2>New tenant</h2>
        <TextField label="Tenant name" pointer="/name" required value={name} onChange={setName} error={create.error} />
        <TextField
          label="Tenant id"
          pointer="/id"
          value={id}
          onChange={setId}
          error={create.error}
          hint="Optional; generated when empty."
        />
        <ErrorBanner error={create.error} title="The tenant was not created" />
        <div className="toolbar">
          <ActionButton op="createTenant" type="submit" variant="primary" busy={create.isPending}>
            Create tenant
          </ActionButton>
          <ShowAsCode call={{ op: 'createTenant', body }} />
        </div>
      </form>
    </>
  );
}

export function IdentityPage() {
  const { view = 'users' } = identityRoute.useSearch();
  const me = useMe();
  const views = IDENTITY_VIEWS.filter((v) => v !== 'tenants' || me?.account_admin);
  return (
    <div className="page">
      <header className="page-header">
        <h1>Identity and access</h1>
      </header>
      <nav className="tabs" aria-label="Identity views">
        {views.map((v) => (
          <Link key={v} to="." search={{ view: v }} aria-current={view === v ? 'page' : undefined}>
            {LABELS[v]}
          </Link>
        ))}
      </nav>
      {view === 'users' ? <UsersView /> : null}
      {view === 'roles' ? <RolesView /> : null}
      {view === 'tokens' ? <TokensView /> : null}
      {view === 'providers' ? <ProvidersView /> : null}
      {view === 'sessions' ? <SessionsView /> : null}
      {view === 'tenants' && me?.account_admin ? <TenantsView /> : null}
    </div>
  );
}
