import type { Knex } from 'knex';
import { extensionPoint } from '../../kernel/plugin/api.js';

/** One resource in a bundle: its id in the tenant and what defines it (no tenant, no timestamps). */
export interface BundleItem {
  id: string;
  content: Record<string, unknown>;
}

/** One check of the promotion gate. */
export interface GateCheck {
  check: string;
  ok: boolean;
  detail: string;
}

export interface ResourceChanges {
  create: BundleItem[];
  update: BundleItem[];
  delete: string[];
}

/**
 * A kind of resource promotion moves between tenants, contributed by the plugin that owns it
 * (codecs, streams, components here for now; workflows, workspaces and BPMN definitions from
 * their plugins). `order` sorts kinds so that what others refer to is created first (codecs
 * before streams) and deleted last. A plain JavaScript plugin contributes
 * `{ point: { id: 'migration.resources' }, value: { kind, order, export, apply } }`.
 */
export interface MigrationResource {
  kind: string;
  order: number;
  export(db: Knex | Knex.Transaction, tenantId: string): Promise<BundleItem[]>;
  /** Writes the changes into the target tenant inside the apply transaction. */
  apply(trx: Knex.Transaction, tenantId: string, changes: ResourceChanges, now: Date): Promise<void>;
  /** Gate checks this kind adds (codec compatibility, say), given what the bundle and the target hold. */
  checks?(bundle: readonly BundleItem[], target: readonly BundleItem[]): GateCheck[];
}

export const migrationResources = extensionPoint<MigrationResource>('migration.resources');

/**
 * A gate check another plugin adds: the studio plugin's `workspace_tests` (run the workspace's
 * tests on the bundle's exact content, keyed by its hash), say.
 */
export interface MigrationGateCheck {
  check: string;
  run(db: Knex | Knex.Transaction, bundle: { hash: string; resources: Record<string, BundleItem[]> }, targetTenantId: string): Promise<GateCheck>;
}

export const migrationChecks = extensionPoint<MigrationGateCheck>('migration.checks');
