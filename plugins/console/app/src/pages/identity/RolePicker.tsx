import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { api, unwrapPage } from '../../api/client';
import { FieldErrors } from '../../kit/ErrorDisplay';

/** Checkboxes of the tenant's roles (built-in and custom), as a fieldset named by `legend`. */
export function RolePicker({
  legend,
  value,
  onChange,
  pointer,
  error,
}: {
  legend: string;
  value: string[];
  onChange: (roles: string[]) => void;
  pointer: string;
  error?: unknown;
}) {
  const id = useId();
  const roles = useQuery({
    queryKey: ['identity', 'roles'],
    queryFn: () => unwrapPage(api.GET('/roles', { params: { query: { limit: 200 } } })),
  });
  return (
    <fieldset className="field" aria-describedby={`${id}-error`}>
      <legend>{legend}</legend>
      {roles.data?.items.map((role) => (
        <label key={role.id} className="checkbox">
          <input
            type="checkbox"
            checked={value.includes(role.id)}
            onChange={(e) => onChange(e.target.checked ? [...value, role.id] : value.filter((r) => r !== role.id))}
          />{' '}
          {role.id}
        </label>
      ))}
      <FieldErrors error={error} pointer={pointer} id={`${id}-error`} />
    </fieldset>
  );
}
