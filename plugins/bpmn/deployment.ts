import type { Knex } from 'knex';
import type { Clock } from '../../kernel/types.js';
import type { Sandbox } from '../../sandbox/types.js';
import { parseDefinition } from './definitions.js';
import { newId } from './ids.js';
import { DefinitionStore, type DefinitionRow } from './store.js';

/** A deployment's answer: each process of the XML as stored (created: as a new version), and the parse's warnings. */
export interface Deployed {
  definitions: Array<{ definition: DefinitionRow; created: boolean }>;
  warnings: string[];
}

/**
 * Stores each process of the XML as the next version of its process id (one deployment: the
 * same XML, several process ids); a process whose XML is already stored is answered as it is.
 */
export async function deploy(
  db: Knex | Knex.Transaction,
  tenantId: string,
  xml: string,
  sandbox: Sandbox | undefined,
  clock: Clock,
): Promise<Deployed> {
  const parsed = await parseDefinition(xml, sandbox);
  const store = new DefinitionStore(db);
  const deployment = newId('bpy');
  const definitions: Deployed['definitions'] = [];
  for (const meta of parsed.processes) {
    const existing = await store.byHash(tenantId, meta.process_id, parsed.xmlHash);
    if (existing) {
      definitions.push({ definition: existing, created: false });
      continue;
    }
    const version = await store.nextVersion(tenantId, meta.process_id);
    const definition: DefinitionRow = {
      tenant_id: tenantId,
      key: newId('bpd'),
      process_id: meta.process_id,
      version,
      name: meta.name,
      xml_hash: parsed.xmlHash,
      xml,
      meta: { ...meta, deployment },
      created_at: clock.now(),
    };
    await store.insert(definition);
    definitions.push({ definition, created: true });
  }
  return { definitions, warnings: parsed.warnings };
}
