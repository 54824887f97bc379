import { api } from './client';
import { ApiError, toApiError } from './errors';
import { operations } from './operations';
import type { ActionCall } from '../kit/curl';

/** The answer of a dry run (`?dry_run=true`): what the call would have done; nothing was kept. */
export interface DryRunReport {
  dry_run: true;
  persisted: false;
  operation: string;
  tenant_id: string | null;
  permission: string;
  would: { status: number; body?: unknown; headers?: Record<string, string> };
}

/**
 * Calls one operation by its id through the typed client (so the CSRF header, tenant and 401
 * handling apply). Used by the generic action machinery (confirm with dry run, show as curl).
 */
export async function callOperation<T = unknown>(
  call: ActionCall,
  extraQuery: Record<string, string | number | boolean> = {},
): Promise<T> {
  const op = operations[call.op];
  const query = Object.fromEntries(
    Object.entries({ ...(call.query ?? {}), ...extraQuery }).filter(([, v]) => v !== undefined),
  );
  const init: Record<string, unknown> = { params: { path: call.params ?? {}, query } };
  if (call.body !== undefined) init.body = call.body;
  const request = api.request as unknown as (
    method: string,
    path: string,
    init: unknown,
  ) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
  let result: { data?: unknown; error?: unknown; response: Response };
  try {
    result = await request(op.method.toLowerCase(), op.path, init);
  } catch (err) {
    throw new ApiError(0, 'network_error', `The server could not be reached (${(err as Error).message}).`);
  }
  if (!result.response.ok) throw toApiError(result.response, result.error);
  return result.data as T;
}

export function dryRun(call: ActionCall): Promise<DryRunReport> {
  return callOperation<DryRunReport>(call, { dry_run: true });
}

export function supportsDryRun(call: ActionCall): boolean {
  return operations[call.op].dry_run;
}
