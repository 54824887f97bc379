import { contribute, coreServices, createPlugin, fromRoot, inUseCheck } from '../../kernel/plugin/api.js';
import { migrationChecks } from '../migration/contract.js';
import { variableSource } from './contract.js';
import { variablesPresent } from './gate-check.js';
import { variableHandlers } from './handlers.js';
import { createVariables } from './migrations/001_variables.js';
import { VariableStore } from './store.js';

/**
 * Tenant variables: named values (a routing key, a URL) that stay each tenant's own. Component
 * and workflow configs refer to them as `${var:NAME}`, resolved when the config is used;
 * promotion never copies them, and its gate (`variables_present`) names those the target lacks.
 */
export default createPlugin({
  id: 'variables',
  manifest: fromRoot('manifests', 'variables.json'),
  migrations: [createVariables],
  deps: { clock: coreServices.clock, extensions: coreServices.extensions },
  setup({ clock, extensions }) {
    return {
      handlers: variableHandlers(clock, inUseCheck(extensions)),
      offers: [variableSource],
      contributions: [
        contribute(variableSource, { values: (db, tenantId, names) => new VariableStore(db).values(tenantId, names) }),
        contribute(migrationChecks, variablesPresent),
      ],
    };
  },
});
