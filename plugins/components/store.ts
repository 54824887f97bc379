import type { Knex } from 'knex';
import { isUniqueViolation } from '../../kernel/plugin/api.js';
import { ApiError } from '../../kernel/errors.js';

export type ComponentState = 'stopped' | 'running' | 'failed';

export interface Component {
  id: string;
  tenant_id: string;
  name: string;
  description: string;
  state: ComponentState;
  tags: string[];
  config: Record<string, unknown>;
  revision: number;
  created_at: string;
  updated_at: string;
}

interface Row extends Omit<Component, 'created_at' | 'updated_at'> {
  created_at: Date | string;
  updated_at: Date | string;
}

export interface ComponentFields {
  name: string;
  description?: string;
  tags?: string[];
  config?: Record<string, unknown>;
}

export interface ListFilter {
  state?: string;
  tag?: string;
  afterId?: string;
  fetch: number;
}

const COLUMNS = ['id', 'tenant_id', 'name', 'description', 'state', 'tags', 'config', 'revision', 'created_at', 'updated_at'];

function iso(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

function toComponent(row: Row): Component {
  return { ...row, created_at: iso(row.created_at), updated_at: iso(row.updated_at) };
}

/** The components table. Every query is keyed by tenant first (DESIGN.md "Storage"). */
export class ComponentStore {
  constructor(private readonly db: Knex | Knex.Transaction) {}

  async list(tenantId: string, filter: ListFilter): Promise<Component[]> {
    const query = this.db('components').select(COLUMNS).where({ tenant_id: tenantId }).orderBy('id', 'asc').limit(filter.fetch);
    if (filter.state) query.andWhere('state', filter.state);
    if (filter.tag) query.andWhereRaw('tags @> ARRAY[?]::text[]', [filter.tag]);
    if (filter.afterId !== undefined) query.andWhere('id', '>', filter.afterId);
    return ((await query) as Row[]).map(toComponent);
  }

  async get(tenantId: string, id: string): Promise<Component | undefined> {
    const row = (await this.db('components').select(COLUMNS).where({ tenant_id: tenantId, id }).first()) as Row | undefined;
    return row && toComponent(row);
  }

  async insert(tenantId: string, id: string, fields: ComponentFields, now: Date): Promise<Component> {
    try {
      const [row] = (await this.db('components')
        .insert({
          tenant_id: tenantId,
          id,
          name: fields.name,
          description: fields.description ?? '',
          tags: fields.tags ?? [],
          config: JSON.stringify(fields.config ?? {}),
          created_at: now,
          updated_at: now,
        })
        .returning(COLUMNS)) as Row[];
      return toComponent(row as Row);
    } catch (err) {
      if (isUniqueViolation(err)) throw new ApiError('duplicate_identifier', `A component with id "${id}" already exists.`);
      throw err;
    }
  }

  async update(tenantId: string, id: string, changes: Partial<ComponentFields> & { state?: ComponentState }, now: Date): Promise<Component | undefined> {
    const patch: Record<string, unknown> = { updated_at: now, revision: this.db.raw('revision + 1') };
    if (changes.name !== undefined) patch.name = changes.name;
    if (changes.description !== undefined) patch.description = changes.description;
    if (changes.tags !== undefined) patch.tags = changes.tags;
    if (changes.config !== undefined) patch.config = JSON.stringify(changes.config);
    if (changes.state !== undefined) patch.state = changes.state;
    const [row] = (await this.db('components').where({ tenant_id: tenantId, id }).update(patch).returning(COLUMNS)) as Row[];
    return row && toComponent(row);
  }

  async remove(tenantId: string, id: string): Promise<boolean> {
    // RETURNING rather than the affected-row count: knex-pglite reports deletes as a raw result.
    const deleted = (await this.db('components').where({ tenant_id: tenantId, id }).delete().returning('id')) as unknown[];
    return deleted.length > 0;
  }
}
