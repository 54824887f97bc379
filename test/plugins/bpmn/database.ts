import { randomBytes } from 'node:crypto';
import knex from 'knex';

/** A new, empty PostgreSQL database (on the DATABASE_URL server) for kernels spawned as processes, which take no schema setting. */
export async function freshDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `bpmn_${randomBytes(5).toString('hex')}`;
  const admin = knex({ client: 'pg', connection: process.env.DATABASE_URL as string });
  await admin.raw('CREATE DATABASE ??', [name]);
  await admin.destroy();
  const url = new URL(process.env.DATABASE_URL as string);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const again = knex({ client: 'pg', connection: process.env.DATABASE_URL as string });
      await again.raw('DROP DATABASE IF EXISTS ?? WITH (FORCE)', [name]).catch(() => undefined);
      await again.destroy();
    },
  };
}
