import { queryOptions, useQuery } from '@tanstack/react-query';
import { operations, type OperationId } from '../api/operations';
import { browserAuth, type Me } from './browser-api';
import { scheduleRefresh } from './refresh';

/** The caller: who they are, their tenant and the permissions the UI follows. */
export const meQuery = queryOptions({
  queryKey: ['auth', 'me'],
  queryFn: async (): Promise<Me> => {
    const me = await browserAuth.me();
    scheduleRefresh(me.session?.expires_at);
    return me;
  },
  staleTime: 60_000,
  retry: false,
});

export function useMe(): Me | undefined {
  return useQuery(meQuery).data;
}

const OPEN = new Set(['public', 'authenticated']);

/** Whether `me` holds `permission` (public and authenticated routes are open to any caller). */
export function holds(me: Me | undefined, permission: string): boolean {
  if (OPEN.has(permission)) return true;
  return Boolean(me?.permissions.includes(permission));
}

export interface Allowance {
  allowed: boolean;
  permission: string;
}

/** May the caller call this operation? The permission comes from the generated operation table. */
export function useAllowed(op: OperationId): Allowance {
  const me = useMe();
  const permission = operations[op].permission;
  return { allowed: holds(me, permission), permission };
}
