import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api, unwrapPage } from '../api/client';
import { actingTenant, setActingTenant } from '../auth/tenant';
import type { Me } from '../auth/browser-api';

/** For account admins: the tenant the console acts in (every call then names it as tenant_id). */
export function TenantSwitcher({ me }: { me: Me }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [tenant, setTenant] = useState(actingTenant() ?? me.tenant_id);
  const tenants = useQuery({
    queryKey: ['tenants'],
    queryFn: () => unwrapPage(api.GET('/tenants', { params: { query: { limit: 200 } } })),
  });
  const ids = new Set([me.tenant_id, tenant, ...(tenants.data?.items.map((t) => t.id) ?? [])]);
  return (
    <div className="tenant-switcher">
      <label htmlFor={id}>Tenant</label>
      <select
        id={id}
        value={tenant}
        onChange={(event) => {
          const next = event.target.value;
          setTenant(next);
          setActingTenant(next === me.tenant_id ? null : next);
          void queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] !== 'auth' });
        }}
      >
        {[...ids].map((t) => (
          <option key={t} value={t}>
            {t}
          </option>
        ))}
      </select>
    </div>
  );
}
