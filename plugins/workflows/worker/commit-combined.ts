import { CombinedWrite, RunInTransaction } from '../../../kernel/plugin/api.js';
import type { WorkflowStreams } from '../contract.js';
import { rollUpIn } from '../dashboard/hourly.js';
import { recordRunsIn } from '../run-store.js';
import type { Prepared, Written } from './commit.js';
import type { WorkerOptions } from './options.js';
import type { Outcome } from './outcome.js';
import { recordsOf } from './records.js';

/**
 * Whether the batch commits as one statement (writeCombined): the common case of a batch that
 * went through, writes no stream sink (those read codecs and stream rows as they append) and
 * clears no retry. Anything else takes the transaction.
 */
export function combinable(streams: WorkflowStreams, b: Prepared): boolean {
  return (
    streams.commitIn !== undefined &&
    b.failed === undefined &&
    b.retry === null &&
    b.outcomes.length > 0 &&
    b.pipeline.sinks.every((sink) => sink.kind !== 'stream')
  );
}

/**
 * The batch's transaction as ONE statement (a combined write): the lease fence as its guard, the
 * runs, the deliveries, the offset's move and the hourly counters as its parts, all or none. On
 * the embedded database that is one statement where the transaction took six (BEGIN, the fence,
 * three writes, COMMIT); on a server, one round trip. When the fence or the offset's check finds
 * something moved, nothing was written and undefined sends the batch to the transaction, which
 * reads what moved and answers as it always did.
 */
export async function writeCombined(
  o: WorkerOptions,
  streams: WorkflowStreams,
  b: Prepared,
): Promise<Written | undefined> {
  const now = o.clock.now();
  const { runs, deliveries, counted } = recordsOf(b, b.outcomes, now);
  const next = (b.outcomes.at(-1) as Outcome).message.offset + 1;
  const write = new CombinedWrite();
  o.jobs.leases.fenceIn(write, b.lease);
  recordRunsIn(write, b.tenantId, runs, now);
  streams.commitIn?.(write, b.input, b.workflowId, b.partition, b.committed, next, deliveries);
  rollUpIn(write, { tenantId: b.tenantId, workflowId: b.workflowId, at: now }, counted);
  try {
    await write.commit(o.db);
  } catch (err) {
    if (err instanceof RunInTransaction) return undefined;
    throw err;
  }
  return { count: 0, next, retry: null };
}
