/* Runs on either side: the main thread (definitions with service or script tasks) and the engine threads (thread-engine.ts). */
import { EventEmitter } from 'node:events';
import type { Engine } from 'bpmn-engine';
import type { Knex } from 'knex';
import { ActivityWork } from './activity-work.js';
import type { DefinitionMeta } from './definitions.js';
import { type EngineEventContent, sharedExpressions, sharedLogger, userVariables } from './engine-library.js';
import { recordingTimers, scriptRegistry } from './engine-scripts.js';
import type { Advance, EngineDeps, HistoryEntry, Input, InstanceRef, Wait } from './engine-types.js';
import { loadedBpmnLibraries } from './libraries.js';
import { taskAssignment } from './task-assignment.js';

export type { Advance, EngineDeps, HistoryEntry, Incident, Input, InstanceRef, Wait } from './engine-types.js';

/**
 * One instance's engine, driven from outside: bpmn-engine runs the BPMN semantics, and this
 * class makes it durable and bounded. Timers never schedule anything in this process (their due
 * time becomes a row that any kernel fires by resuming the saved state); script tasks and
 * conditions run in the one sandbox (the engine's own script runner, node:vm, is replaced);
 * service tasks publish through the contributed publishers in the caller's transaction; an
 * advance stops once nothing is left to do but wait, or after `maxSteps` activities.
 */

class StepLimit extends Error {}

export class InstanceEngine {
  private readonly engine: InstanceType<typeof Engine>;
  private readonly listener = new EventEmitter();
  private readonly waits = new Map<string, Wait>();
  private readonly work: ActivityWork;
  private history = new Map<string, HistoryEntry>();
  private steps = 0;
  private ended = false;
  private failure: Error | undefined;
  private trx: Knex.Transaction | undefined;
  /** Set once executed or resumed: a kept engine takes the next input without a resume. */
  private running = false;
  /** Whether the next activity to start records the variables (a replay from the start reads them there); cloning them at every activity would cost every advance. */
  private variablesOfFirst = false;

  constructor(
    private readonly deps: EngineDeps,
    private readonly meta: DefinitionMeta,
    sourceContext: unknown,
    instance: InstanceRef,
    engineState: unknown,
    variables: Record<string, unknown>,
  ) {
    this.work = new ActivityWork({
      deps,
      meta,
      instance,
      waits: this.waits,
      variables: () => this.variables(),
      transaction: () => this.trx,
    });
    // Loaded by now: the service awaits bpmnLibraries() for the definition's context first.
    const { Engine } = loadedBpmnLibraries();
    this.engine = new Engine({
      name: instance.id,
      sourceContext,
      variables,
      timers: recordingTimers(),
      scripts: scriptRegistry((activityId, script, scope, callback) =>
        this.work.runScript(activityId, script, scope, callback),
      ),
      expressions: sharedExpressions(),
      extensions: {
        runtimeServices: (activity: { type: string; id: string; behaviour: Record<string, unknown> }) =>
          this.work.bindService(activity),
      },
      settings: { enableDummyService: false },
      Logger: sharedLogger,
    } as never);
    this.engine.on('end', () => (this.ended = true));
    this.engine.on('error', (err: Error) => (this.failure ??= err));
    this.listen();
    if (engineState) {
      this.engine.recover(engineState as never);
    }
  }

