import { expect } from 'chai';
import type { Knex } from 'knex';
import type { AuditRow } from '../../../plugins/audit/store.js';
import { ApiError } from '../../../kernel/errors.js';
import type { Authenticator, PluginDefinition, Principal } from '../../../kernel/types.js';
import { contribute, coreExtensions } from '../../../kernel/plugin/api.js';

/** The third-party fixture plugin, enabled the way an operator would: by folder in config. */
export const FIXTURE = { module: 'test/fixtures/third-party-plugin' };

/** Every built-in this issue touches plus the fixture. */
export const PLUGINS = ['system', 'audit', 'logs', 'components', FIXTURE];

/**
 * A link of the credential chain for pipeline tests, until the identity plugin's helpers
 * (test/support/identity.ts) exist: `X-Test-Principal: <subject>@<tenant>:<perm>,<perm>`.
 * It is a real Authenticator through the real chain, so 401/403/404 come from the kernel.
 */
export const headerAuthPlugin: PluginDefinition = {
  id: 'header-auth',
  manifest: { id: 'header-auth', version: '1.0.0', summary: 'Test credentials from a header', routes: [] },
  setup: () => {
    const link: Authenticator = {
      name: 'test-header',
      async authenticate(call) {
        const raw = call.headers['x-test-principal'];
        if (raw === undefined) return null;
        const match = /^([a-z0-9-]+)@([a-z0-9-]+):(.*)$/.exec(raw);
        if (!match) throw new ApiError('invalid_credentials', 'The test credential is malformed.');
        const [, subjectId, tenantId, perms] = match as unknown as [string, string, string, string];
        const principal: Principal = {
          subjectId,
          tenantId,
          credential: { kind: 'api_token', id: `tok-${subjectId}` },
          roles: ['test'],
          permissions: new Set(perms.split(',').filter(Boolean)),
          email: `${subjectId}@example.test`,
        };
        return principal;
      },
    };
    return { handlers: {}, contributions: [contribute(coreExtensions.authenticators, link)] };
  },
};

export const ALL_PERMISSIONS = [
  'runtime:component:read',
  'runtime:component:write',
  'runtime:audit:read',
  'runtime:log:read',
  'notes:note:read',
  'notes:note:write',
];

/** Headers of a test principal. */
export function as(
  subject: string,
  tenant: string,
  permissions: readonly string[] = ALL_PERMISSIONS,
): Record<string, string> {
  return { 'x-test-principal': `${subject}@${tenant}:${permissions.join(',')}` };
}

/** An audit record straight from its table. */
export type AuditRowView = AuditRow;

/** The audit records straight from the database, oldest first. */
export async function auditRows(
  db: Knex,
  where: Partial<Record<keyof AuditRowView, unknown>> = {},
): Promise<AuditRowView[]> {
  return (await db('audit_records')
    .where(where)
    .orderBy([{ column: 'tenant_id' }, { column: 'xact' }, { column: 'id' }])) as AuditRowView[];
}

/** Runs each statement and expects the database to refuse it with a message matching `reason`. */
export async function expectRefused(
  statements: ReadonlyArray<() => PromiseLike<unknown>>,
  reason: RegExp,
): Promise<void> {
  for (const statement of statements) {
    let error: unknown;
    await Promise.resolve(statement()).catch((err: unknown) => {
      error = err;
    });
    expect(String((error as Error | undefined)?.message)).to.match(reason);
  }
}
