import type { Knex } from 'knex';
import type { ComponentLookup } from '../components-directory.js';
import type { Definition } from '../definition.js';

/** The components a revision processes and delivers with (its steps and sinks given by id, each once). */
export function componentsUsed(definition: Definition): string[] {
  const ids = [...definition.steps, ...definition.sinks].flatMap((s) => ('component' in s ? [s.component] : []));
  return [...new Set(ids)];
}

/**
 * Stop means stop: the components of the revision that are stopped. While there are any, the
 * worker claims nothing of the workflow's input — its messages stay pending (the lag shows them),
 * none is delivered, none dropped — and the workflow shows why it waits. Once they run again, the
 * held messages go through once, in order. A workflow of inline steps asks nothing.
 */
export function stoppedComponents(
  lookup: ComponentLookup,
  db: Knex | Knex.Transaction,
  tenantId: string,
  definition: Definition,
): Promise<string[]> {
  const used = componentsUsed(definition);
  return used.length === 0 ? Promise.resolve([]) : lookup.stopped(db, tenantId, used);
}