  /** Runs one input until the instance only waits (or ends, or fails), in `trx` (undefined in an engine thread: no service tasks there). */
  async advance(
    input: Input,
    trx: Knex.Transaction | undefined,
    options: { variablesOfFirst?: boolean } = {},
  ): Promise<Advance> {
    this.trx = trx;
    this.variablesOfFirst = Boolean(options.variablesOfFirst);
    this.history = new Map();
    this.work.incidents = [];
    this.steps = 0;
    this.work.jobOutcome = input.kind === 'job' ? input : undefined;
    try {
      if (input.kind === 'start') {
        await this.engine.execute({ listener: this.listener } as never);
      } else if (!this.running) {
        await this.engine.resume({ listener: this.listener } as never);
      } else if (input.kind === 'job') {
        // A kept engine: its task still waits for this job; answer it as a resumed one would be.
        const callback = this.work.pendingJobs.get(input.executionId);
        this.work.jobOutcome = undefined;
        if (callback) this.work.answerJob(input, callback);
      }
      this.running = true;
      if (input.kind === 'resume' && input.variables) {
        await this.settle();
        Object.assign(this.variables(), input.variables);
      }
      if (input.kind === 'signal') {
        await this.settle();
        if (input.variables) Object.assign(this.variables(), input.variables);
        this.engine.execution.signal({
          id: input.ref,
          ...(input.executionId ? { executionId: input.executionId } : {}),
        });
      }
      await this.settle();
    } catch (err) {
      this.failure ??= err as Error;
    } finally {
      if (this.failure && /Maximum call stack/.test(this.failure.message))
        this.failure = new StepLimit(
          `The instance ran out of stack before reaching a wait state (a loop without a wait state?); stopped.`,
        );
      this.trx = undefined;
    }
    const history = [...this.history.values()];
    if (this.failure) {
      const activityId = (this.failure as { source?: { content?: { id?: string } } }).source?.content?.id ?? null;
      return {
        state: 'incident',
        waits: [],
        history,
        incidents: [...this.work.incidents, { activityId, message: this.failure.message }],
        variables: userVariables(this.variables()),
      };
    }
    // An ended instance has no state worth keeping (null: nothing to resume, nothing failed).
    const engineState = this.ended ? null : await this.engine.getState();
    const state = this.ended ? 'completed' : this.work.incidents.length > 0 ? 'incident' : 'active';
    return {
      state,
      waits: this.ended ? [] : [...this.waits.values()],
      history,
      incidents: this.work.incidents,
      variables: userVariables(this.variables()),
      engineState,
    };
  }

  /**
   * The process's variables. Each running process has its own environment (cloned from the
   * engine's at start), which its activities, scripts and conditions read; before the process
   * runs, the engine's.
   */
  private variables(): Record<string, unknown> {
    const definitions = (this.engine.execution?.definitions ?? []) as unknown as Array<{
      getRunningProcesses?: () => Array<{ environment: { variables: Record<string, unknown> } }>;
    }>;
    const process = definitions[0]?.getRunningProcesses?.()[0];
    const env = (process?.environment ?? this.engine.execution?.environment ?? this.engine.environment) as {
      variables: Record<string, unknown>;
    };
    return env.variables;
  }

