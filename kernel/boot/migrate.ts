import { createHash } from 'node:crypto';
import type { Database } from '../db/connect.js';
import { kernelMigrations } from '../db/kernel-migrations.js';
import { runMigrations, type OwnedMigrations } from '../db/migrate.js';
import type { ResolvedPlugin } from '../plugin/resolve.js';

/** The kernel's tables first, then each plugin's, in plugin order. */
export function migrationOwners(plugins: readonly ResolvedPlugin[]): OwnedMigrations[] {
  const owners: OwnedMigrations[] = [{ owner: 'kernel', migrations: kernelMigrations }];
  for (const p of plugins) owners.push({ owner: p.definition.id, migrations: p.definition.migrations ?? [] });
  return owners;
}

/**
 * Names a migration set by its migrations and their code: two kernels with the same key build the
 * same tables, so a cluster migrated by one is a valid start for the other (db/embedded.ts).
 */
export function migrationKey(owners: readonly OwnedMigrations[]): string {
  const hash = createHash('sha256');
  for (const { owner, migrations } of owners) {
    for (const m of migrations) hash.update(`${owner}/${m.name}\0${m.transaction === false ? 'nt' : 't'}\0${String(m.up)}\0`);
  }
  return hash.digest('hex').slice(0, 16);
}

/** Phase 2, migrate; a newly created embedded cluster is then kept as the template of the next. */
export async function migrateAll(database: Database, owners: readonly OwnedMigrations[]): Promise<void> {
  await runMigrations(database.knex, owners);
  await database.keepMigrated?.();
}
