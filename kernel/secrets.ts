import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { Migration, SecretStore } from './types.js';

export const secretsMigration: Migration = {
  name: '001_kernel_secrets',
  async up(db) {
    await db.schema.createTable('kernel_secrets', (t) => {
      t.text('name').primary();
      t.binary('value').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    });
  },
};

/**
 * Keys the kernel needs to agree on across instances (cursor signing, for one) are made once
 * and kept in the database; the first instance to insert wins and every other reads its value.
 */
export function createSecretStore(db: Knex): SecretStore {
  const cache = new Map<string, Promise<Buffer>>();
  async function load(name: string): Promise<Buffer> {
    await db('kernel_secrets')
      .insert({ name, value: randomBytes(32) })
      .onConflict('name')
      .ignore();
    const row = (await db('kernel_secrets').where({ name }).first('value')) as { value: Buffer } | undefined;
    if (!row) throw new Error(`secret ${name} could not be stored`);
    return Buffer.from(row.value);
  }
  return {
    key(name) {
      let pending = cache.get(name);
      if (!pending) {
        pending = load(name);
        pending.catch(() => cache.delete(name));
        cache.set(name, pending);
      }
      return pending;
    },
  };
}
