import { createHash } from 'node:crypto';
import type { Database } from '../db/connect.js';
import { kernelMigrations } from '../db/kernel-migrations.js';
import { startMigrations, type MigrationRun, type OwnedMigrations } from '../db/migrate.js';
import type { ResolvedPlugin } from '../plugin/resolve.js';

/** The kernel's own migrations, which come before any plugin's. */
export const kernelOwner: OwnedMigrations = { owner: 'kernel', migrations: kernelMigrations };

/** A plugin's migrations under its id. */
export function pluginOwner(plugin: ResolvedPlugin): OwnedMigrations {
  return { owner: plugin.definition.id, migrations: plugin.definition.migrations ?? [] };
}

/** The kernel's tables first, then each plugin's, in plugin order. */
export function migrationOwners(plugins: readonly ResolvedPlugin[]): OwnedMigrations[] {
  return [kernelOwner, ...plugins.map(pluginOwner)];
}

/**
 * Names a migration set by its migrations and their code: two kernels with the same key build the
 * same tables, so a cluster migrated by one is a valid start for the other (db/embedded.ts).
 */
export function migrationKey(owners: readonly OwnedMigrations[]): string {
  const hash = createHash('sha256');
  for (const { owner, migrations } of owners) {
    for (const m of migrations)
      hash.update(
        `${owner}/${m.name}\0${m.transaction === false ? 'nt' : 't'}\0${String(m.up)}\0${m.upInTransaction ? String(m.upInTransaction) : ''}\0`,
      );
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * The `migrate` phase (kernel/boot/phases.ts), begun at `connect` with the kernel's migrations: the plugins' follow as they are handed
 * over (MigrationRun.add) and `finish` waits for the last; a newly created embedded cluster is
 * then kept as the template of the next.
 */
export function startMigrating(database: Database): MigrationRun {
  const run = startMigrations(database.knex);
  run.add(kernelOwner);
  return {
    add: (owner) => run.add(owner),
    abort: () => run.abort(),
    async finish() {
      const applied = await run.finish();
      await database.keepMigrated?.();
      return applied;
    },
  };
}
