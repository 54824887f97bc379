import type { RuntimeLog } from '../../../kernel/plugin/api.js';
import type { StepContext } from '../../components/contract.js';

/**
 * What a step sees of its run: who it runs for, a signal to stop, and a log that lands in
 * `GET /logs` tagged with the workflow and the run (so a user can find a run's lines).
 */
export function stepContext(
  logs: RuntimeLog,
  tenantId: string,
  workflowId: string,
  runId: string,
  signal: AbortSignal,
): StepContext {
  return {
    tenantId,
    workflowId,
    runId,
    signal,
    log: (level, message, fields) =>
      void logs.write({
        tenantId,
        level,
        source: 'workflows',
        message,
        fields: { workflow: workflowId, run: runId, ...(fields ?? {}) },
      }),
  };
}
