import type { Knex } from 'knex';
import { type Db, iso } from './common.js';

/** Incidents: where an instance stopped until an operator resolves it. */

export interface IncidentRow {
  tenant_id: string;
  id: string;
  instance_id: string;
  activity_id: string | null;
  message: string;
  state: 'open' | 'resolved';
  created_at: Date;
  resolved_at: Date | null;
}

export function incidentView(row: IncidentRow): Record<string, unknown> {
  return {
    id: row.id,
    tenant_id: row.tenant_id,
    instance_id: row.instance_id,
    activity_id: row.activity_id,
    message: row.message,
    state: row.state,
    created_at: iso(row.created_at),
    resolved_at: iso(row.resolved_at),
  };
}

export class IncidentStore {
  constructor(private readonly db: Db) {}

  async insert(row: IncidentRow): Promise<void> {
    await this.insertQuery(row);
  }

  insertQuery(row: IncidentRow): Knex.QueryBuilder {
    return this.db('bpmn_incidents').insert(row);
  }

  get(tenantId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<IncidentRow | undefined> {
    const query = this.db('bpmn_incidents').where({ tenant_id: tenantId, id }).first();
    return options.forUpdate ? query.forUpdate() : query;
  }

  async resolveOpen(tenantId: string, instanceId: string, now: Date): Promise<void> {
    await this.db('bpmn_incidents')
      .where({ tenant_id: tenantId, instance_id: instanceId, state: 'open' })
      .update({ state: 'resolved', resolved_at: now });
  }

  list(
    tenantId: string,
    filters: { state?: string; instance_id?: string },
    after: string | undefined,
    fetch: number,
  ): Promise<IncidentRow[]> {
    const query = this.db('bpmn_incidents').where({ tenant_id: tenantId }).orderBy('id').limit(fetch);
    for (const [column, value] of Object.entries(filters)) if (value !== undefined) query.andWhere(column, value);
    if (after !== undefined) query.andWhere('id', '>', after);
    return query;
  }
}
