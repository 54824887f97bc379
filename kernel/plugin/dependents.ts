import type { Knex } from 'knex';
import { ApiError } from '../errors.js';

/** A resource that uses another: its kind (the plugin's word: `workflow`, `component`…) and id. */
export interface Dependent {
  kind: string;
  id: string;
  /** How it uses the resource (`input stream`, `sink`…), for the message. */
  via?: string;
}

/**
 * What a plugin contributes to `coreExtensions.dependents`: the resources of its own that use a
 * resource of any plugin, read from its own tables. The plugin that deletes a resource asks every
 * contributor (refuseWhileUsed) — no plugin reads another's tables, and a disabled plugin's
 * resources simply do not count.
 */
export interface DependentsSource {
  of(db: Knex | Knex.Transaction, tenantId: string, resource: { kind: string; id: string }): Promise<Dependent[]>;
}

/** A delete handler's check: refuses (409) when the resource of this kind and id is in use. */
export type InUse = (db: Knex | Knex.Transaction, tenantId: string, kind: string, id: string) => Promise<void>;

/**
 * Refuses to delete a resource something still uses: 409 `conflict` naming every dependent, so
 * nothing stalls in silence after the delete. Call it in the delete's transaction, after locking
 * the resource.
 */
export async function refuseWhileUsed(
  sources: readonly DependentsSource[],
  db: Knex | Knex.Transaction,
  tenantId: string,
  resource: { kind: string; id: string },
): Promise<void> {
  const found = (await Promise.all(sources.map((s) => s.of(db, tenantId, resource)))).flat();
  if (found.length === 0) return;
  const names = found.map((d) => `${d.kind} "${d.id}"${d.via ? ` (${d.via})` : ''}`);
  throw new ApiError(
    'conflict',
    `The ${resource.kind} "${resource.id}" is in use by ${names.join(', ')}; change or remove ${found.length === 1 ? 'it' : 'them'} first.`,
    { details: found.map((_d, i) => ({ in: 'params', pointer: '/id', message: `used by ${names[i]}` })) },
  );
}
