import { inJsonbOrder, type CombinedWrite } from '../../kernel/plugin/api.js';
import { duplicate, type ComponentRow, type NewComponent } from './store.js';

/**
 * ComponentStore.insert as a part of a combined write: nothing read back, so the row is the one the
 * database will hold (its defaults filled in here, config in jsonb's key order). The unique key
 * refuses a taken id by writing nothing: the part is required, so the call answers the same 409.
 */
export function insertComponentIn(
  write: CombinedWrite,
  tenantId: string,
  id: string,
  fields: NewComponent,
  now: Date,
): ComponentRow {
  const state = fields.running ? 'running' : 'stopped';
  const row: ComponentRow = {
    id,
    tenant_id: tenantId,
    name: fields.name,
    description: fields.description ?? '',
    type: fields.type,
    stream: fields.stream,
    state,
    desired_state: state,
    last_error: null,
    state_since: now,
    next_attempt_at: null,
    tags: fields.tags ?? [],
    config: inJsonbOrder(fields.config),
    secrets: fields.secrets,
    secret_fields: fields.secret_fields,
    generation: 0,
    revision: 1,
    created_at: now,
    updated_at: now,
  };
  write.add(
    'component',
    `INSERT INTO components (tenant_id, id, name, description, tags, type, stream, config, secrets, secret_fields,
       state, desired_state, state_since, created_at, updated_at)
     VALUES (?, ?, ?, ?, ARRAY(SELECT jsonb_array_elements_text(?::jsonb)), ?, ?, ?::jsonb, ?,
       ARRAY(SELECT jsonb_array_elements_text(?::jsonb)), ?, ?, ?, ?, ?)
     ON CONFLICT DO NOTHING RETURNING 1`,
    [
      tenantId,
      id,
      row.name,
      row.description,
      JSON.stringify(row.tags),
      row.type,
      row.stream,
      JSON.stringify(fields.config),
      row.secrets,
      JSON.stringify(row.secret_fields),
      state,
      state,
      now,
      now,
      now,
    ],
    { required: () => duplicate(id) },
  );
  return row;
}
