import type { Database } from '../db/connect.js';
import { kernelMigrations } from '../db/kernel-migrations.js';
import { runMigrations, type OwnedMigrations } from '../db/migrate.js';
import type { ResolvedPlugin } from '../plugin/resolve.js';

/** Phase 2, migrate: the kernel's tables first, then each plugin's, in plugin order. */
export async function migrateAll(database: Database, plugins: readonly ResolvedPlugin[]): Promise<void> {
  const owners: OwnedMigrations[] = [{ owner: 'kernel', migrations: kernelMigrations }];
  for (const p of plugins) owners.push({ owner: p.definition.id, migrations: p.definition.migrations ?? [] });
  await runMigrations(database.knex, owners);
}
