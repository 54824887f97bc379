import type { Knex } from 'knex';
import type { Migration } from '../types.js';

export interface OwnedMigrations {
  owner: string;
  migrations: readonly Migration[];
}

/**
 * Runs every owner's migrations in order (owners in dependency order, each owner's list in
 * its declared order) with knex's migrator, which serialises concurrent instances with its lock
 * table. Names are `<owner>/<name>`, so each plugin owns its own; a disabled plugin's applied
 * migrations are simply not listed, which knex is told to accept.
 */
export async function runMigrations(knex: Knex, owners: readonly OwnedMigrations[]): Promise<string[]> {
  const all = owners.flatMap(({ owner, migrations }) => migrations.map((m) => ({ key: `${owner}/${m.name}`, migration: m })));
  const byKey = new Map(all.map((entry) => [entry.key, entry.migration]));
  const source: Knex.MigrationSource<string> = {
    getMigrations: async () => all.map((entry) => entry.key),
    getMigrationName: (key) => key,
    getMigration: async (key) => {
      const migration = byKey.get(key);
      if (!migration) throw new Error(`unknown migration ${key}`);
      return {
        up: (db: Knex) => migration.up(db),
        down: (db: Knex) => (migration.down ? migration.down(db) : Promise.resolve()),
        ...(migration.transaction === false ? { config: { transaction: false } } : {}),
      };
    },
  };
  const [, applied] = (await knex.migrate.latest({
    migrationSource: source,
    tableName: 'kernel_migrations',
    disableMigrationsListValidation: true,
  })) as [number, string[]];
  return applied;
}
