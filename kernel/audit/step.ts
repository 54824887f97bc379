import type { Knex } from 'knex';
import { Counter } from 'prom-client';
import { ACCOUNT_TRAIL, auditEntry, strippedEntry } from './entry.js';
import { RecordBudget } from './rate-limit.js';
import { ConformanceError } from '../manifest/conformance.js';
import { toApiError } from '../errors.js';
import { isDatabaseUnreachable } from '../db/errors.js';
import type { AuditEntry, AuditSink, Call, KernelServices, Reply, StepFactory } from '../types.js';
import type { CombinedCommit } from '../db/transaction-step.js';

function sinkOf(kernel: KernelServices): AuditSink | undefined {
  return kernel.audit;
}

const warned = new WeakSet<KernelServices>();

/** Per kernel: the budget of account-trail records and the counter of those dropped. */
interface AccountTrailGuard {
  budget: RecordBudget;
  dropped: Counter;
}
const guards = new WeakMap<KernelServices, AccountTrailGuard>();

function accountTrailGuard(kernel: KernelServices): AccountTrailGuard {
  let guard = guards.get(kernel);
  if (!guard) {
    const settings = kernel.config.account_trail;
    guard = {
      budget: new RecordBudget(settings.per_second, settings.burst, () => Date.now()),
      dropped: new Counter({
        name: 'audit_unauthenticated_dropped_total',
        help: 'Records of unauthenticated calls not written because they came faster than the account trail takes them.',
        registers: [kernel.metrics],
      }),
    };
    guards.set(kernel, guard);
  }
  return guard;
}

/**
 * Written inside the call's transaction, just before it commits: a committed effect always has
 * its record and a rolled-back one never does (the transaction step calls this).
 */
export async function auditBeforeCommit(
  trx: Knex.Transaction,
  call: Call,
  reply: Reply,
  kernel: KernelServices,
): Promise<void> {
  const sink = sinkOf(kernel);
  if (!sink || call.route.auditClass === 'none') return;
  await sink.write(trx, auditEntry(call, { reply }, kernel.clock.now()));
  call.notes.audited = true;
}

/** The record as a part of a call's combined write (one statement with the effect), when the sink can add one. */
export const auditInCombinedWrite: CombinedCommit = {
  supported(call, kernel) {
    const sink = sinkOf(kernel);
    return !sink || call.route.auditClass === 'none' || sink.addTo !== undefined;
  },
  add(write, call, reply, kernel) {
    const sink = sinkOf(kernel);
    if (!sink?.addTo || call.route.auditClass === 'none') return;
    sink.addTo(write, auditEntry(call, { reply }, kernel.clock.now()));
    write.onCommit(() => (call.notes.audited = true));
  },
};

/**
 * Outermost step of every audited (mutating) route, so calls refused by any later step — 401,
 * 403, 404, 400, 409, 422 — are recorded too. Exactly one record per call: a committed call's
 * record was written in its transaction (auditBeforeCommit); every other outcome (refused,
 * failed, dry run) is written here, after the rollback, in a statement of its own. Records of
 * unauthenticated calls go to the account trail at a bounded rate.
 */
export const auditStep: StepFactory = (route, kernel) => {
  const audited = route.mutating && route.auditClass !== 'none';
  // A read is not audited — unless the in-product agent makes it for a user (transport `agent`):
  // what an agent read on someone's behalf belongs in the trail beside what it changed.
  const agentRead = !route.mutating && route.decl.stream === undefined && route.decl.upgrade === undefined;
  if (!audited && !agentRead) return null;
  if (!audited && !sinkOf(kernel)) return null;
  if (!sinkOf(kernel)) {
    if (kernel.config.profile === 'production') {
      throw new ConformanceError([
        `plugin ${route.plugin}, operation ${route.decl.operation}: a mutating route needs the audit trail; enable the audit plugin`,
      ]);
    }
    if (!warned.has(kernel)) {
      warned.add(kernel);
      kernel.logger.warn(
        'no audit plugin is enabled: mutating calls are not recorded (the production profile refuses this)',
      );
    }
    return null;
  }
  const guard = accountTrailGuard(kernel);
  const write = async (call: Call, entry: AuditEntry): Promise<void> => {
    const sink = sinkOf(kernel) as AuditSink;
    try {
      await sink.write(kernel.db, entry);
    } catch (err) {
      if (isDatabaseUnreachable(err)) throw err;
      // The entry is already made storable; should the database still refuse it, the record is
      // written without anything taken from the request rather than not at all.
      kernel.logger.warn(
        { err, requestId: call.requestId, operation: route.decl.operation },
        'audit record refused; writing it stripped of request content',
      );
      await sink.write(kernel.db, strippedEntry(entry, err instanceof Error ? err.message : String(err)));
    }
    call.notes.audited = true;
  };
  const record = async (call: Call, result: Parameters<typeof auditEntry>[1]): Promise<void> => {
    try {
      const entry = auditEntry(call, result, kernel.clock.now());
      if ('error' in result && result.error.code === 'unavailable') {
        // The call failed because the database cannot be reached: writing its record would only
        // wait out the same deadline again. The record goes to the process log instead.
        kernel.logger.warn(
          { audit: entry },
          'audit record of a call refused while the database is unreachable, logged instead of stored',
        );
        return;
      }
      if (entry.tenantId === ACCOUNT_TRAIL) {
        const allowed = guard.budget.take();
        if (!allowed) {
          guard.dropped.inc();
          return;
        }
        if (allowed.droppedBefore > 0) entry.detail.dropped_before = allowed.droppedBefore;
      }
      await write(call, entry);
    } catch (err) {
      // Nothing was changed (the call's transaction is gone), so the caller still gets its answer.
      kernel.logger.error(
        { err, requestId: call.requestId, operation: route.decl.operation },
        'audit record of a call without effect could not be written',
      );
    }
  };
  const step = async (call: Call, next: () => Promise<Reply>): Promise<Reply> => {
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
  return audited ? step : (call, next) => (call.transport === 'agent' ? step(call, next) : next());
};
