import { isAbsolute } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { fromRoot } from '../paths.js';
import { openEmbedded } from './embedded.js';
import type { Logger } from 'pino';
import type { KernelConfig } from '../config/types.js';

export interface Database {
  knex: Knex;
  /** `postgres` for a server, `embedded` for PGlite. */
  kind: 'postgres' | 'embedded';
  close(): Promise<void>;
}

async function embeddedConnection(dataDir: string | undefined): Promise<Record<string, unknown>> {
  if (!dataDir || dataDir === 'memory') return { pglite: await openEmbedded(undefined) };
  const dir = isAbsolute(dataDir) ? dataDir : fromRoot(dataDir);
  return { pglite: await openEmbedded(dir) };
}

/**
 * One SQL dialect everywhere: PostgreSQL. A URL selects a server through `pg`; otherwise the
 * embedded PGlite runs in-process, which holds exactly one connection (knex-pglite pins the pool).
 */
export async function connectDatabase(config: KernelConfig['database'], logger?: Logger): Promise<Database> {
  const schema = config.schema;
  // knex prints connection trouble to the console itself; route it to the structured log instead.
  const log = logger
    ? {
        warn: (m: unknown) => logger.warn({ knex: String(m) }, 'database warning'),
        error: (m: unknown) => logger.error({ knex: String(m) }, 'database error'),
        deprecate: (m: unknown) => logger.warn({ knex: String(m) }, 'database deprecation'),
        debug: (m: unknown) => logger.debug({ knex: String(m) }, 'database debug'),
      }
    : undefined;
  let knex: Knex;
  let kind: Database['kind'];
  if (config.url) {
    kind = 'postgres';
    knex = knexFactory({
      client: 'pg',
      connection: config.url,
      pool: { min: 0, max: config.pool_max },
      acquireConnectionTimeout: 10_000,
      ...(log ? { log } : {}),
      ...(schema ? { searchPath: [schema] } : {}),
    });
  } else {
    kind = 'embedded';
    // Loaded only here: PGlite's half-megabyte of JavaScript is no part of a kernel on PostgreSQL.
    const { default: ClientPgLite } = await import('knex-pglite');
    knex = knexFactory({
      client: ClientPgLite as unknown as typeof knexFactory.Client,
      dialect: 'postgres',
      connection: await embeddedConnection(config.data_dir),
      acquireConnectionTimeout: 60_000,
      ...(log ? { log } : {}),
      ...(schema ? { searchPath: [schema] } : {}),
    } as Knex.Config);
  }
  if (schema) await knex.raw('CREATE SCHEMA IF NOT EXISTS ??', [schema]);
  return { knex, kind, close: () => knex.destroy() };
}
