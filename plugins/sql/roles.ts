import { createHash, createHmac } from 'node:crypto';
import type { Knex } from 'knex';
import type { SqlTable } from './contract.js';
import { ensureViews } from './views.js';

/** Roles are cluster-wide while tables live in a schema: names carry the schema so kernels on one server never share a role. */
function roleBase(schema: string): string {
  const slug = schema
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .slice(0, 20);
  const hash = createHash('sha256').update(schema).digest('hex').slice(0, 8);
  return `sqlc_${slug}_${hash}`;
}

/** The group role that holds the SELECT grants and to which the policies apply. */
export function groupRole(schema: string): string {
  return roleBase(schema);
}

/** The login role of one tenant: a hash, so role names (visible in pg_roles) do not reveal tenant ids. */
export function tenantRole(schema: string, tenantId: string): string {
  return `${roleBase(schema)}_${createHash('sha256').update(`${schema}\0${tenantId}`).digest('hex').slice(0, 20)}`;
}

/** Derived from a key every instance shares, so every instance logs in with the same password and none resets it. */
export function rolePassword(key: Buffer, role: string): string {
  return createHmac('sha256', key).update(role).digest('hex');
}

const POLICY = 'sql_console_tenant';

/**
 * Creates (or brings up to date) the group role, its SELECT grants and one row-level security
 * policy per readable table: a row is visible when its tenant column is the tenant the session's
 * login role is bound to. `session_user` is the login role itself; SET ROLE changes only
 * current_user, and the login role is a member of nothing but the group, so no statement a
 * query can run moves it to another tenant. The table owner (the kernel) is not subject to the
 * policies (ENABLE, not FORCE), so the kernel's own queries are unchanged. Answers the names a
 * tenant may query: the tables, then the readable views over them (views.ts).
 */
export async function ensureGroup(knex: Knex, schema: string, tables: readonly SqlTable[]): Promise<string[]> {
  const group = groupRole(schema);
  const readable: string[] = [];
  await knex.transaction(async (trx) => {
    // Instances and concurrent first queries set up one at a time (GRANT on one object from two sessions can fail).
    await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`sql-console:${schema}`]);
    const exists = await trx.raw('SELECT 1 FROM pg_roles WHERE rolname = ?', [group]);
    if (exists.rows.length === 0) await trx.raw('CREATE ROLE ?? NOLOGIN NOINHERIT', [group]);
    await trx.raw('GRANT USAGE ON SCHEMA ?? TO ??', [schema, group]);
    // The binding table itself: each login role sees its own row only.
    await trx.raw('ALTER TABLE ??.sql_console_roles ENABLE ROW LEVEL SECURITY', [schema]);
    await trx.raw('GRANT SELECT ON ??.sql_console_roles TO ??', [schema, group]);
    await trx.raw(`DROP POLICY IF EXISTS ${POLICY} ON ??.sql_console_roles`, [schema]);
    await trx.raw(`CREATE POLICY ${POLICY} ON ??.sql_console_roles FOR SELECT TO ?? USING (role_name = session_user)`, [
      schema,
      group,
    ]);
    const viewed: Array<SqlTable & { view: NonNullable<SqlTable['view']> }> = [];
    for (const { table, tenant_column: column = 'tenant_id', view } of tables) {
      const found = await trx.raw(
        `SELECT c.oid, c.relrowsecurity AS secured, has_table_privilege(?, c.oid, 'SELECT') AS granted,
                EXISTS (SELECT 1 FROM pg_policy p WHERE p.polrelid = c.oid AND p.polname = ?) AS policed
           FROM pg_class c WHERE c.oid = to_regclass(?)`,
        [group, POLICY, `"${schema}"."${table}"`],
      );
      const state = found.rows[0] as { secured: boolean; granted: boolean; policed: boolean } | undefined;
      if (!state) continue;
      readable.push(table);
      if (view) viewed.push({ table, view });
      // Already set up (by this or another instance): ALTER TABLE would take an exclusive lock on a busy table for nothing.
      if (state.secured && state.granted && state.policed) continue;
      await trx.raw('ALTER TABLE ??.?? ENABLE ROW LEVEL SECURITY', [schema, table]);
      await trx.raw('GRANT SELECT ON ??.?? TO ??', [schema, table, group]);
      await trx.raw(`DROP POLICY IF EXISTS ${POLICY} ON ??.??`, [schema, table]);
      await trx.raw(
        `CREATE POLICY ${POLICY} ON ??.?? FOR SELECT TO ?? USING (?? = (SELECT r.tenant_id FROM ??.sql_console_roles r WHERE r.role_name = session_user))`,
        [schema, table, group, column, schema],
      );
    }
    readable.push(...(await ensureViews(trx, schema, group, viewed)));
  });
  return readable;
}

export interface RoleLimits {
  statementTimeoutMs: number;
  connectionLimit: number;
}

/** Creates the tenant's login role (a member of the group only) and binds it to the tenant. */
export async function ensureTenantRole(
  knex: Knex,
  schema: string,
  tenantId: string,
  password: string,
  limits: RoleLimits,
): Promise<string> {
  const role = tenantRole(schema, tenantId);
  await knex.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`sql-console:${schema}`]);
    const exists = await trx.raw('SELECT 1 FROM pg_roles WHERE rolname = ?', [role]);
    // The password is hex (HMAC output): safe to write as a literal, which CREATE ROLE requires.
    const options = `LOGIN INHERIT NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS CONNECTION LIMIT ${limits.connectionLimit} PASSWORD '${password}'`;
    if (exists.rows.length === 0) await trx.raw(`CREATE ROLE ?? ${options}`, [role]);
    else await trx.raw(`ALTER ROLE ?? ${options}`, [role]);
    await trx.raw('GRANT ?? TO ??', [groupRole(schema), role]);
    await trx.raw('ALTER ROLE ?? SET search_path TO ??', [role, schema]);
    await trx.raw(`ALTER ROLE ?? SET statement_timeout TO ${Math.floor(limits.statementTimeoutMs)}`, [role]);
    await trx.raw('ALTER ROLE ?? SET default_transaction_read_only TO on', [role]);
    await trx.raw("ALTER ROLE ?? SET idle_in_transaction_session_timeout TO '10s'", [role]);
    await trx.raw(
      'INSERT INTO ??.sql_console_roles (role_name, tenant_id) VALUES (?, ?) ON CONFLICT (role_name) DO NOTHING',
      [schema, role, tenantId],
    );
  });
  return role;
}

/**
 * Drops the console's roles of one schema (tests, and an operator retiring a schema): roles are
 * cluster-wide and outlive a dropped schema.
 */
export async function dropConsoleRoles(knex: Knex, schema: string): Promise<void> {
  const group = groupRole(schema);
  const roles = await knex.raw("SELECT rolname FROM pg_roles WHERE rolname = ? OR rolname LIKE ? ESCAPE '!'", [
    group,
    `${group.replace(/_/g, '!_')}!_%`,
  ]);
  const names = (roles.rows as Array<{ rolname: string }>).map((r) => r.rolname).sort((a, b) => b.length - a.length);
  for (const name of names) {
    await knex.raw('DROP OWNED BY ??', [name]).catch(() => undefined);
    await knex.raw('DROP ROLE IF EXISTS ??', [name]);
  }
}
