import { createHash } from 'node:crypto';
import type { RuntimeMessage } from '../../components/contract.js';

/**
 * What makes outputs the same delivery: the workflow and the input message it processes. Every
 * attempt at that message — a retry after a failed step, a batch processed again after a crash
 * or a lost lease — names its outputs the same, so a consumer that de-duplicates on the id drops
 * exactly the repeats. A deliberate new run (a run replayed through the API) passes its own run id
 * instead: new history, new ids. A redrive needs nothing special: it appends a new message.
 */
export function outputScope(tenantId: string, workflowId: string, inputMessageId: string): string {
  return `${tenantId}\u001f${workflowId}\u001f${inputMessageId}`;
}

/**
 * The id of output number `index` (0-based, in the order the processors emitted them) of the
 * processing named by `scope`: `out_` + 32 hex digits of a SHA-256, short enough for every
 * broker's message-id field (AMQP's is a 255-byte short string).
 */
export function outputId(scope: string, index: number): string {
  return `out_${createHash('sha256').update(`${scope}\u001f${index}`).digest('hex').slice(0, 32)}`;
}

/** The run's outputs, each with its own id; what external sinks carry as message id and idempotency key. */
export function withOutputIds(outputs: readonly RuntimeMessage[], scope: string): RuntimeMessage[] {
  return outputs.map((m, i) => ({ ...m, id: outputId(scope, i) }));
}
