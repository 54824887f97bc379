/**
 * The tenant an account admin acts in. Not a credential: only the tenant id the API's
 * `tenant_id` parameter takes, kept per browser so a reload stays in the same tenant.
 */
const KEY = 'console.acting-tenant';
let acting: string | null = null;
try {
  acting = window.localStorage.getItem(KEY);
} catch {
  acting = null;
}

export function actingTenant(): string | null {
  return acting;
}

export function setActingTenant(tenant: string | null): void {
  acting = tenant;
  try {
    if (tenant) window.localStorage.setItem(KEY, tenant);
    else window.localStorage.removeItem(KEY);
  } catch {
    // Storage may be disabled; the choice then lasts until reload.
  }
}
