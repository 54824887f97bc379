import { readFileSync } from 'node:fs';
import { fromRoot } from '../../kernel/paths.js';
import type { TestKernel } from './kernel.js';

/** The bootstrap admin's sign-in in the test profile (config/test.json, or RUNTIME_ADMIN_PASSWORD). */
export function bootstrapCredentials(): { tenant_id: string; username: string; password: string } {
  const config = JSON.parse(readFileSync(fromRoot('config', 'test.json'), 'utf8')) as {
    settings?: { identity?: { bootstrap?: { admin_password?: string } } };
  };
  const password = process.env.RUNTIME_ADMIN_PASSWORD || config.settings?.identity?.bootstrap?.admin_password;
  if (!password) throw new Error('config/test.json has no settings.identity.bootstrap.admin_password');
  return { tenant_id: 'default', username: 'admin', password };
}

export interface LoginResult {
  access_token: string;
  refresh_token: string;
  expires_at: string;
  refresh_expires_at: string;
  session_id: string;
  subject_id: string;
  tenant_id: string;
}

/** Signs in with a password and returns the whole login response; throws unless 200. */
export async function login(
  tk: TestKernel,
  credentials: { tenant_id: string; username: string; password: string },
): Promise<LoginResult> {
  const res = await tk.request('POST', '/auth/login', { body: credentials });
  if (res.status !== 200)
    throw new Error(`login of ${credentials.tenant_id}/${credentials.username} failed: ${res.status} ${res.text}`);
  return res.body as LoginResult;
}

/**
 * Access token (sess_…) of the bootstrap admin of tenant `default`, who holds the roles admin
 * and account-admin (every permission, in every tenant).
 */
export async function loginAdmin(tk: TestKernel): Promise<string> {
  return (await login(tk, bootstrapCredentials())).access_token;
}

export interface MintOptions {
  /** Tenant of the token; defaults to the minter's tenant. */
  tenantId?: string;
  name?: string;
  expiresInDays?: number;
  /** A read-only token may call read-only operations only. */
  readOnly?: boolean;
}

/** Mints an API token with `roles` using `adminToken` and returns its secret (sk_…). */
export async function mintToken(
  tk: TestKernel,
  adminToken: string,
  roles: string[],
  options: MintOptions = {},
): Promise<string> {
  const body: Record<string, unknown> = { name: options.name ?? `test token ${roles.join(' ')}`, roles };
  if (options.tenantId !== undefined) body.tenant_id = options.tenantId;
  if (options.expiresInDays !== undefined) body.expires_in_days = options.expiresInDays;
  if (options.readOnly !== undefined) body.read_only = options.readOnly;
  const res = await tk.request('POST', '/api-tokens', { token: adminToken, body });
  if (res.status !== 201)
    throw new Error(`minting an API token with roles ${roles.join(', ')} failed: ${res.status} ${res.text}`);
  return (res.body as { secret: string }).secret;
}

/** Creates a user with a password and roles in a tenant (default: the admin's). */
export async function createUser(
  tk: TestKernel,
  adminToken: string,
  user: { username: string; password: string; roles: string[]; tenantId?: string },
): Promise<{ id: string }> {
  const body: Record<string, unknown> = { username: user.username, password: user.password, roles: user.roles };
  if (user.tenantId !== undefined) body.tenant_id = user.tenantId;
  const res = await tk.request('POST', '/users', { token: adminToken, body });
  if (res.status !== 201) throw new Error(`creating user ${user.username} failed: ${res.status} ${res.text}`);
  return res.body as { id: string };
}

/** Creates a tenant (needs an account-wide admin such as the bootstrap admin). */
export async function createTenant(tk: TestKernel, adminToken: string, id: string): Promise<void> {
  const res = await tk.request('POST', '/tenants', { token: adminToken, body: { id, name: id } });
  if (res.status !== 201) throw new Error(`creating tenant ${id} failed: ${res.status} ${res.text}`);
}

/** A clock tests move instead of sleeping; pass `clock` to startKernel. */
export function movableClock(): { clock: { now(): Date }; advance(seconds: number): void } {
  let offsetMs = 0;
  return {
    clock: { now: () => new Date(Date.now() + offsetMs) },
    advance(seconds) {
      offsetMs += seconds * 1000;
    },
  };
}
