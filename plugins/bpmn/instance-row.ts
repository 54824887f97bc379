import { newId } from './ids.js';
import type { DefinitionRow, InstanceRow } from './store.js';

/** What a new instance starts with. */
export interface NewInstance {
  variables: Record<string, unknown>;
  businessKey: string | null;
  /** The instance this one replays: from the start, or from its activity `replayFrom` with the engine state saved there. */
  replayOf?: string;
  replayFrom?: string;
  engineState?: unknown;
  /** The instance whose call activity (its execution) started this one. */
  parent?: { id: string; executionId: string };
}

/** A new instance's row before its first advance: it is written once, after that advance. */
export function newInstanceRow(
  tenantId: string,
  definition: DefinitionRow,
  options: NewInstance,
  now: Date,
): InstanceRow {
  return {
    tenant_id: tenantId,
    id: newId('bpi'),
    definition_key: definition.key,
    process_id: definition.process_id,
    version: definition.version,
    business_key: options.businessKey,
    state: 'active',
    variables: options.variables,
    waiting: [],
    state_revision: options.engineState ? 0 : null,
    revision: 0,
    replay_of: options.replayOf ?? null,
    replay_from: options.replayFrom ?? null,
    parent_id: options.parent?.id ?? null,
    parent_execution_id: options.parent?.executionId ?? null,
    created_at: now,
    updated_at: now,
    ended_at: null,
  };
}
