import type { Knex } from 'knex';

/** A variable as the API shows it. */
export interface Variable {
  name: string;
  value: string;
  description: string;
  created_at: string;
  updated_at: string;
}

interface VariableRow {
  tenant_id: string;
  name: string;
  value: string;
  description: string;
  created_at: Date | string;
  updated_at: Date | string;
}

function toVariable(row: VariableRow): Variable {
  return {
    name: row.name,
    value: row.value,
    description: row.description,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

export class VariableStore {
  constructor(private readonly db: Knex | Knex.Transaction) {}

  async list(tenantId: string, fetch: number, afterName?: string): Promise<Variable[]> {
    const query = this.db('tenant_variables').where({ tenant_id: tenantId }).orderBy('name').limit(fetch);
    if (afterName !== undefined) query.andWhere('name', '>', afterName);
    return ((await query) as VariableRow[]).map(toVariable);
  }

  async get(tenantId: string, name: string, forUpdate = false): Promise<Variable | undefined> {
    const query = this.db('tenant_variables').where({ tenant_id: tenantId, name }).first();
    if (forUpdate) query.forUpdate();
    const row = (await query) as VariableRow | undefined;
    return row && toVariable(row);
  }

  async values(tenantId: string, names: readonly string[]): Promise<Map<string, string>> {
    if (names.length === 0) return new Map();
    const rows = (await this.db('tenant_variables')
      .where({ tenant_id: tenantId })
      .whereIn('name', [...names])
      .select('name', 'value')) as Array<{ name: string; value: string }>;
    return new Map(rows.map((r) => [r.name, r.value]));
  }

  /** Sets a variable, creating it or changing its value and description. */
  async put(
    tenantId: string,
    name: string,
    body: { value: string; description: string },
    now: Date,
  ): Promise<Variable> {
    const [row] = (await this.db('tenant_variables')
      .insert({ tenant_id: tenantId, name, ...body, created_at: now, updated_at: now })
      .onConflict(['tenant_id', 'name'])
      .merge({ ...body, updated_at: now })
      .returning('*')) as VariableRow[];
    return toVariable(row as VariableRow);
  }

  // RETURNING: knex-pglite answers a bare DELETE with its raw result, not a row count.
  async remove(tenantId: string, name: string): Promise<boolean> {
    return (
      (await this.db('tenant_variables').where({ tenant_id: tenantId, name }).delete().returning('name')).length > 0
    );
  }
}
