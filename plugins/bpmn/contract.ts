import type { Knex } from 'knex';
import { extensionPoint } from '../../kernel/plugin/api.js';

/**
 * What the bpmn plugin offers other plugins. A service task's `implementation` attribute is
 * `<scheme>:<target>` (`stream:orders`); the publisher contributed for that scheme does the work
 * in the advancing transaction, so the task completes exactly when its effect commits. The streams
 * plugin contributes `stream` (append to a stream). A plain JavaScript plugin contributes with
 * `{ point: { id: 'bpmn.publishers' }, value: { scheme, publish } }`.
 */
export interface BpmnPublication {
  tenantId: string;
  /** What follows the scheme in the implementation attribute. */
  target: string;
  key: string | null;
  /** The instance's variables. */
  value: unknown;
  headers: Record<string, string>;
}

export interface BpmnPublisher {
  readonly scheme: string;
  /** Throws when the target does not exist or refuses the message (the task then retries, then raises an incident). */
  publish(trx: Knex.Transaction, publication: BpmnPublication): Promise<Record<string, unknown>>;
}

export const bpmnPublishers = extensionPoint<BpmnPublisher>('bpmn.publishers');
