import type { JsonSchema } from '../manifest/types.js';

/**
 * The one home of the words of tenancy (spec §5): what a tenant id looks like, the
 * account-wide scope `*`, and the permission that reaches beyond one's own tenant.
 */

/** `tenant_id=*`: every tenant at once, for reads of lists by an account admin. */
export const ACCOUNT_WIDE = '*';

/** The permission that lets a subject act outside its own tenant, or account-wide (`*`). */
export const ACCOUNT_PERMISSION = 'runtime:account:admin';

/** A tenant id: lower-case letters, digits, `_` and `-`, starting with a letter or digit. */
export const TENANT_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** The `tenant_id` field the kernel adds to the query (reads) or body (writes) of tenant routes. */
export const TENANT_ID_FIELD: JsonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 64,
  pattern: '^(\\*|[a-z0-9][a-z0-9_-]*)$',
  description:
    "Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows.",
};

export function isAccountWide(tenantId: string | undefined): boolean {
  return tenantId === ACCOUNT_WIDE;
}
