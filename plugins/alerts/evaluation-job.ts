import type { Logger } from 'pino';
import type { JobSpec } from '../../kernel/plugin/api.js';
import { deliverDue, type DeliveryOptions } from './deliver.js';
import { evaluateAll, type EvaluationDeps } from './evaluate.js';

/**
 * The `alerts.evaluate` job: on the instance holding its lease, every `intervalMs` it steps each
 * rule's state machine, then sends the notifications that are due.
 */
export function evaluationJob(
  intervalMs: number,
  evaluation: EvaluationDeps,
  delivery: DeliveryOptions,
  logger: Logger,
): JobSpec {
  return {
    name: 'alerts.evaluate',
    intervalMs,
    async run({ lease, signal }) {
      await evaluateAll(lease, signal, evaluation);
      await deliverDue(evaluation.db, signal, delivery, logger);
    },
  };
}
