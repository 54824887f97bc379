import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fromRoot } from '../../kernel/paths.js';
import { loadConfig, deepMerge } from '../../kernel/config/load.js';
import { createKernel, type Kernel } from '../../kernel/boot.js';
import type { KernelServices, PluginDefinition } from '../../kernel/types.js';
import { dropConsoleRoles } from '../../plugins/sql/roles.js';
import knexFactory from 'knex';

export interface HttpResult {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Raw body bytes/text sent as-is (with `contentType`). */
  raw?: string | Buffer;
  contentType?: string;
  headers?: Record<string, string>;
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string;
}

export interface TestKernel {
  kernel: Kernel;
  url: string;
  request(method: string, path: string, options?: RequestOptions): Promise<HttpResult>;
  close(): Promise<void>;
}

/** The plugins the test profile enables (config/test.json): every built-in. */
export const TEST_PROFILE_PLUGINS: readonly string[] = (
  JSON.parse(readFileSync(fromRoot('config', 'test.json'), 'utf8')) as { plugins: string[] }
).plugins;

/** True when the suite runs against a real PostgreSQL server (DATABASE_URL) rather than PGlite. */
export const onPostgres = Boolean(process.env.DATABASE_URL);

/**
 * Database settings for a test kernel: embedded in memory by default; with DATABASE_URL, a
 * fresh schema on the real server so test kernels never see each other's rows.
 */
export function testDatabase(schema = `t_${randomBytes(6).toString('hex')}`): Record<string, unknown> {
  return onPostgres ? { url: process.env.DATABASE_URL, schema } : { data_dir: 'memory' };
}

export async function request(
  base: string,
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<HttpResult> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | Buffer | undefined;
  if (options.raw !== undefined) {
    body = options.raw;
    headers['content-type'] ??= options.contentType ?? 'application/json';
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${base}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

/** Boots a kernel on a free port with the test profile plus `overrides`. */
export async function startKernel(
  overrides: Record<string, unknown> = {},
  options: { clock?: KernelServices['clock']; schema?: string; plugins?: PluginDefinition[] } = {},
): Promise<TestKernel> {
  const env = { ...process.env };
  delete env.DATABASE_URL;
  delete env.PORT;
  delete env.RUNTIME_PLUGINS;
  const database = testDatabase(options.schema);
  const config = loadConfig({ profile: 'test', env, overrides: deepMerge({ database }, overrides) });
  const kernel = await createKernel({
    config,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.plugins ? { plugins: options.plugins } : {}),
  });
  const { url } = await kernel.listen();
  return {
    kernel,
    url,
    request: (method, path, requestOptions) => request(url, method, path, requestOptions),
    async close() {
      // A schema the test named itself may be shared by several kernels; the test drops it.
      if (onPostgres && !options.schema && typeof database.schema === 'string') {
        // The SQL console's database roles are cluster-wide: they go with the schema they serve.
        await dropConsoleRoles(kernel.database.knex, database.schema).catch(() => undefined);
        await kernel.database.knex.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [database.schema]).catch(() => undefined);
      }
      await kernel.close();
    },
  };
}

/**
 * Closes kernels that share a schema the test named (`startKernel(…, { schema })`), the last
 * started first, then drops the schema over a connection of its own. Never the other way round: a
 * DROP … CASCADE while a kernel still runs waits for its jobs' locks and can end as a deadlock.
 */
export async function closeSharingSchema(
  schema: string,
  ...kernels: ReadonlyArray<TestKernel | undefined>
): Promise<void> {
  for (const kernel of [...kernels].reverse()) await kernel?.close();
  if (!onPostgres) return;
  const db = knexFactory({ client: 'pg', connection: process.env.DATABASE_URL as string, pool: { min: 0, max: 1 } });
  try {
    await dropConsoleRoles(db, schema).catch(() => undefined);
    await db.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [schema]);
  } finally {
    await db.destroy();
  }
}
