import type { MigrationGateCheck } from '../migration/contract.js';
import { referencedVariables } from './contract.js';
import { VariableStore } from './store.js';

/**
 * The promotion gate's `variables_present`: every `${var:NAME}` the bundle refers to is set in
 * the target. Variables never travel in a bundle (they are what stays the target's own), so a
 * missing one is named, with where to set it, before the apply.
 */
export const variablesPresent: MigrationGateCheck = {
  check: 'variables_present',
  async run(db, bundle, targetTenantId) {
    const names = referencedVariables(bundle.resources);
    const set = await new VariableStore(db).values(targetTenantId, names);
    const missing = names.filter((n) => !set.has(n));
    return {
      check: 'variables_present',
      ok: missing.length === 0,
      detail:
        names.length === 0
          ? 'the bundle refers to no variable'
          : missing.length === 0
            ? `${names.length} variable(s) referred to (${names.join(', ')}), each set on the target`
            : `the target has no variable ${missing.join(', ')}; set each there first (PUT /variables/{name} in the target tenant)`,
      ...(missing.length > 0 ? { missing } : {}),
    };
  },
};