  /** Waits until no script, service or condition is in flight and the engine has nothing left to do. */
  private async settle(): Promise<void> {
    for (;;) {
      await new Promise((resolve) => setImmediate(resolve));
      if (this.ended || this.failure) break;
      if (this.work.inflight === 0) {
        await new Promise((resolve) => setImmediate(resolve));
        if (this.work.inflight === 0) break;
      }
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  }

  private listen(): void {
    const on = (
      event: string,
      handler: (api: {
        id: string;
        type: string;
        name?: string;
        executionId: string;
        content: EngineEventContent;
      }) => void,
    ) => this.listener.on(event, handler);
    on('activity.start', (api) => {
      if (api.type.endsWith('EventDefinition')) return;
      this.steps += 1;
      const entry: HistoryEntry = {
        executionId: api.executionId,
        activityId: api.id,
        type: api.type,
        name: api.name ?? null,
        startedAt: new Date(),
      };
      if (this.variablesOfFirst) {
        entry.variables = userVariables(this.variables());
        this.variablesOfFirst = false;
      }
      this.history.set(api.executionId, entry);
      if (this.steps > this.deps.maxSteps) {
        const err = new StepLimit(
          `The instance ran ${this.deps.maxSteps} activities without waiting (a loop without a wait state?); stopped.`,
        );
        this.failure ??= err;
        throw err;
      }
    });
    const dropWaits = (executionId: string) => {
      for (const key of [...this.waits.keys()])
        if (key === executionId || key.startsWith(`${executionId}_`)) this.waits.delete(key);
      for (const key of [...this.work.pendingJobs.keys()])
        if (key === executionId || key.startsWith(`${executionId}_`)) this.work.pendingJobs.delete(key);
    };
    // An event definition reports under its own execution (`<parent>_<index>`) or its parent's;
    // either way the history row is the parent activity's.
    const historyId = (api: { type: string; executionId: string }) =>
      api.type.endsWith('EventDefinition')
        ? (/^(.*_[0-9a-f]{10})_\d+$/.exec(api.executionId)?.[1] ?? api.executionId)
        : api.executionId;
    const close = (outcome: string) => (api: { id: string; type: string; name?: string; executionId: string }) => {
      dropWaits(api.executionId);
      const executionId = historyId(api);
      const entry = this.history.get(executionId);
      // The first outcome in an advance wins: an activity that ended also leaves, one interrupted only leaves.
      if (entry?.outcome) return;
      const type = api.type.endsWith('EventDefinition') ? 'bpmn:Event' : api.type;
      this.history.set(executionId, {
        ...(entry ?? { executionId, activityId: api.id, type, name: api.name ?? null }),
        endedAt: new Date(),
        outcome,
      });
    };
    on('activity.end', close('completed'));
    on('activity.discard', close('discarded'));
    on('activity.error', close('failed'));
    on('activity.leave', close('interrupted'));
    on('activity.stop', (api) => dropWaits(api.executionId));
    // A multi-instance iteration that took its signal ends without an activity.end of its own (only
    // the whole activity ends, after its last iteration): its wait goes when the signal is consumed.
    on('activity.consumed', (api) => dropWaits(api.executionId));
    on('activity.wait', (api) => {
      const content = api.content;
      // A manual task is done outside any system: it passes, as in Camunda (bpmn-engine would wait for a signal).
      if (api.type === 'bpmn:ManualTask') {
        (api as unknown as { signal(): void }).signal();
        return;
      }
      if (api.type === 'bpmn:UserTask') {
        this.waits.set(api.executionId, {
          kind: 'task',
          activityId: api.id,
          executionId: api.executionId,
          name: api.name ?? null,
          ...taskAssignment(this.meta.tasks?.[api.id], userVariables(this.variables())),
        });
      } else if (content.message && (api.type === 'bpmn:ReceiveTask' || api.type === 'bpmn:MessageEventDefinition')) {
        this.waits.set(api.executionId, {
          kind: 'message',
          activityId: api.id,
          executionId: api.executionId,
          ref: content.message.id,
          name: content.message.name ?? content.message.id,
        });
      } else if (content.signal && api.type === 'bpmn:SignalEventDefinition') {
        this.waits.set(api.executionId, {
          kind: 'signal',
          activityId: api.id,
          executionId: api.executionId,
          ref: content.signal.id,
          name: content.signal.name ?? content.signal.id,
        });
      }
    });
    on('activity.call', (api) => {
      const call = this.meta.calls?.[api.id];
      const processId = call?.process_id ?? api.content.calledElement;
      // A process of the same file is the engine's own to run.
      if (typeof processId !== 'string' || (this.meta.local_processes ?? []).includes(processId)) return;
      this.waits.set(api.executionId, {
        kind: 'call',
        activityId: api.id,
        executionId: api.executionId,
        processId,
        ...(call?.version !== undefined ? { version: call.version } : {}),
      });
    });
    on('activity.timer', (api) => {
      const expireAt = api.content.expireAt ? new Date(api.content.expireAt) : undefined;
      if (expireAt)
        this.waits.set(api.executionId, {
          kind: 'timer',
          activityId: api.id,
          executionId: api.executionId,
          dueAt: expireAt,
        });
    });
  }

  /** Whether this engine's task waits for the job of `executionId` (a kept engine can take its outcome directly). */
  awaitsJob(executionId: string): boolean {
    return this.work.pendingJobs.has(executionId);
  }
}
