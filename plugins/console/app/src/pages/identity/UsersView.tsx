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
import { RolePicker } from './RolePicker';

type User = components['schemas']['identity.User'];

/** The tenant's users: the list (enable, disable, delete) and the form that adds one. */
export function UsersView() {
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: ['identity', 'users'],
    queryFn: () => unwrapPage(api.GET('/users', { params: { query: { limit: 200 } } })),
  });
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [roles, setRoles] = useState<string[]>(['viewer']);
  const body = { username, password, roles };
  const create = useMutation({
    mutationFn: () => callOperation({ op: 'createUser', body }),
    onSuccess: () => {
      setUsername('');
      setPassword('');
      return queryClient.invalidateQueries({ queryKey: ['identity', 'users'] });
    },
  });
  return (
    <>
      <PagedTable<User>
        caption="Users"
        rowKey={(u) => u.id}
        page={list.data}
        loading={list.isPending}
        error={list.error}
        cursor={undefined}
        onPage={() => undefined}
        columns={[
          { header: 'User', cell: (u) => u.display_name ?? u.username },
          { header: 'Username', cell: (u) => <code>{u.username}</code> },
          { header: 'Roles', cell: (u) => u.roles.join(', ') },
          { header: 'State', cell: (u) => (u.disabled ? 'disabled' : u.locked_until ? 'locked' : 'active') },
          { header: 'Last sign-in', cell: (u) => <Time value={u.last_login_at} /> },
          {
            header: 'Actions',
            cell: (u) => (
              <span className="toolbar">
                <ConfirmAction
                  call={{ op: 'patchUser', params: { id: u.id }, body: { disabled: !u.disabled } }}
                  label={u.disabled ? `Enable ${u.username}` : `Disable ${u.username}`}
                  description={
                    u.disabled
                      ? 'The user can sign in again.'
                      : 'The user cannot sign in; their sessions and sockets end.'
                  }
                  invalidate={[['identity', 'users']]}
                />
                <ConfirmAction
                  call={{ op: 'deleteUser', params: { id: u.id } }}
                  label={`Delete ${u.username}`}
                  variant="danger"
                  description="The user and their sessions are deleted."
                  invalidate={[['identity', 'users']]}
                />
              </span>
            ),
          },
        ]}
      />
      <form
        className="card"
        aria-label="New user"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <h2>New user</h2>
        <TextField
          label="Username"
          pointer="/username"
          required
          value={username}
          onChange={setUsername}
          error={create.error}
          autoComplete="off"
        />
        <TextField
          label="Password"
          pointer="/password"
          type="password"
          required
          value={password}
          onChange={setPassword}
          error={create.error}
          autoComplete="new-password"
        />
        <RolePicker legend="Roles" value={roles} onChange={setRoles} pointer="/roles" error={create.error} />
        <ErrorBanner error={create.error} title="The user was not created" />
        <div className="toolbar">
          <ActionButton op="createUser" type="submit" variant="primary" busy={create.isPending}>
            Create user
          </ActionButton>
          <ShowAsCode call={{ op: 'createUser', body: { ...body, password: '…' } }} />
        </div>
      </form>
    </>
  );
}
