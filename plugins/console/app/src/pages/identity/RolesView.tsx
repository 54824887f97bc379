import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { callOperation } from '../../api/call';
import { api, unwrapPage } from '../../api/client';
import { operations } from '../../api/operations';
import type { components } from '../../api/schema';
import { ActionButton } from '../../kit/ActionButton';
import { ConfirmAction } from '../../kit/ConfirmAction';
import { ErrorBanner, FieldErrors } from '../../kit/ErrorDisplay';
import { TextField } from '../../kit/Field';
import { PagedTable } from '../../kit/PagedTable';
import { ShowAsCode } from '../../kit/ShowAsCode';

type Role = components['schemas']['identity.Role'];

/** Every permission an operation names: the choices of a custom role. */
const PERMISSIONS = [...new Set(Object.values(operations).map((o) => o.permission as string))]
  .filter((p) => p.includes(':'))
  .sort();

/** Roles with their permissions: the list (delete) and the form that makes one from the operations' permissions. */
export function RolesView() {
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: ['identity', 'roles'],
    queryFn: () => unwrapPage(api.GET('/roles', { params: { query: { limit: 200 } } })),
  });
  const [id, setId] = useState('');
  const [description, setDescription] = useState('');
  const [permissions, setPermissions] = useState<string[]>([]);
  const fieldsetId = useId();
  const body = { id, permissions, ...(description ? { description } : {}) };
  const create = useMutation({
    mutationFn: () => callOperation({ op: 'createRole', body }),
    onSuccess: () => {
      setId('');
      setPermissions([]);
      return queryClient.invalidateQueries({ queryKey: ['identity', 'roles'] });
    },
  });
  return (
    <>
      <PagedTable<Role>
        caption="Roles"
        rowKey={(r) => r.id}
        page={list.data}
        loading={list.isPending}
        error={list.error}
        cursor={undefined}
        onPage={() => undefined}
        columns={[
          { header: 'Role', cell: (r) => <strong>{r.id}</strong> },
          { header: 'Description', cell: (r) => r.description || '—' },
          {
            header: 'Permissions',
            cell: (r) => (
              <ul className="chips" aria-label={`Permissions of ${r.id}`}>
                {r.permissions.map((p) => (
                  <li key={p}>
                    <code>{p}</code>
                  </li>
                ))}
              </ul>
            ),
          },
          {
            header: 'Action',
            cell: (r) =>
              r.built_in ? (
                <span className="muted">built in</span>
              ) : (
                <ConfirmAction
                  call={{ op: 'deleteRole', params: { id: r.id } }}
                  label={`Delete role ${r.id}`}
                  variant="danger"
                  description="Users and tokens holding this role lose its permissions."
                  invalidate={[['identity']]}
                />
              ),
          },
        ]}
      />
      <form
        className="card"
        aria-label="New role"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <h2>New role</h2>
        <TextField label="Role name" pointer="/id" required value={id} onChange={setId} error={create.error} />
        <TextField
          label="Description"
          pointer="/description"
          value={description}
          onChange={setDescription}
          error={create.error}
        />
        <fieldset className="field" aria-describedby={`${fieldsetId}-error`}>
          <legend>Permissions</legend>
          {PERMISSIONS.map((p) => (
            <label key={p} className="checkbox">
              <input
                type="checkbox"
                checked={permissions.includes(p)}
                onChange={(e) =>
                  setPermissions(e.target.checked ? [...permissions, p] : permissions.filter((x) => x !== p))
                }
              />{' '}
              <code>{p}</code>
            </label>
          ))}
          <FieldErrors error={create.error} pointer="/permissions" id={`${fieldsetId}-error`} />
        </fieldset>
        <ErrorBanner error={create.error} title="The role was not created" />
        <div className="toolbar">
          <ActionButton op="createRole" type="submit" variant="primary" busy={create.isPending}>
            Create role
          </ActionButton>
          <ShowAsCode call={{ op: 'createRole', body }} />
        </div>
      </form>
    </>
  );
}
