import type { Knex } from 'knex';
import { coreExtensions, coreServices, createPlugin, fromRoot } from '../../kernel/plugin/api.js';
import { migrationChecks, migrationResources } from './contract.js';
import { migrationHandlers } from './handlers.js';
import { createMigration } from './migrations/001_migration.js';

/**
 * Promotion between tenants: export a content-hashed bundle, plan it against a target (diff and
 * gate), apply it in one transaction. Offers `migration.resources` (kinds of resources) and
 * `migration.checks` (extra gate checks). Every kind comes from its own plugin: codecs, streams,
 * components, workflows and studio workspaces contribute theirs; studio adds `workspace_tests`.
 */
export default createPlugin<{
  audit: typeof coreServices.audit;
  clock: typeof coreServices.clock;
  config: typeof coreServices.config;
  extensions: typeof coreServices.extensions;
}>({
  id: 'migration',
  manifest: fromRoot('manifests', 'migration.json'),
  migrations: [createMigration],
  deps: {
    audit: coreServices.audit,
    clock: coreServices.clock,
    config: coreServices.config,
    extensions: coreServices.extensions,
  },
  setup({ audit, clock, extensions }) {
    // Without a tenant directory (no identity plugin) every tenant id is taken as existing, as the kernel does.
    const tenantExists = async (db: Knex, id: string): Promise<boolean> => {
      const [directory] = extensions.all(coreExtensions.tenantDirectory);
      return directory ? directory.exists(db, id) : true;
    };
    return {
      handlers: migrationHandlers(
        () => [...extensions.all(migrationResources)],
        () => extensions.all(migrationChecks),
        clock,
        tenantExists,
        audit,
      ),
      offers: [migrationResources, migrationChecks],
    };
  },
});
