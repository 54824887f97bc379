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
  /** What the target lacks, by name (a secret placeholder, a variable), when the check says how to supply it. */
  missing?: string[];
}

/**
 * Who plans or applies, and what the apply supplies besides the bundle: what some kinds'
 * checks and writes need (custom roles check the actor's permissions, components seal secrets).
 */
export interface PromotionContext {
  /** The permissions of whoever plans or applies (a deployment without authentication acts with all). */
  actorPermissions: ReadonlySet<string>;
  /** Secret values sent with the apply, by placeholder name (`<component>:/<field>`); none while planning. */
  secrets: Readonly<Record<string, unknown>>;
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
  apply(
    trx: Knex.Transaction,
    tenantId: string,
    changes: ResourceChanges,
    now: Date,
    context: PromotionContext,
  ): Promise<void>;
  /** Gate checks this kind adds (codec compatibility, say), given what the bundle and the target hold. */
  checks?(bundle: readonly BundleItem[], target: readonly BundleItem[], context: PromotionContext): GateCheck[];
}

export const migrationResources = extensionPoint<MigrationResource>('migration.resources');

/**
 * A gate check another plugin adds: the studio plugin's `workspace_tests` (run the workspace's
 * tests on the bundle's exact content, keyed by its hash), say.
 */
export interface MigrationGateCheck {
  check: string;
  run(
    db: Knex | Knex.Transaction,
    bundle: { hash: string; resources: Record<string, BundleItem[]> },
    targetTenantId: string,
  ): Promise<GateCheck>;
}

export const migrationChecks = extensionPoint<MigrationGateCheck>('migration.checks');
