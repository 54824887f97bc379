import type { Knex } from 'knex';
import { componentTypes } from '../components/contract.js';
import { codecKinds } from '../codecs/contract.js';
import { contribute, coreExtensions, coreServices, createPlugin, fromRoot } from '../../kernel/plugin/api.js';
import { migrationChecks, migrationResources, type MigrationResource } from './contract.js';
import { migrationHandlers } from './handlers.js';
import { createMigration } from './migrations/001_migration.js';
import { codecResource } from './resources/codecs.js';
import { componentResource } from './resources/components.js';
import { streamResource } from './resources/streams.js';

/**
 * Promotion between tenants: export a content-hashed bundle, plan it against a target (diff and
 * gate), apply it in one transaction. Offers `migration.resources` (kinds of resources) and
 * `migration.checks` (extra gate checks); contributes codecs, streams and components itself
 * while those plugins are enabled (each belongs in its own plugin in time).
 */
export default createPlugin<{ clock: typeof coreServices.clock; config: typeof coreServices.config; extensions: typeof coreServices.extensions }>({
  id: 'migration',
  manifest: fromRoot('manifests', 'migration.json'),
  migrations: [createMigration],
  deps: { clock: coreServices.clock, config: coreServices.config, extensions: coreServices.extensions },
  setup({ clock, config, extensions }) {
    const enabled = new Set(config.plugins.filter((p): p is string => typeof p === 'string'));
    const typeSchema = (name: string) => extensions.all(componentTypes).find((t) => t.name === name)?.config_schema as Record<string, unknown> | undefined;
    const own: MigrationResource[] = [
      ...(enabled.has('codecs') ? [codecResource(() => extensions.all(codecKinds))] : []),
      ...(enabled.has('streams') ? [streamResource] : []),
      ...(enabled.has('components') ? [componentResource(typeSchema)] : []),
    ];
    // Without a tenant directory (no identity plugin) every tenant id is taken as existing, as the kernel does.
    const tenantExists = async (db: Knex, id: string): Promise<boolean> => {
      const [directory] = extensions.all(coreExtensions.tenantDirectory);
      return directory ? directory.exists(db, id) : true;
    };
    return {
      handlers: migrationHandlers(() => [...extensions.all(migrationResources)], () => extensions.all(migrationChecks), clock, tenantExists),
      offers: [migrationResources, migrationChecks],
      contributions: own.map((r) => contribute(migrationResources, r)),
    };
  },
});
