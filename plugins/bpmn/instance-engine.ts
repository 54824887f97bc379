/* Runs on either side: the main thread (definitions with service or script tasks) and the engine threads (thread-engine.ts). */
import { EventEmitter } from 'node:events';
import type { Engine } from 'bpmn-engine';
import type { Knex } from 'knex';
import type { DefinitionMeta } from './definitions.js';
import {
  type EngineEventContent,
  isPlainObject,
  sharedExpressions,
  sharedLogger,
  userVariables,
} from './engine-library.js';
import { type RegisteredScript, recordingTimers, scriptRegistry } from './engine-scripts.js';
import type { Advance, EngineDeps, HistoryEntry, Incident, Input, InstanceRef, Wait } from './engine-types.js';
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
  private history = new Map<string, HistoryEntry>();
  private incidents: Incident[] = [];
  private inflight = 0;
  private steps = 0;
  private ended = false;
  private failure: Error | undefined;
  private trx: Knex.Transaction | undefined;
  /** Set once executed or resumed: a kept engine takes the next input without a resume. */
  private running = false;
  /** A job's outcome, handed to its task when the resumed engine runs it again (see bindService). */
  private jobOutcome: Extract<Input, { kind: 'job' }> | undefined;
  /** The service tasks of this engine that wait for their job, by execution: a kept engine answers them directly. */
  private readonly pendingJobs = new Map<string, (err: Error | null, output?: unknown) => void>();
  /** Whether the next activity to start records the variables (a replay from the start reads them there); cloning them at every activity would cost every advance. */
  private variablesOfFirst = false;

  constructor(
    private readonly deps: EngineDeps,
    private readonly meta: DefinitionMeta,
    sourceContext: unknown,
    private readonly instance: InstanceRef,
    engineState: unknown,
    variables: Record<string, unknown>,
  ) {
    // Loaded by now: the service awaits bpmnLibraries() for the definition's context first.
    const { Engine } = loadedBpmnLibraries();
    this.engine = new Engine({
      name: instance.id,
      sourceContext,
      variables,
      timers: recordingTimers(),
      scripts: scriptRegistry((activityId, script, scope, callback) =>
        this.runScript(activityId, script, scope, callback),
      ),
      expressions: sharedExpressions(),
      extensions: {
        runtimeServices: (activity: { type: string; id: string; behaviour: Record<string, unknown> }) =>
          this.bindService(activity),
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
    this.incidents = [];
    this.steps = 0;
    this.jobOutcome = input.kind === 'job' ? input : undefined;
    try {
      if (input.kind === 'start') {
        await this.engine.execute({ listener: this.listener } as never);
      } else if (!this.running) {
        await this.engine.resume({ listener: this.listener } as never);
      } else if (input.kind === 'job') {
        // A kept engine: its task still waits for this job; answer it as a resumed one would be.
        const callback = this.pendingJobs.get(input.executionId);
        this.jobOutcome = undefined;
        if (callback) this.answerJob(input, callback);
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
        incidents: [...this.incidents, { activityId, message: this.failure.message }],
        variables: userVariables(this.variables()),
      };
    }
    // An ended instance has no state worth keeping (null: nothing to resume, nothing failed).
    const engineState = this.ended ? null : await this.engine.getState();
    const state = this.ended ? 'completed' : this.incidents.length > 0 ? 'incident' : 'active';
    return {
      state,
      waits: this.ended ? [] : [...this.waits.values()],
      history,
      incidents: this.incidents,
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
      if (this.inflight === 0) {
        await new Promise((resolve) => setImmediate(resolve));
        if (this.inflight === 0) break;
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
      for (const key of [...this.pendingJobs.keys()])
        if (key === executionId || key.startsWith(`${executionId}_`)) this.pendingJobs.delete(key);
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

  private runScript(
    activityId: string,
    script: RegisteredScript,
    scope: { environment: { variables: Record<string, unknown> } },
    callback: (err: Error | null, result?: unknown) => void,
  ): void {
    const isCondition = script.type === 'bpmn:SequenceFlow';
    this.track(
      activityId,
      isCondition,
      async () => {
        if (!/^(javascript|js)$/i.test(script.language))
          throw new Error(`Script language "${script.language}" is not supported (JavaScript only).`);
        const sandbox = this.deps.sandbox();
        if (!sandbox) throw new Error('No sandbox is available to run scripts.');
        const outcome = await sandbox.run({
          tenantId: this.instance.tenantId,
          files: { 'main.js': script.body },
          input: { body: null, headers: {}, key: this.instance.businessKey },
          globals: { variables: userVariables(scope.environment.variables) },
        });
        if (!outcome.ok)
          throw new Error(
            `Script failed: ${outcome.error?.message ?? 'unknown error'}${outcome.error?.line ? ` (line ${outcome.error.line})` : ''}`,
          );
        if (isCondition) return Boolean(outcome.result);
        if (isPlainObject(outcome.result)) Object.assign(scope.environment.variables, outcome.result);
        return outcome.result;
      },
      callback,
    );
  }

  /**
   * A service, send or business-rule task: a job for a worker when the model names a job type
   * (meta.jobs) or when no publisher serves its implementation (`stream:<id>` is served by the
   * streams plugin); else the publisher does its work. A job's task never calls back in the advance
   * that reaches it: the instance waits; the job's completion resumes the saved state, whose task
   * runs again and finds the outcome (jobOutcome).
   */
  private bindService(activity: { type: string; id: string; behaviour: Record<string, unknown> }): undefined {
    if (!/^bpmn:(ServiceTask|SendTask|BusinessRuleTask)$/.test(activity.type)) return undefined;
    const implementation = String(activity.behaviour.implementation ?? '');
    const jobType = this.meta.jobs?.[activity.id];
    const self = this;
    activity.behaviour.Service = function BoundService() {
      return {
        execute(
          message: { content: { executionId: string } },
          callback: (err: Error | null, output?: unknown) => void,
        ) {
          const [scheme, ...rest] = implementation.split(':');
          const target = rest.join(':');
          const publisher =
            jobType === undefined && target ? self.deps.publishers().find((p) => p.scheme === scheme) : undefined;
          if (!publisher) {
            self.runJob(activity.id, jobType ?? activity.id, message.content.executionId, callback);
            return;
          }
          self.track(
            activity.id,
            false,
            async () => {
              if (!self.trx) throw new Error('A service task ran outside an advance.');
              const variables = userVariables(self.variables());
              return publisher.publish(self.trx, {
                tenantId: self.instance.tenantId,
                target,
                key: self.instance.businessKey ?? self.instance.id,
                value: variables,
                headers: { 'x-bpmn-instance': self.instance.id, 'x-bpmn-activity': activity.id },
              });
            },
            (err, result) => callback(err, result),
          );
        },
      };
    };
    return undefined;
  }

  private runJob(
    activityId: string,
    type: string,
    executionId: string,
    callback: (err: Error | null, output?: unknown) => void,
  ): void {
    const outcome = this.jobOutcome;
    if (outcome?.executionId !== executionId) {
      this.waits.set(executionId, { kind: 'job', activityId, executionId, type });
      this.pendingJobs.set(executionId, callback);
      return;
    }
    this.jobOutcome = undefined;
    this.answerJob(outcome, callback);
  }

  /** Whether this engine's task waits for the job of `executionId` (a kept engine can take its outcome directly). */
  awaitsJob(executionId: string): boolean {
    return this.pendingJobs.has(executionId);
  }

  /** Hands a job's outcome to its waiting task. */
  private answerJob(
    outcome: Extract<Input, { kind: 'job' }>,
    callback: (err: Error | null, output?: unknown) => void,
  ): void {
    const executionId = outcome.executionId;
    this.pendingJobs.delete(executionId);
    this.waits.delete(executionId);
    // Answered once the whole saved state resumed: a boundary event resumed after its task would miss the task's end.
    this.inflight += 1;
    setImmediate(() => {
      this.inflight -= 1;
      if (outcome.variables) Object.assign(this.variables(), outcome.variables);
      if (outcome.outcome === 'error') {
        callback(
          Object.assign(new Error(outcome.errorMessage ?? `BPMN error ${outcome.errorCode}`), {
            code: outcome.errorCode,
          }),
        );
        return;
      }
      callback(null, outcome.variables ?? {});
    });
  }

  /**
   * Runs async work the engine waits for, retrying; a failure that nothing catches becomes an
   * incident and leaves the activity waiting (resolving the incident resumes it, which runs it again).
   */
  private track(
    activityId: string,
    isCondition: boolean,
    work: () => Promise<unknown>,
    callback: (err: Error | null, result?: unknown) => void,
  ): void {
    this.inflight += 1;
    void (async () => {
      let lastError: Error | undefined;
      for (let attempt = 0; attempt <= this.deps.retries; attempt++) {
        try {
          const result = await work();
          this.inflight -= 1;
          callback(null, result);
          return;
        } catch (err) {
          lastError = err as Error;
          this.deps.log(
            'warn',
            `Activity ${activityId} failed (attempt ${attempt + 1} of ${this.deps.retries + 1}): ${lastError.message}`,
            { instance: this.instance.id, activity: activityId },
          );
        }
      }
      this.inflight -= 1;
      if (!isCondition && this.meta.error_caught.includes(activityId)) {
        callback(lastError!);
        return;
      }
      this.incidents.push({ activityId, message: lastError!.message });
    })();
  }
}
