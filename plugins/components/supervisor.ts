import type { Knex } from 'knex';
import {
  CombinedWrite,
  retryDelayMs,
  RunInTransaction,
  type Events,
  type JobContext,
  type JobOutcome,
  type JobSpec,
  type Jobs,
  type RuntimeLog,
} from '../../kernel/plugin/api.js';
import type { ComponentRuntime, DataPlaneStage, RuntimeLogLevel, SourceContext } from './contract.js';
import { CHANGED_TOPIC } from './handlers.js';
import type { ComponentsService } from './service.js';
import { SOURCE_BATCH_MAX, SourceAppender } from './source-appender.js';
import { ComponentStore } from './store.js';

export const SUPERVISOR_JOB = 'components.sources';

type Ending = 'lease' | 'changed' | 'failed';

const keyOf = (tenantId: string, id: string) => `${tenantId}/${id}`;

/**
 * Runs source components. One keyed job: a key per source that should run (`desired_state =
 * running`), so each runs on exactly one instance, the one holding its lease, and moves to
 * another when that instance dies. A run starts the source and lasts while it runs; it ends when
 * the lease is lost, the component changes (stop, restart, new config: the `components.changed`
 * event reaches every instance) or the source calls `fail()` — then the run throws, the component
 * is `failed` with `last_error`, and the job runner runs it again with backoff (1 s doubling, at
 * most a minute) until it starts; then it is `running` again.
 */
export function sourceSupervisor(deps: {
  db: Knex;
  service: ComponentsService;
  events: Events;
  jobs: Jobs;
  logs: RuntimeLog;
  intervalMs: number;
  /** Per-stage timings for /metrics (source_append). */
  timings?: (stage: DataPlaneStage, seconds: number, messages: number) => void;
}) {
  const { db, service, events, jobs, logs } = deps;
  const watchers = new Map<string, () => void>();
  /** Failed runs in a row per source on this instance: the job runner's backoff, shown as the next attempt. */
  const failures = new Map<string, number>();
  const nextAttempt = (key: string): Date => {
    const n = (failures.get(key) ?? 0) + 1;
    failures.set(key, n);
    return new Date(Date.now() + retryDelayMs(n));
  };
  let unsubscribe: (() => void) | undefined;

  const log =
    (tenantId: string, componentId: string) =>
    (level: RuntimeLogLevel, message: string, fields: Readonly<Record<string, unknown>> = {}) => {
      void logs
        .write({ tenantId, level, source: 'components', message, fields: { component: componentId, ...fields } })
        .catch(() => undefined);
    };

  async function run(context: JobContext): Promise<JobOutcome> {
    const slash = context.key.indexOf('/');
    const tenantId = context.key.slice(0, slash);
    const id = context.key.slice(slash + 1);
    const store = new ComponentStore(db);
    const row = await store.get(tenantId, id);
    if (row?.desired_state !== 'running') {
      failures.delete(context.key);
      if (row && row.state !== 'stopped') await store.observe(tenantId, id, 'stopped', null);
      return;
    }
    const type = service.type(row.type);
    if (!type?.create || type.kind !== 'source') {
      const message = `component type "${row.type}" is not available as a source`;
      await store.observe(tenantId, id, 'failed', message, nextAttempt(context.key));
      throw new Error(message);
    }
    const write = log(tenantId, id);
    const stopped = new AbortController();
    const onLeaseLost = () => end('lease');
    let ending: ((why: Ending) => void) | undefined;
    const ended = new Promise<Ending>((resolve) => (ending = resolve));
    let failure: Error | undefined;
    function end(why: Ending): void {
      ending?.(why);
    }
    context.signal.addEventListener('abort', onLeaseLost, { once: true });

    // What the source emits goes in batches, each fenced by the lease: only the lease holder
    // appends, so a former holder that lost the lease cannot commit late. A batch the streams
    // plugin can take as parts of a combined write is one statement (the fence its guard);
    // otherwise, or when the fence found the lease moved, a transaction.
    const component = { tenantId, id, stream: row.stream };
    const appender = new SourceAppender(
      async (batch) => {
        const write = new CombinedWrite();
        jobs.leases.fenceIn(write, context.lease);
        if (await service.emitManyIn(write, db, component, batch)) {
          try {
            await write.commit(db);
            return;
          } catch (err) {
            if (!(err instanceof RunInTransaction)) throw err;
          }
        }
        await db.transaction(async (trx) => {
          if (!(await jobs.leases.fence(trx, context.lease))) throw new Error('the lease of this source was lost');
          await service.emitMany(trx, component, batch);
        });
      },
      SOURCE_BATCH_MAX,
      (count, seconds) => deps.timings?.('source_append', seconds, count),
    );
    const sourceContext: SourceContext = {
      tenantId,
      componentId: id,
      signal: stopped.signal,
      log: write,
      emit: (message) => {
        if (stopped.signal.aborted) return Promise.reject(new Error('the source is stopping'));
        const { dedup_id: dedupId, ...rest } = message;
        return appender.emit(rest, dedupId);
      },
      fail: (error) => {
        failure ??= error;
        end('failed');
      },
    };

    watchers.set(context.key, () => {
      void store
        .get(tenantId, id)
        .then((now) => {
          if (now?.desired_state !== 'running' || now.generation !== row.generation) end('changed');
        })
        .catch(() => undefined);
    });

    let runtime: ComponentRuntime | undefined;
    try {
      const record = await service.record(db, row);
      runtime = await type.create(record.config, { tenantId, componentId: id });
      await runtime.start?.(sourceContext);
    } catch (err) {
      failure = err instanceof Error ? err : new Error(String(err));
      end('failed');
    }
    if (!failure) {
      failures.delete(context.key);
      await store.observe(tenantId, id, 'running', null);
      write('info', 'source started', { type: row.type });
    }
    const why = await ended;
    watchers.delete(context.key);
    context.signal.removeEventListener('abort', onLeaseLost);
    stopped.abort();
    appender.close(new Error('the source is stopping'));
    await runtime
      ?.stop?.()
      .catch((err: unknown) => write('warn', 'source did not stop cleanly', { error: String(err) }));

    if (why === 'failed') {
      const message = failure?.message || 'the source failed';
      const next = nextAttempt(context.key);
      await store.observe(tenantId, id, 'failed', message, next).catch(() => undefined);
      write('error', `source failed: ${message}`, { type: row.type, next_attempt_at: next.toISOString() });
      throw failure ?? new Error(message);
    }
    if (why === 'changed') {
      const now = await store.get(tenantId, id);
      if (now?.desired_state !== 'running') {
        if (now && now.state !== 'stopped') await store.observe(tenantId, id, 'stopped', null);
        write('info', 'source stopped', { type: row.type });
        return;
      }
      return 'more'; // restarted or reconfigured: start again at once
    }
  }

  const spec: JobSpec = {
    name: SUPERVISOR_JOB,
    intervalMs: deps.intervalMs,
    keys: async () =>
      (await new ComponentStore(db).wantedRunning(service.sourceTypeNames())).map((r) => keyOf(r.tenant_id, r.id)),
    run,
  };

  return {
    spec,
    start() {
      unsubscribe = events.subscribe(CHANGED_TOPIC, (event) => {
        const { tenant_id: tenantId, id } = event.payload as { tenant_id: string; id: string };
        watchers.get(keyOf(tenantId, id))?.();
        // A component asked to start becomes a key: read the keys again now, not at the next look.
        jobs.trigger(SUPERVISOR_JOB);
      });
    },
    stop() {
      unsubscribe?.();
    },
  };
}
