import type { Knex } from 'knex';
import { auditEntry } from '../../audit/entry.js';
import { ConformanceError } from '../../manifest/conformance.js';
import { toApiError } from '../../errors.js';
import type { AuditSink, Call, KernelServices, Reply, StepFactory } from '../../types.js';

function sinkOf(kernel: KernelServices): AuditSink | undefined {
  return kernel.audit;
}

const warned = new WeakSet<KernelServices>();

/**
 * Written inside the call's transaction, just before it commits: a committed effect always has
 * its record and a rolled-back one never does (the transaction step calls this).
 */
export async function auditBeforeCommit(trx: Knex.Transaction, call: Call, reply: Reply, kernel: KernelServices): Promise<void> {
  const sink = sinkOf(kernel);
  if (!sink || call.route.auditClass === 'none') return;
  await sink.write(trx, auditEntry(call, { reply }, kernel.clock.now()));
  call.notes.audited = true;
}

/**
 * Outermost step of every audited (mutating) route, so calls refused by any later step — 401,
 * 403, 404, 400, 409, 422 — are recorded too. Exactly one record per call: a committed call's
 * record was written in its transaction (auditBeforeCommit); every other outcome (refused,
 * failed, dry run) is written here, after the rollback, in a statement of its own.
 */
export const auditStep: StepFactory = (route, kernel) => {
  if (!route.mutating || route.auditClass === 'none') return null;
  if (!sinkOf(kernel)) {
    if (kernel.config.profile === 'production') {
      throw new ConformanceError([`plugin ${route.plugin}, operation ${route.decl.operation}: a mutating route needs the audit trail; enable the audit plugin`]);
    }
    if (!warned.has(kernel)) {
      warned.add(kernel);
      kernel.logger.warn('no audit plugin is enabled: mutating calls are not recorded (the production profile refuses this)');
    }
    return null;
  }
  const record = async (call: Call, result: Parameters<typeof auditEntry>[1]): Promise<void> => {
    const sink = sinkOf(kernel) as AuditSink;
    try {
      await sink.write(kernel.db, auditEntry(call, result, kernel.clock.now()));
      call.notes.audited = true;
    } catch (err) {
      // Nothing was changed (the call's transaction is gone), so the caller still gets its answer.
      kernel.logger.error({ err, requestId: call.requestId, operation: route.decl.operation }, 'audit record of a call without effect could not be written');
    }
  };
  return async (call, next) => {
    let reply: Reply;
    try {
      reply = await next();
    } catch (err) {
      if (!call.notes.audited) await record(call, { error: toApiError(err) });
      throw err;
    }
    if (!call.notes.audited) await record(call, { reply });
    return reply;
  };
};
