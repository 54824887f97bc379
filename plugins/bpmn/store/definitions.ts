import type { DefinitionMeta } from '../definitions.js';
import { type Db, iso } from './common.js';

/** Definitions: versioned per process id (bpmn_definitions). */

export interface DefinitionRow {
  tenant_id: string;
  key: string;
  process_id: string;
  version: number;
  name: string | null;
  xml_hash: string;
  xml: string;
  meta: DefinitionMeta;
  created_at: Date;
}

export function definitionView(row: DefinitionRow): Record<string, unknown> {
  return {
    key: row.key,
    tenant_id: row.tenant_id,
    process_id: row.process_id,
    version: row.version,
    name: row.name,
    executable: row.meta?.executable !== false,
    deployment: row.meta?.deployment ?? null,
    created_at: iso(row.created_at),
  };
}

export class DefinitionStore {
  constructor(private readonly db: Db) {}

  byHash(tenantId: string, processId: string, hash: string): Promise<DefinitionRow | undefined> {
    return this.db('bpmn_definitions').where({ tenant_id: tenantId, process_id: processId, xml_hash: hash }).first();
  }

  async nextVersion(tenantId: string, processId: string): Promise<number> {
    const row = await this.db('bpmn_definitions')
      .where({ tenant_id: tenantId, process_id: processId })
      .max({ v: 'version' })
      .first();
    return Number(row?.v ?? 0) + 1;
  }

  async insert(row: DefinitionRow): Promise<void> {
    await this.db('bpmn_definitions').insert({ ...row, meta: JSON.stringify(row.meta) });
  }

  get(tenantId: string, key: string): Promise<DefinitionRow | undefined> {
    return this.db('bpmn_definitions').where({ tenant_id: tenantId, key }).first();
  }

  /** The key of the given version of a process, or of its latest (the XML is not read: definitions are cached by key). */
  async keyOf(tenantId: string, processId: string, version?: number): Promise<{ key: string } | undefined> {
    // Every start asks this (the rest of its definition is cached by key), so it is plain SQL, not compiled at every call.
    const result =
      version !== undefined
        ? await this.db.raw('SELECT key FROM bpmn_definitions WHERE tenant_id = ? AND process_id = ? AND version = ?', [
            tenantId,
            processId,
            version,
          ])
        : await this.db.raw(
            'SELECT key FROM bpmn_definitions WHERE tenant_id = ? AND process_id = ? ORDER BY version DESC LIMIT 1',
            [tenantId, processId],
          );
    return (result.rows as Array<{ key: string }>)[0];
  }

  list(
    tenantId: string,
    filters: { process_id?: string },
    after: string | undefined,
    fetch: number,
  ): Promise<DefinitionRow[]> {
    const query = this.db('bpmn_definitions')
      .select('tenant_id', 'key', 'process_id', 'version', 'name', 'meta', 'created_at')
      .where({ tenant_id: tenantId })
      .orderBy('key')
      .limit(fetch);
    if (filters.process_id !== undefined) query.andWhere({ process_id: filters.process_id });
    if (after !== undefined) query.andWhere('key', '>', after);
    return query;
  }
}
